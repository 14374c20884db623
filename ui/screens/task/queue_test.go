package task

import (
	"testing"

	"curate/pipeline"
	"curate/ui/shared"
)

// TestQueueVisitsFlaggedFirst: the review queue goes to a valid,
// unreviewed task whose statement carries a flag before the others, then
// to the rest in Candidates' order.
func TestQueueVisitsFlaggedFirst(t *testing.T) {
	mk := func(id string, flags ...any) *pipeline.Task {
		tk := &pipeline.Task{ID: id, Status: pipeline.StatusValid, Extra: map[string]any{}}
		if len(flags) > 0 {
			tk.Extra[pipeline.ExtraStatementFlags] = flags
		}
		return tk
	}
	c := shared.NewCatalog([]*pipeline.Task{mk("t-1"), mk("t-2"), mk("t-3", "underspecified"), mk("t-4")}, nil)
	rows := []int{0, 1, 2, 3}
	next, _ := nextInQueue(c, rows, "t-1", true, "")
	if c.Tasks[rows[next]].ID != "t-3" {
		t.Fatalf("first stop %s, want the flagged t-3", c.Tasks[rows[next]].ID)
	}
	next, _ = nextInQueue(c, rows, "t-3", false, "t-3")
	if c.Tasks[rows[next]].ID != "t-4" {
		t.Fatalf("after the flagged task the queue went to %s, want t-4 (the next in order)", c.Tasks[rows[next]].ID)
	}
}
