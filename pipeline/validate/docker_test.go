package validate_test

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/api/types/filters"
	"github.com/docker/docker/api/types/image"

	"curate/internal/testenv"
	"curate/pipeline"
	. "curate/pipeline/validate"
)

func TestBusyboxOutcomes(t *testing.T) {
	img := testenv.BusyboxImage(t)
	v, _ := testValidator(t)
	cases := []struct {
		task, mode string
		want       pipeline.Outcome
		reward     float64
		detail     string
	}{
		{"bb-valid", ModeNop, pipeline.OutcomeOK, 0, ""},
		{"bb-valid", ModeOracle, pipeline.OutcomeOK, 1, ""},
		{"bb-nop-passed", ModeNop, pipeline.OutcomeNopPassed, 1, "do not catch the bug"},
		{"bb-oracle-failed", ModeOracle, pipeline.OutcomeOracleFailed, 0, "reference solution"},
		{"bb-reward-invalid", ModeNop, pipeline.OutcomeRewardInvalid, -1, `"abc" is not a number`},
		{"bb-reward-missing", ModeOracle, pipeline.OutcomeRewardMissing, -1, "neither"},
		{"bb-build-failed", ModeNop, pipeline.OutcomeBuildFailed, -1, "Step 3/6 : RUN echo \"compiling\" && exit 3: The command"},
	}
	for _, tc := range cases {
		t.Run(tc.task+"/"+tc.mode, func(t *testing.T) {
			t.Parallel()
			dir := fixtureTask(t, tc.task, img)
			run := validateOne(t, v, dir, tc.mode)
			if run.Outcome != tc.want {
				t.Fatalf("outcome %s (%s), want %s\nlog:\n%s", run.Outcome, run.Detail, tc.want, logOf(t, run))
			}
			if tc.reward >= 0 && (run.Reward == nil || *run.Reward != tc.reward) {
				t.Errorf("reward %v, want %v", run.Reward, tc.reward)
			}
			if !strings.Contains(run.Detail, tc.detail) {
				t.Errorf("detail %q does not mention %q", run.Detail, tc.detail)
			}
		})
	}
}

func TestLogsStreamAndOracleOutput(t *testing.T) {
	img := testenv.BusyboxImage(t)
	v, _ := testValidator(t)
	c := &collector{}
	v.OnStart = c.onStart
	dir := fixtureTask(t, "bb-oracle-failed", img)
	run := validateOne(t, v, dir, ModeOracle)
	c.wg.Wait()
	live := strings.Join(c.lines[run.ID], "\n")
	file := logOf(t, run)
	for _, want := range []string{"curate: oracle: bash /solution/solve.sh", "applying fix.patch", "error: patch does not apply", "curate: verifier: bash /tests/test.sh", "not ok 2 - value is fixed", "curate: outcome oracle_failed"} {
		if !strings.Contains(live, want) {
			t.Errorf("live log lacks %q:\n%s", want, live)
		}
		if !strings.Contains(file, want) {
			t.Errorf("log file lacks %q", want)
		}
	}
}

func TestSecondValidationDoesNotBuild(t *testing.T) {
	img := testenv.BusyboxImage(t)
	_, r := testValidator(t)
	dir := fixtureTask(t, "bb-valid", img)
	// A unique environment so the first call really builds.
	os.WriteFile(filepath.Join(dir, "environment", "stamp"), []byte(time.Now().String()), 0o644)
	ctx := context.Background()
	tag1, built1, err := r.Image(ctx, dir, nil)
	if err != nil || !built1 {
		t.Fatalf("first: built=%v err=%v", built1, err)
	}
	t.Cleanup(func() {
		r.Client().ImageRemove(context.Background(), tag1, image.RemoveOptions{Force: true, PruneChildren: true})
	})
	tag2, built2, err := r.Image(ctx, dir, nil)
	if err != nil || built2 || tag2 != tag1 {
		t.Fatalf("second: tag %s built=%v err=%v", tag2, built2, err)
	}
	img1, err := r.Client().ImageInspect(ctx, tag1)
	if err != nil || img1.Config.Labels[LabelManaged] != "true" || img1.Config.Labels[LabelWorkspace] == "" {
		t.Fatalf("image labels %v, err %v", img1.Config.Labels, err)
	}
}

