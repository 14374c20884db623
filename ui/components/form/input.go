// Package form holds the workbench's input widgets: a steady text input
// and the labelling prompts Candidates and Task share.
package form

import (
	"github.com/charmbracelet/bubbles/cursor"
	"github.com/charmbracelet/bubbles/textinput"
)

// NewInput is a text input with a steady cursor: no blink timer keeps
// the program busy, and frames are the same every time.
func NewInput() textinput.Model {
	in := textinput.New()
	in.Cursor.SetMode(cursor.CursorStatic)
	return in
}
