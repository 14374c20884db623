// Package frame shapes styled text into a frame: cut, pad, fit and flow
// lines by display cells.
package frame

import (
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"curate/pipeline/sanitize"
)

// Truncate cuts a styled line to w cells.
func Truncate(s string, w int) string {
	if w <= 0 {
		return ""
	}
	if ansi.StringWidth(s) <= w {
		return s
	}
	return ansi.Truncate(s, w, "…")
}

// TruncateMiddle cuts a plain string to w cells by dropping its middle,
// so values that share a long prefix stay apart ("Implem…(feature)").
func TruncateMiddle(s string, w int) string {
	n := ansi.StringWidth(s)
	if n <= w {
		return s
	}
	if w < 3 {
		return Truncate(s, w)
	}
	tail := (w - 1) / 2
	return ansi.Truncate(s, w-1-tail, "") + "…" + ansi.TruncateLeft(s, n-tail, "")
}

// PadRight pads a plain or styled string to exactly w cells.
func PadRight(s string, w int) string {
	n := ansi.StringWidth(s)
	if n > w {
		return ansi.Truncate(s, w, "…")
	}
	return s + strings.Repeat(" ", w-n)
}

// PadLeft right-aligns s in w cells.
func PadLeft(s string, w int) string {
	n := ansi.StringWidth(s)
	if n > w {
		return ansi.Truncate(s, w, "…")
	}
	return strings.Repeat(" ", w-n) + s
}

// Fit makes body exactly h lines of at most w cells, so the frame never
// scrolls or leaves stale rows behind.
func Fit(body string, w, h int) string {
	if h <= 0 {
		return ""
	}
	lines := strings.Split(body, "\n")
	if len(lines) > h {
		lines = lines[:h]
	}
	for i, l := range lines {
		lines[i] = Truncate(l, w)
	}
	for len(lines) < h {
		lines = append(lines, "")
	}
	return strings.Join(lines, "\n")
}

// Columns flows a long list into side-by-side columns when it is taller
// than h (help on a short terminal), cutting lines that do not fit.
func Columns(text string, w, h int) string {
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
				b.WriteString(PadRight(Truncate(lines[i], colW-1), colW))
			}
		}
		if r < h-1 {
			b.WriteString("\n")
		}
	}
	return b.String()
}

// LineCap bounds the bytes of one line CleanLine looks at: no row is
// wider than a few hundred cells, and a line of megabytes must cost a
// frame no more than a short one.
const LineCap = 16 << 10

// CleanLine makes untrusted text one safe line (no control sequences, no
// line breaks, at most LineCap bytes); safe text is returned as is,
// without copying.
func CleanLine(s string) string {
	if len(s) > LineCap {
		s = CutBytes(s, LineCap) + "…"
	}
	if sanitize.Safe(s) && !strings.ContainsAny(s, "\n\t") {
		return s
	}
	return sanitize.Line(s)
}

// CutBytes is the longest prefix of s of at most n bytes that does not
// split a UTF-8 sequence.
func CutBytes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	n = max(n, 0)
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// MiniBar is a w-cell progress bar.
func MiniBar(done, total, w int) string {
	if total <= 0 {
		return strings.Repeat("▱", w)
	}
	n := min(done*w/total, w)
	return strings.Repeat("▰", n) + strings.Repeat("▱", w-n)
}