func TestSymlinkLeavingEnvironmentIsRefused(t *testing.T) {
	img := testenv.BusyboxImage(t)
	v, _ := testValidator(t)
	dir := fixtureTask(t, "bb-valid", img)
	if err := os.Symlink("/etc/passwd", filepath.Join(dir, "environment", "passwd")); err != nil {
		t.Fatal(err)
	}
	run := validateOne(t, v, dir, ModeNop)
	if run.Outcome != pipeline.OutcomeBuildFailed || !strings.Contains(run.Detail, "leaves") {
		t.Fatalf("outcome %s: %s", run.Outcome, run.Detail)
	}
}

func TestSymlinkLeavingTestsIsRefused(t *testing.T) {
	img := testenv.BusyboxImage(t)
	v, _ := testValidator(t)
	dir := fixtureTask(t, "bb-valid", img)
	if err := os.Symlink("/etc/shadow", filepath.Join(dir, "tests", "secret")); err != nil {
		t.Fatal(err)
	}
	run := validateOne(t, v, dir, ModeNop)
	if run.Outcome != pipeline.OutcomeBuildFailed || !strings.Contains(run.Detail, "task files") || !strings.Contains(run.Detail, "leaves") {
		t.Fatalf("outcome %s: %s", run.Outcome, run.Detail)
	}
}

func TestGoldOnTAP(t *testing.T) {
	img := testenv.BusyboxImage(t)
	v, _ := testValidator(t)
	v.Runs = 2
	run := validateOne(t, v, fixtureTask(t, "bb-valid", img), ModeGold)
	if run.Outcome != pipeline.OutcomeOK {
		t.Fatalf("outcome %s: %s\n%s", run.Outcome, run.Detail, logOf(t, run))
	}
	if !reflect.DeepEqual(run.FailToPass, []string{"value is fixed"}) || !reflect.DeepEqual(run.PassToPass, []string{"app exists"}) {
		t.Fatalf("F2P %v P2P %v", run.FailToPass, run.PassToPass)
	}
}

func TestFlakyUnderFourRuns(t *testing.T) {
	img := testenv.BusyboxImage(t)
	v, _ := testValidator(t)
	v.Runs = 4
	dir := fixtureTask(t, "bb-flaky", img)
	// The fixture flips a coin, so four equal results happen one time in
	// eight; three tries make a false failure a 1-in-512 event.
	var run *pipeline.Run
	for try := 0; try < 3; try++ {
		run = validateOne(t, v, dir, ModeOracle)
		if run.Outcome == pipeline.OutcomeFlaky {
			break
		}
	}
	if run.Outcome != pipeline.OutcomeFlaky || run.Attempt != 4 || !strings.Contains(run.Detail, "differ") {
		t.Fatalf("outcome %s after %d attempts: %s", run.Outcome, run.Attempt, run.Detail)
	}
}

func runContainers(t *testing.T, r *DockerRunner) []container.Summary {
	t.Helper()
	list, err := r.Client().ContainerList(context.Background(), container.ListOptions{All: true,
		Filters: filters.NewArgs(filters.Arg("label", LabelWorkspace+"="+r.Workspace()))})
	if err != nil {
		t.Fatal(err)
	}
	return list
}

func TestTimeoutLeavesNoContainer(t *testing.T) {
	img := testenv.BusyboxImage(t)
	v, r := testValidator(t)
	v.Timeout = 2 * time.Second
	run := validateOne(t, v, fixtureTask(t, "bb-slow", img), ModeNop)
	if run.Outcome != pipeline.OutcomeTimeout {
		t.Fatalf("outcome %s: %s", run.Outcome, run.Detail)
	}
	if left := runContainers(t, r); len(left) != 0 {
		t.Fatalf("%d containers left behind", len(left))
	}
}

func TestCancelLeavesNoContainer(t *testing.T) {
	img := testenv.BusyboxImage(t)
	v, r := testValidator(t)
	c := &collector{}
	v.OnStart = c.onStart
	// Ask to cancel once the suite has started.
	v.CancelRequested = func(id string) bool {
		c.mu.Lock()
		defer c.mu.Unlock()
		return strings.Contains(strings.Join(c.lines[id], "\n"), "running a long suite")
	}
	start := time.Now()
	run := validateOne(t, v, fixtureTask(t, "bb-slow", img), ModeNop)
	if run.Outcome != pipeline.OutcomeCancelled || time.Since(start) > time.Minute {
		t.Fatalf("outcome %s: %s", run.Outcome, run.Detail)
	}
	if left := runContainers(t, r); len(left) != 0 {
		t.Fatalf("%d containers left behind", len(left))
	}
}

