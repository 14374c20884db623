package candidates

import (
	"strings"

	"curate/ui/components/frame"
)

// maxErrorLines bounds a filter error's lines: enough for the nearest
// values and the allowed ones, never the whole screen.
const maxErrorLines = 4

// errorLines are the filter's error, whole, wrapped to the screen's width
// on lines of their own under the filter line.
func (s *Model) errorLines() []string {
	if s.filterErr == "" {
		return nil
	}
	width := max(s.w-2, 20)
	var lines []string
	line := ""
	for _, word := range strings.Fields(frame.CleanLine(s.filterErr)) {
		switch {
		case line == "":
			line = word
		case len([]rune(line))+1+len([]rune(word)) <= width:
			line += " " + word
		default:
			lines = append(lines, "  "+line)
			line = word
		}
	}
	lines = append(lines, "  "+line)
	if len(lines) > maxErrorLines {
		lines = lines[:maxErrorLines]
	}
	for i, l := range lines {
		lines[i] = frame.Truncate(l, s.w)
	}
	return lines
}

func (s *Model) promptLines() int {
	switch {
	case s.label.Active():
		return s.label.Lines()
	case s.bulk != nil:
		return 2
	case s.naming:
		return 1
	}
	return 0
}

// View draws the visible rows only; the cost is the same for 300 tasks or
// 100,000.
func (s *Model) View() string {
	if s.facet != nil {
		return s.facetView()
	}
	if s.viewMenu != nil {
		return s.viewsView(s.h)
	}
	st := s.ctx.Styles
	var b strings.Builder
	b.Grow((s.w + 16) * (s.h + 1))
	// Filter line.
	if s.filtering {
		mode := st.Muted.Render("  (ctrl+t fuzzy)")
		if s.fuzzy {
			mode = st.Muted.Render("  (fuzzy; ctrl+t substring)")
		}
		b.WriteString(frame.Truncate(s.filterInput.View()+mode, s.w))
	} else {
		b.WriteString(frame.Truncate(st.Muted.Render(s.statusText()), s.w))
	}
	b.WriteString("\n")
	for _, l := range s.errorLines() {
		b.WriteString(st.Error.Render(l) + "\n")
	}

	cols, widths := layoutColumns(s.w)
	var hdr strings.Builder
	hdr.WriteString("  ")
	for i, ci := range cols {
		c := tableColumns[ci]
		title := c.title
		if ci == s.sortCol {
			if s.desc {
				title += "↓"
			} else {
				title += "↑"
			}
		}
		if c.right {
			hdr.WriteString(frame.PadLeft(title, widths[i]))
		} else {
			hdr.WriteString(frame.PadRight(title, widths[i]))
		}
		hdr.WriteByte(' ')
	}
	b.WriteString(st.Header.Render(frame.PadRight(hdr.String(), s.w)) + "\n")

	n := s.tableRows()
	cat := s.ctx.Catalog
	var row strings.Builder
	for r := 0; r < n; r++ {
		i := s.scroll.Offset + r
		if i >= len(s.rows) {
			if len(s.rows) == 0 && r == 0 {
				switch {
				case len(cat.Tasks) == 0 && s.ctx.Jobs > 0:
					b.WriteString(st.Muted.Render("  loading tasks…"))
				case len(cat.Tasks) == 0:
					b.WriteString(st.Muted.Render("  no tasks in this workspace yet: curate import, curate mine, or curate demo for a sample"))
				default:
					b.WriteString(st.Muted.Render("  no task matches; esc in the filter clears it, f changes facets"))
				}
			}
			b.WriteString("\n")
			continue
		}
		t := cat.Tasks[s.rows[i]]
		row.Reset()
		cursor := i == s.scroll.Cursor
		marked := s.marked[t.ID]
		switch {
		case cursor && marked:
			row.WriteString(">*")
		case cursor:
			row.WriteString("> ")
		case marked:
			row.WriteString(" *")
		default:
			row.WriteString("  ")
		}
		for j, ci := range cols {
			c := tableColumns[ci]
			v := c.cell(t, cat)
			if c.middle {
				v = frame.TruncateMiddle(v, widths[j])
			}
			if c.right {
				row.WriteString(frame.PadLeft(v, widths[j]))
			} else {
				row.WriteString(frame.PadRight(v, widths[j]))
			}
			row.WriteByte(' ')
		}
		line := frame.PadRight(row.String(), s.w)
		switch {
		case cursor && marked:
			line = st.CursorMarked.Render(line)
		case cursor:
			line = st.Cursor.Render(line)
		case marked:
			line = st.Marked.Render(line)
		case t.Labels.Excluded:
			line = st.Muted.Render(line)
		default:
			line = st.Base.Render(line)
		}
		b.WriteString(line + "\n")
	}
	// The current task's title, or the open prompt.
	switch {
	case s.label.Active():
		b.WriteString(s.label.View(s.w))
	case s.bulk != nil:
		b.WriteString(s.bulkView())
	case s.naming:
		b.WriteString(s.nameInput.View())
	default:
		if t := s.current(); t != nil {
			title := frame.CleanLine(t.Title)
			if t.Labels.Excluded {
				title = "[excluded: " + frame.CleanLine(t.Labels.ExcludeReason) + "] " + title
			}
			b.WriteString(frame.Truncate(st.Accent.Render("› ")+st.Base.Render(title), s.w))
		}
	}
	return b.String()
}
