package candidates

import (
	"testing"

	"curate/pipeline"
	"curate/ui/shared"
)

// The VALID column says what the runs settled, never one run's "ok": a
// mined task whose NOP and Oracle passed but gold never ran is undecided.
func TestValidCellNeverSaysOK(t *testing.T) {
	ok := &pipeline.Run{TaskID: "a", Mode: pipeline.ModeOracle, Outcome: pipeline.OutcomeOK, Digest: "d1"}
	cases := []struct {
		task pipeline.Task
		run  *pipeline.Run
		want string
	}{
		{pipeline.Task{ID: "a", Source: "git", Status: pipeline.StatusBuilt, Digest: "d1"}, ok, "undecided"},
		{pipeline.Task{ID: "a", Source: "git", Status: pipeline.StatusValid, Digest: "d1"}, ok, "valid"},
		{pipeline.Task{ID: "a", Source: "git", Status: pipeline.StatusBuilt, Digest: "d2"}, ok, "undecided~"},
		{pipeline.Task{ID: "a", Source: "git", Status: pipeline.StatusInvalid, Digest: "d1",
			Failure: &pipeline.Failure{Class: pipeline.ClassNoFailToPass}}, ok, pipeline.ClassNoFailToPass},
		{pipeline.Task{ID: "a", Source: "git", Status: pipeline.StatusBuilt}, nil, "-"},
	}
	for i, c := range cases {
		cat := &shared.Catalog{Latest: map[string]*pipeline.Run{}}
		if c.run != nil {
			cat.Latest["a"] = c.run
		}
		if got := validation(&c.task, cat); got != c.want {
			t.Errorf("case %d: %q, want %q", i, got, c.want)
		}
	}
}
