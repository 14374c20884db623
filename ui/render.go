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
// than h (help on a short terminal), cutting lines that do not fit.
func columns(text string, w, h int) string {
	lines := strings.Split(text, "\n")
	if len(lines) <= h || h < 3 {
		return text
	}
	n := (len(lines) + h - 1) / h
	colW := w / n
	for _, l := range lines {
		colW = min(colW, max(lipgloss.Width(l)+2, 1))
	}
	colW = max(colW, w/n)
	var b strings.Builder
	for r := 0; r < h; r++ {
		for c := 0; c < n; c++ {
			i := c*h + r
			if i < len(lines) {
				b.WriteString(padRight(truncate(lines[i], colW-1), colW))
			}
		}
		if r < h-1 {
			b.WriteString("\n")
		}
	}
	return b.String()
}

// newInput is a text input with a steady cursor: no blink timer keeps
// the program busy, and frames are the same every time.
func newInput() textinput.Model {
	in := textinput.New()
	in.Cursor.SetMode(cursor.CursorStatic)
	return in
}
