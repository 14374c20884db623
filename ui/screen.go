package ui

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// Screen is one tab of the workbench. Screens are pointers updated in place;
// the App hands them keys only while they are active, and its help and
// palette always show the active screen's bindings.
//
// Adding a screen (Runs, Quotas and Export are placeholders for issue 8):
// write a type implementing Screen in its own file, taking the *Context;
// replace its placeholder in New's list (the tabID order is the tab order);
// add its actions to the actions table in keys.go so they can be rebound
// and appear in the palette; give results of its commands a target()
// method so only it receives them; check Context.Active before loading.
type Screen interface {
	Title() string
	Init() tea.Cmd
	Update(msg tea.Msg) tea.Cmd
	View() string
	// SetSize gives the screen the area between the tab and status bars.
	SetSize(width, height int)
	// Capturing reports a focused text input: global keys are off.
	Capturing() bool
	ShortHelp() []key.Binding
	FullHelp() [][]key.Binding
}

type tabID int

const (
	tabCandidates tabID = iota
	tabTask
	tabDiff
	tabRuns
	tabQuotas
	tabExport
)
