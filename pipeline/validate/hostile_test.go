package validate_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"curate/internal/testenv"
	"curate/pipeline"
	. "curate/pipeline/validate"
)

// hostileTask is a bb-valid copy with its own task.toml and test.sh.
func hostileTask(t *testing.T, img, toml, testSh string) string {
	t.Helper()
	dir := fixtureTask(t, "bb-valid", img)
	os.WriteFile(filepath.Join(dir, "task.toml"), []byte("schema_version = \"1.0\"\n"+toml), 0o644)
	os.WriteFile(filepath.Join(dir, "tests", "test.sh"), []byte("#!/bin/bash\n"+testSh), 0o755)
	return dir
}

// A task's own limits never lift the workspace's caps: memory, CPUs and
// pids are clamped, and the run's log says each clamp.
func TestTaskValuesClampedToCaps(t *testing.T) {
	img := testenv.BusyboxImage(t)
	v, r := testValidator(t)
	r.SetCaps(Caps{MemoryMB: 300, CPUs: 0.5, Pids: 100})
	dir := hostileTask(t, img, "[verifier]\ntimeout_sec = 60\n[environment]\nmemory_mb = 1000000\ncpus = 64\npids_limit = 4194304\n", `
echo "mem: $(cat /sys/fs/cgroup/memory.max 2>/dev/null || cat /sys/fs/cgroup/memory/memory.limit_in_bytes)"
echo "cpu: $(cat /sys/fs/cgroup/cpu.max 2>/dev/null || cat /sys/fs/cgroup/cpu/cpu.cfs_quota_us)"
echo "pids: $(cat /sys/fs/cgroup/pids.max 2>/dev/null || cat /sys/fs/cgroup/pids/pids.max)"
echo "tmp: $(grep ' /tmp ' /proc/mounts)"
echo 0 > /logs/verifier/reward.txt
`)
	run := validateOne(t, v, dir, ModeNop)
	log := logOf(t, run)
	for _, want := range []string{"mem: 314572800", "pids: 100", "size=153600k",
		"curate: cap: task.toml memory_mb = 1000000 MB is over max_memory; the container gets 300 MB",
		"curate: cap: task.toml cpus = 64 is over max_cpus; the container gets 0.5",
		"curate: cap: task.toml pids_limit = 4194304 is over max_pids; the container gets 100"} {
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

// Values no machine has are refused when task.toml is read, naming the
// file and the key; no container is made and no daemon message shown.
func TestOutOfRangeTaskValuesRefused(t *testing.T) {
	for _, c := range []struct{ toml, key string }{
		{"memory_mb = 1000000000", "environment.memory_mb: want at most 16777216"},
		{"pids_limit = 1e12", "environment.pids_limit: want at most 4194304"},
		{"cpus = 5000", "environment.cpus: want at most 1024"},
		{`memory = "900T"`, "environment.memory: want at most 16777216 MB"},
	} {
		dir := t.TempDir()
		os.WriteFile(filepath.Join(dir, "task.toml"), []byte("[environment]\n"+c.toml+"\n"), 0o644)
		_, err := ReadTaskConfig(dir)
		if err == nil || !strings.Contains(err.Error(), filepath.Join(dir, "task.toml")+": "+c.key) {
			t.Errorf("%s: err %v, want the file and %q", c.toml, err, c.key)
		}
	}
}

// A test printing without end: the log stops at max_log with one marker
// line, the run goes on to its outcome, which the log still ends with.
func TestEndlessOutputCappedAtMaxLog(t *testing.T) {
	img := testenv.BusyboxImage(t)
	v, r := testValidator(t)
	r.SetCaps(Caps{LogBytes: 64 << 10})
	dir := hostileTask(t, img, "[verifier]\ntimeout_sec = 120\n", `
i=0; while [ $i -lt 200000 ]; do echo "line $i of endless output"; i=$((i+1)); done
echo 0 > /logs/verifier/reward.txt
echo "after the flood"
`)
	run := validateOne(t, v, dir, ModeNop)
	fi, err := os.Stat(run.LogPath)
	if err != nil {
		t.Fatal(err)
	}
	log := logOf(t, run)
	if fi.Size() > 80<<10 || !strings.Contains(log, "curate: log cap: the output passed 65536 bytes (max_log)") ||
		strings.Contains(log, "after the flood") || !strings.Contains(log, "curate: outcome ok") {
		t.Fatalf("log of %d bytes, outcome %s:\n%s", fi.Size(), run.Outcome, log[max(0, len(log)-2000):])
	}
}

// A test filling its disk is stopped at max_disk: by the engine's quota
// where the storage driver has one (the writes fail), else by the
// watchdog (the run ends as disk_limit).
func TestDiskCap(t *testing.T) {
	img := testenv.BusyboxImage(t)
	v, r := testValidator(t)
	r.SetCaps(Caps{DiskMB: 20})
	dir := hostileTask(t, img, "[verifier]\ntimeout_sec = 300\n", `
echo 0 > /logs/verifier/reward.txt
i=0; while dd if=/dev/zero of=/fill.$i bs=1M count=5 2>/dev/null; do i=$((i+1)); sleep 0.2; done
echo "a write failed: disk full"
`)
	run := validateOne(t, v, dir, ModeNop)
	mech, driver := r.DiskCap()
	t.Logf("disk cap by %s (%s): outcome %s (%s)", mech, driver, run.Outcome, run.Detail)
	switch mech {
	case DiskWatchdog:
		if run.Outcome != pipeline.OutcomeDiskLimit || run.Failure == nil || run.Failure.Class != pipeline.ClassDiskLimit ||
			!strings.Contains(run.Detail, "over the disk cap of 20 MB") {
			t.Fatalf("outcome %s (%s) %+v\n%s", run.Outcome, run.Detail, run.Failure, logOf(t, run))
		}
	default:
		if !strings.Contains(logOf(t, run), "a write failed: disk full") {
			t.Fatalf("outcome %s (%s)\n%s", run.Outcome, run.Detail, logOf(t, run))
		}
	}
}

// test.sh has finished when it exits: a background process holding its
// stdout does not keep the run until the timeout.
func TestBackgroundHolderOfStdoutDoesNotTimeOut(t *testing.T) {
	img := testenv.BusyboxImage(t)
	v, _ := testValidator(t)
	dir := hostileTask(t, img, "[verifier]\ntimeout_sec = 120\n", `
sleep 600 &
echo 0 > /logs/verifier/reward.txt
echo "test done, a sleeper keeps stdout"
exit 0
`)
	run := validateOne(t, v, dir, ModeNop)
	log := logOf(t, run)
	if run.Outcome != pipeline.OutcomeOK || !strings.Contains(log, "test done, a sleeper keeps stdout") {
		t.Fatalf("outcome %s (%s)\n%s", run.Outcome, run.Detail, log)
	}
}
