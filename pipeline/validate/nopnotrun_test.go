package validate

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"curate/pipeline"
)

// logRunner answers each verification with reward 0 and a fixed test log
// (what test.sh printed), as the Docker runner does with KeepTestLog.
type logRunner struct{ testLog string }

func (logRunner) Host() string { return "fake" }
func (logRunner) Image(context.Context, string, io.Writer) (string, bool, error) {
	return "img", false, nil
}
func (r logRunner) Exec(ctx context.Context, spec ExecSpec, out Output) (*ExecResult, error) {
	fmt.Fprint(out.Stdout, r.testLog)
	res := &ExecResult{HasText: true, RewardText: []byte("0"), TestExit: 4}
	if spec.KeepTestLog {
		res.TestLog, res.HasTestLog = []byte(r.testLog), true
	}
	return res, nil
}

// NOP's reward 0 is not ok when the suite never ran: the run is
// nop_not_run, with the class the log shows (here the project's own
// package missing), read from the run's log file.
func TestNopRewardZeroWithoutSuiteIsNotOK(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "task.toml"), []byte(""), 0o644)
	// A generated test.sh names its log format; only those are checked.
	os.MkdirAll(filepath.Join(dir, "tests"), 0o755)
	os.WriteFile(filepath.Join(dir, "tests", "test.sh"), []byte("#!/bin/bash\n# curate-log-format: pytest\n"), 0o644)
	notRun := "ImportError while loading conftest '/app/tests/conftest.py'.\nE   ModuleNotFoundError: No module named 'click'\n"
	ran := "tests/test_a.py::test_one FAILED\n=========================== short test summary info ============================\nFAILED tests/test_a.py::test_one - assert 1 == 2\n============================== 1 failed in 0.01s ===============================\n"
	for _, c := range []struct {
		log     string
		outcome pipeline.Outcome
		class   string
	}{
		{notRun, pipeline.OutcomeNopNotRun, pipeline.ClassDepsMissing},
		{ran, pipeline.OutcomeOK, ""},
	} {
		v := &Validator{Runners: []Runner{logRunner{c.log}}, LogDir: t.TempDir(), NewID: NewRunID}
		runs := v.Validate(context.Background(), []Job{{TaskID: "pallets__click-1", TaskDir: dir, Mode: ModeNop, Language: "python", Repo: "pallets/click"}})
		r := runs[0]
		class := ""
		if r.Failure != nil {
			class = r.Failure.Class
		}
		if r.Outcome != c.outcome || class != c.class {
			t.Errorf("outcome %s class %q (%s), want %s %q", r.Outcome, class, r.Detail, c.outcome, c.class)
		}
	}
}

// stateRunner prints one log on the buggy state and another on the fixed.
type stateRunner struct{ buggy, fixed string }

func (stateRunner) Host() string { return "fake" }
func (stateRunner) Image(context.Context, string, io.Writer) (string, bool, error) {
	return "img", false, nil
}
func (r stateRunner) Exec(ctx context.Context, spec ExecSpec, out Output) (*ExecResult, error) {
	log, reward, exit := r.buggy, "0", 1
	if spec.Oracle {
		log, reward, exit = r.fixed, "1", 0
	}
	fmt.Fprint(out.Stdout, log)
	return &ExecResult{HasText: true, RewardText: []byte(reward), TestExit: exit, TestLog: []byte(log), HasTestLog: spec.KeepTestLog}, nil
}

// PR tests that cannot load without the fix (they use what it adds) fail
// on the buggy state: gold counts them FAIL_TO_PASS when the fixed state
// runs them. A suite that runs in neither state is still no evidence.
func TestGoldSuiteThatNeedsTheFixToLoad(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "task.toml"), []byte(""), 0o644)
	crash := "TypeError: mimeTypes._extensionConflicts is not iterable\n    at Suite.<anonymous> (/app/test/test.js:233:56)\n"
	pass := "ok 1 mimeTypes conflicts resolve\nok 2 mimeTypes lookup\n1..2\n# tests 2\n# pass 2\n# fail 0\n"
	v := &Validator{Runners: []Runner{stateRunner{crash, pass}}, NewID: NewRunID}
	r := v.Validate(context.Background(), []Job{{TaskID: "t", TaskDir: dir, Mode: ModeGold}})[0]
	if r.Outcome != pipeline.OutcomeOK || len(r.FailToPass) != 2 {
		t.Errorf("gold: %s %s F2P %v", r.Outcome, r.Detail, r.FailToPass)
	}
	v = &Validator{Runners: []Runner{stateRunner{crash, crash}}, NewID: NewRunID}
	r = v.Validate(context.Background(), []Job{{TaskID: "t", TaskDir: dir, Mode: ModeGold}})[0]
	if r.Outcome != pipeline.OutcomeInfraError || !strings.Contains(r.Detail, "fixed state: the log shows no sign") {
		t.Errorf("gold with no run in either state: %s %s", r.Outcome, r.Detail)
	}
}
