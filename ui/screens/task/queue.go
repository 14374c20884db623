package task

import (
	tea "github.com/charmbracelet/bubbletea"

	"curate/pipeline"
	"curate/ui/shared"
)

// The review queue walks the valid tasks nobody has reviewed, in id order
// from the current one: Q starts it with the review form open, each saved
// review moves to the next one, Q again leaves it.

// queueCandidate is a task the queue visits.
func queueCandidate(t *pipeline.Task) bool {
	return t.Status == pipeline.StatusValid && !t.Labels.Reviewed()
}

// nextInQueue is the first queue task at or after from (after it when
// !inclusive), wrapping around; "" when there is none. skip is left out
// (its review is being saved).
func nextInQueue(c *shared.Catalog, from string, inclusive bool, skip []string) string {
	if c == nil || len(c.Tasks) == 0 {
		return ""
	}
	start := max(c.Index(from), 0)
	if !inclusive || c.Index(from) < 0 {
		start++
	}
	n := len(c.Tasks)
	for i := 0; i < n; i++ {
		t := c.Tasks[(start+i)%n]
		if queueCandidate(t) && !contains(skip, t.ID) {
			return t.ID
		}
	}
	return ""
}

// queueLeft counts the tasks still in the queue.
func queueLeft(c *shared.Catalog) int {
	if c == nil {
		return 0
	}
	n := 0
	for _, t := range c.Tasks {
		if queueCandidate(t) {
			n++
		}
	}
	return n
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// queueStep shows the next queue task with the review form open, or
// leaves the queue when it is empty.
func (s *Model) queueStep(from string, inclusive bool, skip ...string) tea.Cmd {
	next := nextInQueue(s.ctx.Catalog, from, inclusive, skip)
	if next == "" {
		s.queue = false
		s.build()
		return shared.StatusCmd("review queue: no unreviewed valid task left", false)
	}
	var cur tea.Cmd
	if next != s.id {
		s.id, s.data = next, nil
		s.scroll.Offset = 0
		cur = shared.MsgCmd(shared.CurrentMsg{ID: next}) // loads it (data is nil)
	}
	s.label.OpenReview([]string{next})
	s.build()
	return cur
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