func TestContainerIsConfinedByTaskToml(t *testing.T) {
	img := testenv.BusyboxImage(t)
	v, _ := testValidator(t)
	dir := fixtureTask(t, "bb-valid", img)
	os.WriteFile(filepath.Join(dir, "tests", "test.sh"), []byte(`#!/bin/bash
echo "net: $(ls /sys/class/net | tr '\n' ' ')"
echo "mem: $(cat /sys/fs/cgroup/memory.max 2>/dev/null || cat /sys/fs/cgroup/memory/memory.limit_in_bytes)"
echo "pids: $(cat /sys/fs/cgroup/pids.max 2>/dev/null || cat /sys/fs/cgroup/pids/pids.max)"
echo "uid: $(id -u)"
echo 0 > /logs/verifier/reward.txt
`), 0o755)
	run := validateOne(t, v, dir, ModeNop)
	log := logOf(t, run)
	for _, want := range []string{"net: lo \n", "mem: 268435456", "pids: 4096"} {
		if !strings.Contains(log, want) {
			t.Errorf("log lacks %q:\n%s", want, log)
		}
	}
}

// A schema 1.4 multi-step task: the healthcheck passes, every step runs in
// the task's workdir with its own tests over the task's, and the reward is
// the steps' mean (or the final one).
func TestMultiStepWorkdirHealthcheck(t *testing.T) {
	img := testenv.BusyboxImage(t)
	v, _ := testValidator(t)
	dir := fixtureTask(t, "bb-steps", img)
	for _, c := range []struct {
		mode   string
		want   pipeline.Outcome
		reward float64
	}{{ModeNop, pipeline.OutcomeOK, 0}, {ModeOracle, pipeline.OutcomeOK, 1}} {
		run := validateOne(t, v, dir, c.mode)
		log := logOf(t, run)
		if run.Outcome != c.want || run.Reward == nil || *run.Reward != c.reward {
			t.Fatalf("%s: outcome %s (%s) reward %v\n%s", c.mode, run.Outcome, run.Detail, run.Reward, log)
		}
		for _, want := range []string{"curate: healthcheck passed", "curate: step one", "curate: step two reward", "curate: mean reward of the steps"} {
			if !strings.Contains(log, want) {
				t.Errorf("%s: log lacks %q:\n%s", c.mode, want, log)
			}
		}
	}
	// Without step two's solution: mean 0.5 is not a valid oracle reward,
	// and "final" scores the last step alone.
	os.RemoveAll(filepath.Join(dir, "steps", "two", "solution"))
	if run := validateOne(t, v, dir, ModeOracle); run.Outcome != pipeline.OutcomeRewardInvalid || !strings.Contains(run.Detail, "0.5") {
		t.Errorf("mean of 1 and 0: %s (%s)", run.Outcome, run.Detail)
	}
	toml := filepath.Join(dir, "task.toml")
	data, _ := os.ReadFile(toml)
	os.WriteFile(toml, []byte(strings.Replace(string(data), `"mean"`, `"final"`, 1)), 0o644)
	if run := validateOne(t, v, dir, ModeOracle); run.Outcome != pipeline.OutcomeOracleFailed {
		t.Errorf("final step failed: %s (%s)", run.Outcome, run.Detail)
	}
	// A healthcheck that never passes stops the run before the agent.
	os.WriteFile(toml, []byte(strings.Replace(string(data), "/app/ready", "/app/never", 1)), 0o644)
	if run := validateOne(t, v, dir, ModeNop); run.Outcome != pipeline.OutcomeBuildFailed || !strings.Contains(run.Detail, "healthcheck") {
		t.Errorf("failing healthcheck: %s (%s)", run.Outcome, run.Detail)
	}
	// An allowlist with hosts cannot be enforced: refused, not run.
	os.WriteFile(toml, []byte(strings.Replace(string(data), "network_mode = \"allowlist\"", "network_mode = \"allowlist\"\nallowed_hosts = [\"pypi.org\"]", 1)), 0o644)
	if run := validateOne(t, v, dir, ModeNop); run.Outcome != pipeline.OutcomeUnsupported || !strings.Contains(run.Detail, "allowed_hosts pypi.org") {
		t.Errorf("allowlist: %s (%s)", run.Outcome, run.Detail)
	}
}
