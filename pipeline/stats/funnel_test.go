package stats

import (
	"reflect"
	"testing"
	"time"

	"curate/pipeline"
)

func TestComputeFunnel(t *testing.T) {
	at := func(s int) time.Time { return time.Unix(int64(1700000000+s), 0) }
	ok := func(task, mode string, s int) *pipeline.Run {
		return &pipeline.Run{ID: task + mode, TaskID: task, Mode: mode, Outcome: pipeline.OutcomeOK, Digest: "d", StartedAt: at(s)}
	}
	bad := func(task, mode string, o pipeline.Outcome, class string) *pipeline.Run {
		return &pipeline.Run{ID: task + mode + "x", TaskID: task, Mode: mode, Outcome: o, Digest: "d", StartedAt: at(9),
			Failure: &pipeline.Failure{Class: class, Evidence: "line"}}
	}
	task := func(id, repo string, st pipeline.Status, dir string, f *pipeline.Failure, reasons ...string) *pipeline.Task {
		return &pipeline.Task{ID: id, Repo: repo, Source: "git", Status: st, TaskDir: dir, Digest: "d", Failure: f, Reasons: reasons}
	}
	cls := func(c string) *pipeline.Failure { return &pipeline.Failure{Class: c} }
	tasks := []*pipeline.Task{
		task("a-1", "o/a", pipeline.StatusValid, "tasks/a-1", nil),
		task("a-2", "o/a", pipeline.StatusInvalid, "tasks/a-2", cls(pipeline.ClassNoFailToPass)),
		task("a-3", "o/a", pipeline.StatusInvalid, "tasks/a-3", cls(pipeline.ClassDepsMissing)),
		task("a-4", "o/a", pipeline.StatusInvalid, "tasks/a-4", cls(pipeline.ClassDepsMissing)),
		task("a-5", "o/a", pipeline.StatusInvalid, "tasks/a-5", cls(pipeline.ClassDepsUnreachable)),
		task("a-6", "o/a", pipeline.StatusBuilt, "tasks/a-6", nil),
		task("a-7", "o/a", pipeline.StatusRejected, "", nil, "no test change"),
		task("a-8", "o/a", pipeline.StatusRejected, "", nil, "build: no test files at the head commit"),
		task("a-9", "o/a", pipeline.StatusCandidate, "", nil),
		task("b-1", "o/b", pipeline.StatusInvalid, "tasks/b-1", cls(pipeline.ClassFixFailsTests)),
		task("b-2", "o/b", pipeline.StatusValid, "tasks/b-2", nil),
		{ID: "imported", Repo: "o/a", Source: "harbor", Status: pipeline.StatusValid},
	}
	runs := []*pipeline.Run{
		ok("a-1", "nop", 1), ok("a-1", "oracle", 2), ok("a-1", "gold", 3),
		ok("a-2", "nop", 1), ok("a-2", "oracle", 2), bad("a-2", "gold", pipeline.OutcomeNopPassed, pipeline.ClassNoFailToPass),
		bad("a-3", "nop", pipeline.OutcomeNopNotRun, pipeline.ClassDepsMissing), bad("a-3", "oracle", pipeline.OutcomeOracleFailed, pipeline.ClassDepsMissing),
		ok("a-4", "nop", 1), bad("a-4", "oracle", pipeline.OutcomeOracleFailed, pipeline.ClassDepsMissing),
		bad("a-5", "nop", pipeline.OutcomeBuildFailed, pipeline.ClassDepsUnreachable),
		ok("b-1", "nop", 1), bad("b-1", "oracle", pipeline.OutcomeOracleFailed, pipeline.ClassFixFailsTests),
		// b-2's tests need the fix to load: NOP ran none, Oracle and gold prove the bug did it.
		bad("b-2", "nop", pipeline.OutcomeNopNotRun, pipeline.ClassNopNotRun), ok("b-2", "oracle", 2),
		{ID: "b-2g", TaskID: "b-2", Mode: "gold", Outcome: pipeline.OutcomeOK, FailToPass: []string{"t"}, Digest: "d", StartedAt: at(3)},
		// An older failing run of a-1 does not count against it.
		{ID: "old", TaskID: "a-1", Mode: "oracle", Outcome: pipeline.OutcomeOracleFailed, Digest: "d", StartedAt: at(0)},
	}
	f := ComputeFunnel(tasks, runs, "")
	if len(f.Repos) != 2 || f.Repos[0].Repo != "o/a" || f.Repos[1].Repo != "o/b" {
		t.Fatalf("repos: %+v", f.Repos)
	}
	a := f.Repos[0]
	steps := []int{a.Mined, a.PassedFilter, a.Built, a.Nop0, a.Oracle1, a.FailToPass, a.Valid}
	if want := []int{9, 8, 6, 3, 2, 1, 1}; !reflect.DeepEqual(steps, want) {
		t.Errorf("o/a steps %v, want %v", steps, want)
	}
	if a.NoFailToPass.Count != 1 || a.NoFailToPass.Examples[0] != "a-2" || a.NotValidated != 1 || a.Unbuilt != 1 {
		t.Errorf("o/a no_fail_to_pass %+v, not validated %d, unbuilt %d", a.NoFailToPass, a.NotValidated, a.Unbuilt)
	}
	wantFail := []ClassRow{{pipeline.ClassDepsUnreachable, 1, []string{"a-5"}}, {pipeline.ClassDepsMissing, 2, []string{"a-3", "a-4"}}}
	if !reflect.DeepEqual(a.Failures, wantFail) {
		t.Errorf("o/a failures %+v", a.Failures)
	}
	if len(a.NotBuilt) != 1 || a.NotBuilt[0].Class != "no test files at the head commit" || a.EnvironmentFailures() != 3 {
		t.Errorf("o/a not built %+v, environment failures %d", a.NotBuilt, a.EnvironmentFailures())
	}
	if f.Total.Mined != 11 || f.Total.Nop0 != 5 || len(f.Total.Failures) != 3 {
		t.Errorf("total %+v", f.Total)
	}
	one := ComputeFunnel(tasks, runs, "o/b")
	if b := one.Total; b.Valid != 1 || b.FailToPass != 1 || b.NotValidated != 0 {
		t.Errorf("o/b: a forgiven NOP must count through to valid: %+v", b)
	}
	if len(one.Repos) != 1 || one.Total.Mined != 2 || one.Repos[0].Failures[0].Class != pipeline.ClassFixFailsTests {
		t.Errorf("--repo o/b: %+v", one)
	}
}
