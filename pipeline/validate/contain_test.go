package validate_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"curate/internal/testenv"
	"curate/pipeline"
	. "curate/pipeline/validate"
)

// Without limits in task.toml, the workspace's (else the default) memory
// and CPU bound the container; capabilities are dropped to KeptCaps; /tmp
// is a tmpfs where binaries can still run; lo has IPv6 (::1).
func TestContainerDefaultsAndCapabilities(t *testing.T) {
	img := testenv.BusyboxImage(t)
	v, r := testValidator(t)
	r.SetLimits(Limits{MemoryMB: 300, CPUs: 0.5})
	dir := fixtureTask(t, "bb-valid", img)
	os.WriteFile(filepath.Join(dir, "task.toml"), []byte("schema_version = \"1.0\"\n[verifier]\ntimeout_sec = 60\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "tests", "test.sh"), []byte(`#!/bin/bash
echo "mem: $(cat /sys/fs/cgroup/memory.max 2>/dev/null || cat /sys/fs/cgroup/memory/memory.limit_in_bytes)"
echo "cpu: $(cat /sys/fs/cgroup/cpu.max 2>/dev/null || cat /sys/fs/cgroup/cpu/cpu.cfs_quota_us)"
echo "capeff: $(grep CapEff /proc/self/status)"
echo "tmp: $(grep ' /tmp ' /proc/mounts)"
cp /bin/busybox /tmp/true && /tmp/true && echo "tmp exec: ok"
mknod /tmp/dev c 1 3 2>/dev/null && echo "mknod: allowed" || echo "mknod: refused"
echo "ipv6 lo: $(cat /proc/sys/net/ipv6/conf/lo/disable_ipv6) $(grep -c '^0*1 .* lo$' /proc/net/if_inet6)"
echo 0 > /logs/verifier/reward.txt
`), 0o755)
	run := validateOne(t, v, dir, ModeNop)
	log := logOf(t, run)
	// IPv6 on lo: ::1 is there, as on a CI machine.
	if !strings.Contains(log, "ipv6 lo: 0 1") {
		t.Errorf("no ::1 on lo:\n%s", log)
	}
	// 0x4fb: the bits of CHOWN DAC_OVERRIDE FOWNER FSETID KILL SETGID SETUID NET_BIND_SERVICE.
	for _, want := range []string{"mem: 314572800", "tmp: tmpfs /tmp tmpfs", "tmp exec: ok", "mknod: refused", "CapEff: 00000000000004fb"} {
		if !strings.Contains(log, want) {
			t.Errorf("log lacks %q:\n%s", want, log)
		}
	}
	if !strings.Contains(log, "cpu: 50000") {
		t.Errorf("half a CPU: log\n%s", log)
	}
	if run.Outcome != pipeline.OutcomeOK {
		t.Errorf("outcome %s (%s)", run.Outcome, run.Detail)
	}
}

// memoryTask is a busybox task with a 64 MB memory limit and testSh as
// its tests/test.sh.
func memoryTask(t *testing.T, testSh string) (*Validator, string) {
	t.Helper()
	img := testenv.BusyboxImage(t)
	v, _ := testValidator(t)
	dir := fixtureTask(t, "bb-valid", img)
	os.WriteFile(filepath.Join(dir, "task.toml"), []byte("schema_version = \"1.0\"\n[verifier]\ntimeout_sec = 120\n[environment]\nmemory_mb = 64\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "tests", "test.sh"), []byte(testSh), 0o755)
	return v, dir
}

// A suite that allocates without bound is stopped by the memory limit and
// classed oom, quickly, with the limit and the fix in the detail.
func TestUnboundedAllocationIsOOM(t *testing.T) {
	v, dir := memoryTask(t, `#!/bin/bash
mkdir -p /logs/verifier; echo 0 > /logs/verifier/reward.txt
echo "allocating without bound"
awk 'BEGIN { s = "x"; while (1) s = s s }'
echo "survived?"
echo 1 > /logs/verifier/reward.txt
`)
	start := time.Now()
	run := validateOne(t, v, dir, ModeNop)
	if run.Outcome != pipeline.OutcomeOOM || !strings.Contains(run.Detail, "memory limit (64 MB)") || !strings.Contains(run.Detail, "memory_mb") {
		t.Fatalf("outcome %s (%s)\nlog:\n%s", run.Outcome, run.Detail, logOf(t, run))
	}
	if d := time.Since(start); d > 60*time.Second {
		t.Errorf("took %v: the limit should stop it at once", d)
	}
}

// jq 3490 ("infinite loop in del(.[nan])"): before the fix one test
// allocates without end. The kernel kills that process at the limit and
// test.sh goes on to its end with reward 0 (curate's test.sh exits 0): the buggy state's result stands (NOP ok), as a
// crashed test fails. The same on the fixed state (Oracle) stays oom: the
// fix must fit the limit.
func TestBuggyStateKilledAtTheMemoryLimitFails(t *testing.T) {
	v, dir := memoryTask(t, `#!/bin/bash
mkdir -p /logs/verifier
awk 'BEGIN { s = "x"; while (1) s = s s }' && status=0 || status=1
echo "the allocating test ended: status $status"
echo 0 > /logs/verifier/reward.txt
exit 0
`)
	run := validateOne(t, v, dir, ModeNop)
	log := logOf(t, run)
	if run.Outcome != pipeline.OutcomeOK || !strings.Contains(log, "the kernel killed a process at the memory limit (64 MB) on the buggy state") {
		t.Errorf("nop: outcome %s (%s)\nlog:\n%s", run.Outcome, run.Detail, log)
	}
	if run := validateOne(t, v, dir, ModeOracle); run.Outcome != pipeline.OutcomeOOM {
		t.Errorf("oracle: outcome %s (%s), want oom", run.Outcome, run.Detail)
	}
}

// [docker] user: a container of an image that would run as root runs as
// that user, with a writable HOME, the task files copied in and /logs
// writable; task.toml's [verifier] user still wins.
func TestDockerUserForRootImages(t *testing.T) {
	img := testenv.BusyboxImage(t)
	v, r := testValidator(t)
	r.SetUser("65534:65534")
	dir := fixtureTask(t, "bb-valid", img)
	// Debian's /tmp is 1777 (the tmpfs takes the image's mode); busybox's is not.
	df := filepath.Join(dir, "environment", "Dockerfile")
	data, _ := os.ReadFile(df)
	os.WriteFile(df, append(data, "RUN chmod 1777 /tmp\n"...), 0o644)
	os.WriteFile(filepath.Join(dir, "tests", "test.sh"), []byte(`#!/bin/bash
echo "uid: $(id -u) gid: $(id -g) home: $HOME"
touch "$HOME/cache" && echo "home writable"
echo 0 > /logs/verifier/reward.txt
`), 0o755)
	run := validateOne(t, v, dir, ModeNop)
	log := logOf(t, run)
	for _, want := range []string{"uid: 65534 gid: 65534 home: /tmp", "home writable"} {
		if !strings.Contains(log, want) {
			t.Errorf("log lacks %q:\n%s", want, log)
		}
	}
	if run.Outcome != pipeline.OutcomeOK {
		t.Errorf("outcome %s (%s)", run.Outcome, run.Detail)
	}
	os.WriteFile(filepath.Join(dir, "task.toml"), []byte("schema_version = \"1.0\"\n[verifier]\ntimeout_sec = 60\nuser = \"0\"\n"), 0o644)
	run = validateOne(t, v, dir, ModeNop)
	if log := logOf(t, run); !strings.Contains(log, "uid: 0 gid: 0") {
		t.Errorf("[verifier] user = \"0\" should win:\n%s", log)
	}
}
