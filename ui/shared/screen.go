package shared

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// Screen is one tab of the workbench. Screens are pointers updated in place;
// the App hands them keys only while they are active, and its help and
// palette always show the active screen's bindings.
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

// TabID is a screen's place in the tab bar.
type TabID int

const (
	TabCandidates TabID = iota
	TabTask
	TabDiff
	TabRuns
	TabQuotas
	TabExport
)
