package validate

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"curate/pipeline"
)

// taskRunner answers reward 1 for every verification of a task dir named
// "passing" (its tests pass before the fix) and 0/1 by state for the
// others, counting containers per task dir.
type taskRunner struct {
	mu    sync.Mutex
	calls map[string]int
}

func (r *taskRunner) Host() string { return "fake" }
func (r *taskRunner) Image(context.Context, string, io.Writer) (string, bool, error) {
	return "img", false, nil
}
func (r *taskRunner) Exec(_ context.Context, spec ExecSpec, out Output) (*ExecResult, error) {
	r.mu.Lock()
	r.calls[filepath.Base(spec.TaskDir)]++
	r.mu.Unlock()
	reward := "0"
	if spec.Oracle || filepath.Base(spec.TaskDir) == "passing" {
		reward = "1"
	}
	fmt.Fprintln(out.Stdout, "ran")
	return &ExecResult{HasText: true, RewardText: []byte(reward)}, nil
}

func taskDirs(t *testing.T, names ...string) map[string]string {
	root := t.TempDir()
	out := map[string]string{}
	for _, n := range names {
		d := filepath.Join(root, n)
		os.MkdirAll(d, 0o755)
		os.WriteFile(filepath.Join(d, "task.toml"), nil, 0o644)
		out[n] = d
	}
	return out
}

// A mined task whose NOP run passes runs no other mode: Oracle and gold
// end cancelled with the reason, without a container. A task that is not
// mined, and a mined one whose NOP fails, run every mode.
func TestNopPassingStopsTheMinedTask(t *testing.T) {
	dirs := taskDirs(t, "passing", "failing", "imported")
	var jobs []Job
	for _, task := range []struct {
		name  string
		mined bool
	}{{"passing", true}, {"failing", true}, {"imported", false}} {
		for _, m := range []string{ModeNop, ModeOracle} {
			jobs = append(jobs, Job{TaskID: task.name, TaskDir: dirs[task.name], Mode: m, StopWhenNopPasses: task.mined})
		}
	}
	for _, concurrency := range []int{1, 3} {
		r := &taskRunner{calls: map[string]int{}}
		v, _ := poolValidator(r)
		v.Concurrency = concurrency
		runs := v.Validate(context.Background(), jobs)
		byKey := map[string]*pipeline.Run{}
		for _, run := range runs {
			byKey[run.TaskID+" "+run.Mode] = run
		}
		if o := byKey["passing nop"].Outcome; o != pipeline.OutcomeNopPassed {
			t.Fatalf("concurrency %d: passing nop %s", concurrency, o)
		}
		if run := byKey["passing oracle"]; run.Outcome != pipeline.OutcomeCancelled || run.Detail != earlyStopDetail {
			t.Errorf("concurrency %d: passing oracle %s %q, want cancelled by the early verdict", concurrency, run.Outcome, run.Detail)
		}
		if r.calls["passing"] != 1 {
			t.Errorf("concurrency %d: %d containers for the passing task, want 1 (NOP)", concurrency, r.calls["passing"])
		}
		if r.calls["failing"] != 2 || byKey["failing oracle"].Outcome != pipeline.OutcomeOK {
			t.Errorf("concurrency %d: failing task: %d containers, oracle %s", concurrency, r.calls["failing"], byKey["failing oracle"].Outcome)
		}
		if r.calls["imported"] != 2 {
			t.Errorf("concurrency %d: imported task: %d containers, want 2 (only mined tasks stop early)", concurrency, r.calls["imported"])
		}
	}
	// The task is judged from its NOP alone: invalid, no_fail_to_pass.
	r := &taskRunner{calls: map[string]int{}}
	v, _ := poolValidator(r)
	runs := v.Validate(context.Background(), jobs[:2])
	task := &pipeline.Task{ID: "passing", Source: "git"}
	if verdict := pipeline.Judge(task, runs); !verdict.Decided || verdict.Status != pipeline.StatusInvalid || verdict.Failure == nil || verdict.Failure.Class != pipeline.ClassNoFailToPass {
		t.Fatalf("verdict %+v", verdict)
	}
}

// goTestRunner prints a go test -v log: TestX fails before the fix and
// passes after it, TestY passes in both; it counts containers.
type goTestRunner struct {
	mu    sync.Mutex
	calls int
}

func (r *goTestRunner) Host() string { return "fake" }
func (r *goTestRunner) Image(context.Context, string, io.Writer) (string, bool, error) {
	return "img", false, nil
}
func (r *goTestRunner) Exec(_ context.Context, spec ExecSpec, out Output) (*ExecResult, error) {
	r.mu.Lock()
	r.calls++
	r.mu.Unlock()
	x, reward := "FAIL", "0"
	if spec.Oracle {
		x, reward = "PASS", "1"
	}
	log := fmt.Sprintf("=== RUN   TestX\n--- %s: TestX (0.00s)\n=== RUN   TestY\n--- PASS: TestY (0.00s)\n%s\n", x, x)
	fmt.Fprint(out.Stdout, log)
	res := &ExecResult{HasText: true, RewardText: []byte(reward), TestExit: map[string]int{"FAIL": 1, "PASS": 0}[x]}
	if spec.KeepTestLog {
		res.TestLog, res.HasTestLog = []byte(log), true
	}
	return res, nil
}

// NOP, Oracle and gold of one task take two executions, not four: gold
// reads the buggy state from the NOP run and the fixed one from Oracle
// (TestX's id is a plain name, so the fixed state is not run again), and
// its lists are what running the states itself gave.
func TestGoldReadsTheNopAndOracleExecutions(t *testing.T) {
	dirs := taskDirs(t, "task")
	var jobs []Job
	for _, m := range []string{ModeNop, ModeOracle, ModeGold} {
		jobs = append(jobs, Job{TaskID: "task", TaskDir: dirs["task"], Mode: m, StopWhenNopPasses: true, ShareStates: true})
	}
	for _, concurrency := range []int{1, 3} {
		r := &goTestRunner{}
		v, _ := poolValidator(r)
		v.Concurrency = concurrency
		runs := v.Validate(context.Background(), jobs)
		if r.calls != 2 {
			t.Errorf("concurrency %d: %d executions, want 2", concurrency, r.calls)
		}
		g := runs[2]
		if g.Outcome != pipeline.OutcomeOK || strings.Join(g.FailToPass, ",") != "TestX" || strings.Join(g.PassToPass, ",") != "TestY" {
			t.Errorf("concurrency %d: gold %s %q F2P %v P2P %v", concurrency, g.Outcome, g.Detail, g.FailToPass, g.PassToPass)
		}
		for _, run := range runs[:2] {
			if run.Outcome != pipeline.OutcomeOK {
				t.Errorf("concurrency %d: %s %s %q", concurrency, run.Mode, run.Outcome, run.Detail)
			}
		}
	}
	// Gold alone runs both states itself.
	r := &goTestRunner{}
	v, _ := poolValidator(r)
	alone := jobs[2]
	alone.ShareStates = false
	if runs := v.Validate(context.Background(), []Job{alone}); r.calls != 2 || strings.Join(runs[0].FailToPass, ",") != "TestX" {
		t.Errorf("gold alone: %d executions, F2P %v", r.calls, runs[0].FailToPass)
	}
}
