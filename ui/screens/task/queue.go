package task

import (
	tea "github.com/charmbracelet/bubbletea"

	"curate/pipeline"
	"curate/pipeline/statement"
	"curate/ui/shared"
)

// The review queue walks the valid tasks nobody has reviewed, among those
// Candidates shows (its filter and order), from the current one: Q starts
// it with the review form open, each saved review moves to the next one,
// Q again leaves it. It moves by stepping the Candidates cursor, since
// every screen acts on the task under it.

// queueCandidate is a task the queue visits.
func queueCandidate(t *pipeline.Task) bool {
	return t.Status == pipeline.StatusValid && !t.Labels.Reviewed()
}

// nextInQueue is the row (in Candidates' order) of the first queue task at
// or after the row of from (after it when !inclusive), wrapping around, and
// from's row (0 when it is not shown); -1 when the queue is empty. skip is
// left out (its review is being saved).
func nextInQueue(c *shared.Catalog, rows []int, from string, inclusive bool, skip string) (next, cur int) {
	next, cur = -1, 0
	if c == nil || len(rows) == 0 {
		return next, cur
	}
	start := 0
	for i, r := range rows {
		if c.Tasks[r].ID == from {
			cur, start = i, i
			if !inclusive {
				start++
			}
			break
		}
	}
	// The least specified come first: underspecified and strict tests
	// both, then either, then any other flag, then the rest.
	for tier := 3; tier >= 0; tier-- {
		for i := 0; i < len(rows); i++ {
			row := (start + i) % len(rows)
			t := c.Tasks[rows[row]]
			if queueCandidate(t) && t.ID != skip && specTier(t) == tier {
				return row, cur
			}
		}
	}
	return -1, cur
}

// specTier ranks how little t's statement specifies: 3 when it is both
// underspecified and has strict tests, 2 for one of those, 1 for any
// other flag, 0 for none.
func specTier(t *pipeline.Task) int {
	flags := pipeline.StatementFlags(t)
	n := 0
	for _, f := range flags {
		if f == statement.FlagUnderspecified || f == statement.FlagStrictTests {
			n++
		}
	}
	switch {
	case n > 0:
		return n + 1
	case len(flags) > 0:
		return 1
	}
	return 0
}

// queueLeft counts the tasks still in the queue.
func queueLeft(c *shared.Catalog, rows []int) int {
	n := 0
	for _, r := range rows {
		if queueCandidate(c.Tasks[r]) {
			n++
		}
	}
	return n
}

// queueStep shows the next queue task with the review form open, or
// leaves the queue when it is empty.
func (s *Model) queueStep(from string, inclusive bool, skip string) tea.Cmd {
	rows := s.ctx.Table.Rows
	next, cur := nextInQueue(s.ctx.Catalog, rows, from, inclusive, skip)
	if next < 0 {
		s.queue = false
		s.build()
		return shared.StatusCmd("review queue: no unreviewed valid task left among those shown", false)
	}
	id := s.ctx.Catalog.Tasks[rows[next]].ID
	s.label.OpenReview([]string{id})
	if id == s.id {
		s.build()
		return nil
	}
	s.id, s.data = id, nil
	s.scroll.Offset = 0
	s.build()
	// Candidates moves its cursor and announces the task; this screen
	// loads it then (its data is nil).
	return shared.MsgCmd(shared.StepTaskMsg{Delta: next - cur})
}

// afterReview follows a saved review: in the queue, on to the next task.
func (s *Model) afterReview(ids []string) tea.Cmd {
	if !s.queue || len(ids) != 1 {
		return nil
	}
	return func() tea.Msg { return queueNextMsg{done: ids[0]} }
}

// queueNextMsg moves the queue on once a review was saved.
type queueNextMsg struct{ done string }

func (queueNextMsg) Target() shared.TabID { return shared.TabTask }
