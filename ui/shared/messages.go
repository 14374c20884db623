package shared

import (
	tea "github.com/charmbracelet/bubbletea"

	"curate/pipeline"
)

// Messages the App handles or broadcasts. Results a single screen asked
// for carry that screen's tab (see Addressed) and go to it alone.

// JobDoneMsg wraps the answer of a background command counted in
// Context.Jobs.
type JobDoneMsg struct{ Inner tea.Msg }

// CatalogMsg is a freshly loaded catalogue.
type CatalogMsg struct {
	Catalog   *Catalog
	Selection SelectionInfo
	Err       error
}

// CatalogChangedMsg tells screens the catalogue or some tasks in it changed.
type CatalogChangedMsg struct{ IDs []string }

// LabelledMsg is the answer of a label, undo or redo.
type LabelledMsg struct {
	Events []pipeline.Event
	Tasks  []*pipeline.Task
	Err    error
	What   string
}

// OpenTaskMsg makes id the current task and shows a tab.
type OpenTaskMsg struct {
	ID  string
	Tab TabID
}

// CurrentMsg tells screens the current task changed (no tab switch).
type CurrentMsg struct{ ID string }

// StepTaskMsg asks Candidates to move its cursor (labelling moves on).
type StepTaskMsg struct{ Delta int }

func (StepTaskMsg) Target() TabID { return TabCandidates }

// NeedSolveMsg asks the Quotas screen to load its config and solve (the
// Export screen exports that solve).
type NeedSolveMsg struct{}

func (NeedSolveMsg) Target() TabID { return TabQuotas }

// SolvedMsg tells screens Context.Solve changed.
type SolvedMsg struct{}

// StatusMsg is a line for the status bar.
type StatusMsg struct {
	Text string
	Err  bool
	// Fit, when set, is Text in at most w cells with what matters kept
	// whole (the engine check's line: EngineProblemCmd); the status bar
	// calls it with the room it has, so it must be pure.
	Fit func(w int) string
}

// Addressed is a message for one screen only.
type Addressed interface{ Target() TabID }

// StatusCmd puts text in the status bar.
func StatusCmd(text string, isErr bool) tea.Cmd {
	return func() tea.Msg { return StatusMsg{Text: text, Err: isErr} }
}

// MsgCmd is a command answering m.
func MsgCmd(m tea.Msg) tea.Cmd { return func() tea.Msg { return m } }

// ResizedMsg follows a window resize so screens can start work for the
// new size (SetSize cannot return commands).
type ResizedMsg struct{}

// Consumed tells the App a key was used (esc would switch tabs otherwise).
func Consumed() tea.Msg { return nil }

// StartValidationMsg asks the Runs screen to validate ids with the modes,
// runs and concurrency of its last form: the jobs list (J) starts
// validations through the Runs screen, so there is one way to run,
// stream and cancel them.
type StartValidationMsg struct{ IDs []string }

func (StartValidationMsg) Target() TabID { return TabRuns }

// StartJobMsg asks the jobs list to start a job without its form (the
// Repos screen's "rebuild this repo"): Kind is "rebuild", Arg the repo.
type StartJobMsg struct{ Kind, Arg string }

// JobsMsg is a message for the jobs list (J), wherever it is drawn.
type JobsMsg interface{ ForJobs() }

func (StartJobMsg) ForJobs() {}
