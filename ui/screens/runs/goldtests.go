package runs

import (
	"context"

	tea "github.com/charmbracelet/bubbletea"

	"curate/app"
	"curate/pipeline/validate"
)

// stateSummary counts one gold state's tests: the log pane names the state
// it summarises, as a gold log holds both the buggy and the fixed state's.
type stateSummary struct {
	name          string
	tests, failed int
}

// loadGoldTests reads a gold run's log per state (the gold matrix's
// parse): the list shows the buggy state's tests, failures (the
// FAIL_TO_PASS candidates) first, and each state gets its own count.
func (s *Model) loadGoldTests(e *runEntry) tea.Cmd {
	run := e.run
	root, task := s.ctx.Root, s.ctx.Catalog.Task(run.TaskID)
	return func() tea.Msg {
		m, err := app.GoldMatrix(context.Background(), root, task, &run)
		if err != nil {
			return testsMsg{id: run.ID}
		}
		states := []stateSummary{validate.StateBuggy: {name: "buggy"}, validate.StateFixed: {name: "fixed"}}
		var rows []testRow
		for i := range m.Rows {
			r := &m.Rows[i]
			for st := range states {
				if last := r.Last(st); last != "" {
					states[st].tests++
					if last.Fail() {
						states[st].failed++
					}
				}
			}
			if last := r.Last(validate.StateBuggy); last != "" {
				rows = append(rows, testRow{name: r.Test, status: last})
			}
		}
		sortFailuresFirst(rows)
		return testsMsg{id: run.ID, framework: m.Format, rows: rows, states: states}
	}
}
