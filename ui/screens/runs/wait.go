package runs

import (
	"fmt"

	tea "github.com/charmbracelet/bubbletea"

	"curate/ui/shared"
)

// runWaitMsg is a run waiting for its engine's capacity (a cluster's
// quota or full nodes), or no longer waiting (why "").
type runWaitMsg struct {
	batch   int
	id, why string
}

func (runWaitMsg) Target() shared.TabID { return shared.TabRuns }

// waiting marks the run and its batch's job: the runs list shows it
// "waiting" with why, the jobs list how many of the batch wait. A wait
// is not a failure; the run goes on when the cluster takes it.
func (s *Model) waiting(m runWaitMsg) tea.Cmd {
	if e := s.byID(m.id); e != nil {
		e.waiting = m.why
	}
	s.countWaiting(m.batch)
	return s.waitBatch(m.batch)
}

// countWaiting sets the batch's job line from its waiting runs.
func (s *Model) countWaiting(batch int) {
	if b := s.batches[batch]; b != nil && b.job != nil {
		n := 0
		for _, e := range s.entries {
			if e.batch == batch && e.state == runRunning && e.waiting != "" {
				n++
			}
		}
		b.job.Waiting = ""
		if n > 0 {
			b.job.Waiting = fmt.Sprintf("%d waiting for the cluster", n)
		}
	}
}
