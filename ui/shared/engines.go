package shared

import (
	"context"

	tea "github.com/charmbracelet/bubbletea"

	"curate/app"
	"curate/ui/components/frame"
)

// EnginesMsg is the answer of a check of the workspace's Docker engines
// (CheckEnginesCmd): the App sets the status bar's docker state from it
// and, unless Quiet, shows its problem line when an engine does not answer.
type EnginesMsg struct {
	Report app.EngineReport
	Quiet  bool
}

// CheckEnginesCmd asks the engines validation would use whether they
// answer, in the background (never in View); nil when the workbench has no
// engine check (tests, no workspace).
func CheckEnginesCmd(c *Context, quiet bool) tea.Cmd {
	if c.Services == nil || c.Services.CheckEngines == nil {
		return nil
	}
	check := c.Services.CheckEngines
	return func() tea.Msg { return EnginesMsg{Report: check(context.Background()), Quiet: quiet} }
}

// EngineProblemCmd puts the report's problem line in the status bar (as
// an error when no engine answers), fitted to the room there: engine
// names are cut in the middle so what to do stays whole; nil when every
// engine answers.
func EngineProblemCmd(r app.EngineReport) tea.Cmd {
	p := r.Problem()
	if p == "" {
		return nil
	}
	fit := func(w int) string { return r.ProblemFit(w, frame.TruncateMiddle) }
	return MsgCmd(StatusMsg{Text: p, Err: true, Fit: fit})
}

// DockerStateOf is the status bar's state for a check's report.
func DockerStateOf(r app.EngineReport) DockerState {
	switch down := len(r.Down()); {
	case len(r) == 0:
		return DockerUnknown
	case down == 0:
		return DockerUp
	case down == len(r):
		return DockerDown
	}
	return DockerSome
}
