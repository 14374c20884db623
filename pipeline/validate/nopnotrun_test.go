package validate

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
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
