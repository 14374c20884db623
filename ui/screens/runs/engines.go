package runs

import (
	"context"

	tea "github.com/charmbracelet/bubbletea"

	"curate/app"
	"curate/ui/shared"
)

// enginesCheckedMsg is the engine check made before a validation starts.
type enginesCheckedMsg struct {
	ids    []string
	form   runForm
	report app.EngineReport
}

func (enginesCheckedMsg) Target() shared.TabID { return shared.TabRuns }

// checkEnginesThenStart asks the engines whether they answer, in a
// command, and starts the validation when one does.
func (s *Model) checkEnginesThenStart(ids []string, f runForm) tea.Cmd {
	check := s.svc.CheckEngines
	return func() tea.Msg {
		return enginesCheckedMsg{ids: ids, form: f, report: check(context.Background())}
	}
}

// enginesChecked starts the validation the check was for, unless no
// engine answers; either way the status bar says which engine is down.
func (s *Model) enginesChecked(m enginesCheckedMsg) tea.Cmd {
	state := shared.MsgCmd(shared.EnginesMsg{Report: m.report, Quiet: true})
	if m.report.AllDown() {
		return tea.Batch(state, shared.EngineProblemCmd(m.report))
	}
	return tea.Batch(state, s.launch(m.ids, m.form, m.report))
}
