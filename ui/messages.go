package ui

import (
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"curate/pipeline"
)

// Messages the App handles or broadcasts. Results a single screen asked
// for carry that screen's tab (see addressed) and go to it alone.

type jobDoneMsg struct{ inner tea.Msg }

type catalogMsg struct {
	catalog   *Catalog
	selection selectionInfo
	err       error
}

// catalogChangedMsg tells screens the catalogue or some tasks in it changed.
type catalogChangedMsg struct{ ids []string }

type labelledMsg struct {
	events []pipeline.Event
	tasks  []*pipeline.Task
	err    error
	what   string
}

// openTaskMsg makes id the current task and shows a tab.
type openTaskMsg struct {
	id  string
	tab tabID
}

// currentMsg tells screens the current task changed (no tab switch).
type currentMsg struct{ id string }

// stepTaskMsg asks Candidates to move its cursor (labelling moves on).
type stepTaskMsg struct{ delta int }

type statusMsg struct {
	text string
	err  bool
}

type dockerMsg struct{ up bool }

type dockerTickMsg time.Time

// addressed is a message for one screen only.
type addressed interface{ target() tabID }

func statusCmd(text string, isErr bool) tea.Cmd {
	return func() tea.Msg { return statusMsg{text, isErr} }
}

func msgCmd(m tea.Msg) tea.Cmd { return func() tea.Msg { return m } }

// resizedMsg follows a window resize so screens can start work for the
// new size (SetSize cannot return commands).
type resizedMsg struct{}
