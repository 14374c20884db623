package task

import (
	"strings"
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

// TestQueueVisitsLeastSpecifiedFirst: underspecified with strict tests,
// then either, then any other flag, then none.
func TestQueueVisitsLeastSpecifiedFirst(t *testing.T) {
	mk := func(id string, flags ...any) *pipeline.Task {
		return &pipeline.Task{ID: id, Status: pipeline.StatusValid, Extra: map[string]any{pipeline.ExtraStatementFlags: flags}}
	}
	c := shared.NewCatalog([]*pipeline.Task{mk("t-1"), mk("t-2", "link_only"), mk("t-3", "strict_tests"), mk("t-4", "underspecified", "strict_tests")}, nil)
	rows := []int{0, 1, 2, 3}
	var order []string
	skip := ""
	from, inclusive := "t-1", true
	for i := 0; i < 4; i++ {
		next, _ := nextInQueue(c, rows, from, inclusive, skip)
		id := c.Tasks[rows[next]].ID
		order = append(order, id)
		c.Tasks[rows[next]].Labels.ReviewComment = "read"
		from, inclusive, skip = id, false, id
	}
	if got := strings.Join(order, " "); got != "t-4 t-3 t-2 t-1" {
		t.Errorf("queue order %s, want t-4 t-3 t-2 t-1", got)
	}
}
