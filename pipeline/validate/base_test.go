package validate_test

import (
	"context"
	"reflect"
	"testing"

	"curate/internal/testenv"
	"curate/pipeline"
	. "curate/pipeline/validate"
)

// Real Python (pytest) and Go tasks on the Debian image `curate env
// bootstrap` makes: NOP 0, Oracle 1, and gold lists the right tests.
func TestPythonAndGoTasks(t *testing.T) {
	base := testenv.BaseImage(t)
	v, _ := testValidator(t)
	v.Concurrency = 2
	cases := []struct {
		task     string
		f2p, p2p []string
	}{
		{"py-valid", []string{"test_calc.py::test_sub"}, []string{"test_calc.py::test_add"}},
		{"go-valid", []string{"example.com/calc.TestMax"}, []string{"example.com/calc.TestAdd"}}, // go test ids carry their package
	}
	var jobs []Job
	for _, tc := range cases {
		dir := fixtureTask(t, tc.task, base)
		for _, m := range []string{ModeNop, ModeOracle, ModeGold} {
			jobs = append(jobs, Job{TaskID: tc.task, TaskDir: dir, Mode: m})
		}
	}
	runs := v.Validate(context.Background(), jobs)
	for i, run := range runs {
		tc := cases[i/3]
		if run.Outcome != pipeline.OutcomeOK {
			t.Errorf("%s %s: outcome %s: %s\n%s", run.TaskID, run.Mode, run.Outcome, run.Detail, logOf(t, run))
			continue
		}
		switch run.Mode {
		case ModeNop, ModeOracle:
			want := map[string]float64{ModeNop: 0, ModeOracle: 1}[run.Mode]
			if run.Reward == nil || *run.Reward != want {
				t.Errorf("%s %s: reward %v, want %v", run.TaskID, run.Mode, run.Reward, want)
			}
		case ModeGold:
			if !reflect.DeepEqual(run.FailToPass, tc.f2p) || !reflect.DeepEqual(run.PassToPass, tc.p2p) {
				t.Errorf("%s gold: F2P %v P2P %v, want %v %v", run.TaskID, run.FailToPass, run.PassToPass, tc.f2p, tc.p2p)
			}
		}
	}
}
