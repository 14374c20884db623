package shared

import tea "github.com/charmbracelet/bubbletea"

// Unsaved is a screen that can hold edits not yet written (quotas not
// saved to curate.toml, an open review form): the quit prompt names them
// and offers to save them before the workbench closes.
type Unsaved interface {
	// Unsaved says what would be lost ("" when nothing).
	Unsaved() string
	// SaveUnsaved writes the edits; the workbench quits after it returns.
	SaveUnsaved() tea.Cmd
}
