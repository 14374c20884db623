package ui

import (
	"github.com/charmbracelet/bubbles/cursor"
	"github.com/charmbracelet/bubbles/textinput"
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
)

// truncate cuts a styled line to w cells.
func truncate(s string, w int) string {
	if w <= 0 {
		return ""
	}
	if ansi.StringWidth(s) <= w {
		return s
	}
	return ansi.Truncate(s, w, "…")
}

// padRight pads a plain or styled string to exactly w cells.
func padRight(s string, w int) string {
	n := ansi.StringWidth(s)
	if n > w {
		return ansi.Truncate(s, w, "…")
	}
	return s + strings.Repeat(" ", w-n)
}

// padLeft right-aligns s in w cells.
func padLeft(s string, w int) string {
	n := ansi.StringWidth(s)
	if n > w {
		return ansi.Truncate(s, w, "…")
	}
	return strings.Repeat(" ", w-n) + s
}

// fit makes body exactly h lines of at most w cells, so the frame never
// scrolls or leaves stale rows behind.
func fit(body string, w, h int) string {
	if h <= 0 {
		return ""
	}
	lines := strings.Split(body, "\n")
	if len(lines) > h {
		lines = lines[:h]
	}
	for i, l := range lines {
		lines[i] = truncate(l, w)
	}
	for len(lines) < h {
		lines = append(lines, "")
	}
	return strings.Join(lines, "\n")
}

// columns flows a long list into side-by-side columns when it is taller
// than h (help on a short terminal).
func columns(text string, w, h int) string {
	lines := strings.Split(text, "\n")
	if len(lines) <= h || h < 3 {
		return text
	}
	var cols []string
	for i := 0; i < len(lines); i += h {
		end := min(i+h, len(lines))
		cols = append(cols, strings.Join(lines[i:end], "\n"))
	}
	colW := 0
	for _, l := range lines {
		colW = max(colW, lipgloss.Width(l))
	}
	colW += 2
	if colW*len(cols) > w {
		return text
	}
	rendered := make([]string, len(cols))
	for i, c := range cols {
		rendered[i] = lipgloss.NewStyle().Width(colW).Render(c)
	}
	return lipgloss.JoinHorizontal(lipgloss.Top, rendered...)
}

// newInput is a text input with a steady cursor: no blink timer keeps
// the program busy, and frames are the same every time.
func newInput() textinput.Model {
	in := textinput.New()
	in.Cursor.SetMode(cursor.CursorStatic)
	return in
}
