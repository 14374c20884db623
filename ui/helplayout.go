package ui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
)

// helpEntry is one key of the help overlay; a zero entry separates groups.
type helpEntry struct{ key, desc string }

// helpRow is one row of a help column: a key (or nothing, on a wrapped
// description's next rows) and a piece of its description.
type helpRow struct{ key, desc string }

// helpColumns lays the entries out in as few columns as fit w cells and
// h rows; a description too long for its column wraps under itself
// instead of being cut, so at 80 columns every description is whole.
// When no layout of up to 4 columns holds every entry, the 4-column one
// shows what fits and says how many keys are left.
func helpColumns(entries []helpEntry, w, h int, key, desc lipgloss.Style) string {
	var cols []helpColumn
	left := 0
	cols, left = bestHelpColumns(entries, w, h)
	if left > 0 { // a row for the line that says so
		cols, left = fillHelpColumns(entries, w, max(h-1, 1), 4, 0)
	}
	height := 0
	for _, c := range cols {
		height = max(height, len(c.rows))
	}
	var b strings.Builder
	for r := range height {
		if r > 0 {
			b.WriteString("\n")
		}
		var line strings.Builder
		for c, col := range cols {
			row := helpRow{}
			if r < len(col.rows) {
				row = col.rows[r]
			}
			cell := strings.Repeat(" ", col.keyW) + " " + strings.Repeat(" ", col.descW)
			if row != (helpRow{}) {
				cell = key.Render(row.key+strings.Repeat(" ", col.keyW-lipgloss.Width(row.key))) + " " +
					desc.Render(row.desc) + strings.Repeat(" ", max(col.descW-lipgloss.Width(row.desc), 0))
			}
			if c < len(cols)-1 {
				cell += helpGap
			}
			line.WriteString(cell)
		}
		b.WriteString(strings.TrimRight(line.String(), " "))
	}
	if left > 0 {
		fmt.Fprintf(&b, "\n%s", desc.Render(fmt.Sprintf("%d more keys do not fit: widen the terminal, or see docs/workbench.md", left)))
	}
	return b.String()
}

// bestHelpColumns is the layout of fewest columns that holds every entry,
// and of those the one with fewest rows (fewest wrapped descriptions):
// the first column, often holding the long navigation keys, may take more
// than an even share.
func bestHelpColumns(entries []helpEntry, w, h int) (best []helpColumn, left int) {
	for n := 1; n <= 4; n++ {
		bestRows := -1
		for bonus := 0; bonus <= 20 && n > 1 || bonus == 0; bonus += 4 {
			cols, l := fillHelpColumns(entries, w, h, n, bonus)
			if l > 0 {
				continue
			}
			rows := 0
			for _, c := range cols {
				rows += len(c.rows)
			}
			if bestRows < 0 || rows < bestRows {
				best, bestRows = cols, rows
			}
		}
		if bestRows >= 0 {
			return best, 0
		}
	}
	return nil, 1
}

// helpGap separates two help columns.
const helpGap = "  "

// helpColumn is a column's rows, its key width (the column's own widest
// key: most keys are one letter) and its description width.
type helpColumn struct {
	rows        []helpRow
	keyW, descW int
}

// fillHelpColumns fills up to n columns top to bottom, h rows each, in w
// cells: each column takes what it needs of an even share of the width
// still free, so a column of short entries leaves room to the next. It
// returns the columns and how many entries did not fit.
func fillHelpColumns(entries []helpEntry, w, h, n, firstBonus int) (cols []helpColumn, left int) {
	i, free := 0, w
	for c := 0; c < n && i < len(entries); c++ {
		for i < len(entries) && entries[i].key == "" { // no gap atop a column
			i++
		}
		budget := (free - len(helpGap)*(n-c-1)) / (n - c)
		if c == 0 {
			budget += firstBonus
		}
		col, start := helpColumn{}, i
		for i < len(entries) {
			kw := max(col.keyW, lipgloss.Width(entries[i].key))
			rows, dw := helpRows(entries[start:i+1], kw, budget)
			if len(rows) > h {
				break
			}
			col = helpColumn{rows: rows, keyW: kw, descW: dw}
			i++
		}
		if i == start {
			break
		}
		cols = append(cols, col)
		free -= col.keyW + 1 + col.descW + len(helpGap)
	}
	for ; i < len(entries); i++ {
		if entries[i].key != "" {
			left++
		}
	}
	return cols, left
}

// helpRows are the entries' rows with descriptions wrapped to what width
// leaves after a keyW key and a space, and the widest description row.
func helpRows(entries []helpEntry, keyW, width int) (out []helpRow, widest int) {
	descW := max(width-keyW-1, 8)
	for _, e := range entries {
		if e.key == "" {
			out = append(out, helpRow{})
			continue
		}
		for j, part := range strings.Split(ansi.Hardwrap(ansi.Wordwrap(e.desc, descW, ""), descW, true), "\n") {
			r := helpRow{desc: part}
			widest = max(widest, lipgloss.Width(part))
			if j == 0 {
				r.key = e.key
			}
			out = append(out, r)
		}
	}
	return out, widest
}

// helpFlow writes bindings as "key desc · key desc ..." wrapped to w
// cells, never breaking inside a key or a description's word.
func helpFlow(bindings []key.Binding, w int, keyStyle, descStyle lipgloss.Style) string {
	var lines []string
	line, lineW := "", 0
	for _, kb := range bindings {
		if !kb.Enabled() {
			continue
		}
		item := kb.Help().Key + " " + kb.Help().Desc
		itemW := lipgloss.Width(item)
		if lineW > 0 && lineW+3+itemW > w {
			lines = append(lines, line)
			line, lineW = "", 0
		}
		if lineW > 0 {
			line += descStyle.Render(" · ")
			lineW += 3
		}
		line += keyStyle.Render(kb.Help().Key) + " " + descStyle.Render(kb.Help().Desc)
		lineW += itemW
	}
	return strings.Join(append(lines, line), "\n")
}
