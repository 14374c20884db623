package store

import (
	"context"
	"testing"

	"curate/pipeline"
)

// A failure class round-trips on runs and on tasks, through the plain
// columns (Task, TasksByID) and the packed copy listings read.
func TestFailureRoundTrip(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	f := &pipeline.Failure{Class: pipeline.ClassDepsMissing, Evidence: "E   ModuleNotFoundError: No module named 'simplejson'",
		Suggestion: `[repos."a/b"] dockerfile = "RUN python3 -m pip install simplejson"`}
	run := &pipeline.Run{ID: "r1", TaskID: "a", Mode: "oracle", Outcome: pipeline.OutcomeOracleFailed, Failure: f}
	if err := s.SaveRun(ctx, run); err != nil {
		t.Fatal(err)
	}
	got, err := s.Run(ctx, "r1")
	if err != nil || got.Failure == nil || *got.Failure != *f {
		t.Fatalf("run failure: %+v, %v", got.Failure, err)
	}
	if err := s.UpsertTasks(ctx, []*pipeline.Task{{ID: "a", Status: pipeline.StatusInvalid, Failure: f}, {ID: "b"}}); err != nil {
		t.Fatal(err)
	}
	one, err := s.Task(ctx, "a")
	if err != nil || one.Failure == nil || *one.Failure != *f {
		t.Fatalf("task failure: %+v, %v", one.Failure, err)
	}
	byID, err := s.TasksByID(ctx, []string{"a"})
	if err != nil || byID["a"].Failure == nil || *byID["a"].Failure != *f {
		t.Fatalf("TasksByID failure: %+v, %v", byID["a"], err)
	}
	all, err := s.Tasks(ctx)
	if err != nil || len(all) != 2 || all[0].Failure == nil || *all[0].Failure != *f || all[1].Failure != nil {
		t.Fatalf("listed: %+v, %v", all, err)
	}
}

// Rows packed before the failure field existed still decode.
func TestUnpackOlderRowWithoutFailure(t *testing.T) {
	p, err := packTask(&pipeline.Task{Repo: "a/b", Failure: &pipeline.Failure{Class: "x"}}, "", "")
	if err != nil {
		t.Fatal(err)
	}
	old := p[:len(p)-len(encodeFailure(&pipeline.Failure{Class: "x"}))-len("14:")]
	var got pipeline.Task
	if err := unpackTask(old, &got); err != nil || got.Repo != "a/b" || got.Failure != nil {
		t.Fatalf("older row: %+v, %v (%q)", got, err, old)
	}
	if err := unpackTask(p, &got); err != nil || got.Failure == nil || got.Failure.Class != "x" {
		t.Fatalf("new row: %+v, %v", got.Failure, err)
	}
}

// A gold run's unstable test ids are stored with it.
func TestUnstableIDsRoundTrip(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	run := &pipeline.Run{ID: "g1", TaskID: "a", Mode: "gold", Outcome: pipeline.OutcomeOK,
		FailToPass: []string{"t::a"}, Unstable: []string{"t::b[2026-11-25T21:04:07]"}}
	if err := s.SaveRun(ctx, run); err != nil {
		t.Fatal(err)
	}
	got, err := s.Run(ctx, "g1")
	if err != nil || len(got.Unstable) != 1 || got.Unstable[0] != run.Unstable[0] {
		t.Fatalf("unstable: %v, %v", got.Unstable, err)
	}
}
