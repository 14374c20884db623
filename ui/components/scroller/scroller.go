// Package scroller is the workbench's one scroll model: a window of
// height rows over total rows, with an optional cursor the window keeps
// in view. Lists move the cursor; pages (task, diff, preview) move the
// window.
package scroller

// Model is a scroll position. The zero value is the top.
type Model struct {
	Cursor int // the chosen row (lists only)
	Offset int // the first row shown
}

// MoveTo puts the cursor on row i (clamped to the rows) and scrolls the
// least that shows it.
func (m *Model) MoveTo(i, total, height int) {
	m.Cursor = max(min(i, total-1), 0)
	height = max(height, 1)
	if m.Cursor < m.Offset {
		m.Offset = m.Cursor
	}
	if m.Cursor >= m.Offset+height {
		m.Offset = m.Cursor - height + 1
	}
	m.Offset = Clamp(m.Offset, total, height)
}

// MoveBy moves the cursor d rows.
func (m *Model) MoveBy(d, total, height int) { m.MoveTo(m.Cursor+d, total, height) }

// ScrollTo shows the window from row offset, never past the end: the
// last page is full when there are enough rows.
func (m *Model) ScrollTo(offset, total, height int) { m.Offset = Clamp(offset, total, height) }

// ScrollBy moves the window d rows.
func (m *Model) ScrollBy(d, total, height int) { m.ScrollTo(m.Offset+d, total, height) }

// Clamp is offset kept within [0, total-height].
func Clamp(offset, total, height int) int {
	return max(min(offset, total-max(height, 1)), 0)
}

// Window is the rows [from, to) a window of height shows from offset.
func Window(offset, total, height int) (from, to int) {
	from = max(min(offset, total), 0)
	return from, min(from+max(height, 0), total)
}
