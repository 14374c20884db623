package quotas

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"curate/pipeline/selection"
	"curate/ui/components/frame"
	"curate/ui/components/scroller"
	"curate/ui/shared"
)

// columns of a quota row: dimension, value, the bar (what is left), then
// selected, min, target, max and eligible.
func (s *Model) valueWidth() int {
	switch {
	case s.w >= 120:
		return 24
	case s.w >= 100:
		return 16
	}
	return 12
}

// rightWidth is the width of the count columns after the bar.
const rightWidth = 5 + 4*7 + 2*6

func (s *Model) barWidth() int {
	return max(min(s.w-(2+11+1+s.valueWidth()+1)-rightWidth-1, 40), 6)
}

// View: the verdict line, the editable rows with bars, entered/left and
// the violations.
func (s *Model) View() string {
	st := s.ctx.Styles
	var b strings.Builder
	b.WriteString(st.Title.Render("Quotas") + "  ")
	switch {
	case s.loadErr != "":
		return frame.Fit(b.String()+"\n"+st.Error.Render(frame.CleanLine(s.loadErr)), s.w, s.h)
	case !s.haveCfg:
		return frame.Fit(b.String()+st.Muted.Render("loading the selection config…"), s.w, s.h)
	case s.res == nil:
		return frame.Fit(b.String()+"\n"+st.Error.Render("cannot solve: "+frame.CleanLine(s.err)), s.w, s.h)
	}
	r := s.res
	pinned, excluded := 0, 0
	for _, t := range s.ctx.Catalog.Tasks {
		if t.Labels.Pinned {
			pinned++
		}
		if t.Labels.Excluded {
			excluded++
		}
	}
	verdict := st.Good.Render("feasible: every quota met")
	if !r.Feasible {
		verdict = st.Bad.Render(fmt.Sprintf("INFEASIBLE: %d quota(s) cannot be met", len(r.Violations)))
	}
	if s.dirty { // first: at 80 columns the end of the line is cut
		b.WriteString(st.Warn.Render("unsaved (S saves, D discards)") + " · ")
	}
	b.WriteString(fmt.Sprintf("selected %d of budget %d · ", len(r.Picks), r.Budget) + verdict +
		fmt.Sprintf(" · score %.2f, bound %.2f, gap %.2f · pinned %d · excluded %d", r.TotalScore, r.UpperBound, r.Gap, pinned, excluded))
	b.WriteString("\n")
	cols := []string{"MIN", "TARGET", "MAX", "MIN%", "MAX%"}
	for i := range cols {
		if i == s.field {
			cols[i] = "[" + cols[i] + "]"
		}
	}
	b.WriteString(st.Header.Render(frame.PadRight(fmt.Sprintf("  %-11s %-*s %-*s %6s %6s %6s %5s %5s %6s", "DIMENSION", s.valueWidth(), "VALUE", s.barWidth()+5, "SELECTED", cols[0], cols[1], cols[2], cols[3], cols[4], "ELIG"), s.w)) + "\n")
	scale := s.scales()
	rows := s.listRows()
	from, to := scroller.Window(s.list.Offset, len(s.rows), rows)
	for i := from; i < to; i++ {
		b.WriteString(s.rowView(i, scale) + "\n")
	}
	for i := to - from; i < rows; i++ {
		b.WriteString("\n")
	}
	b.WriteString(st.Good.Render(fmt.Sprintf("entered (%d): ", len(s.entered))) + idList(s.entered, s.w) + "\n")
	b.WriteString(st.Bad.Render(fmt.Sprintf("left (%d): ", len(s.left))) + idList(s.left, s.w) + "\n")
	if len(r.Violations) > 0 {
		b.WriteString(st.Bad.Render("cannot meet: "+frame.CleanLine(r.Violations[0].Message)) + "\n")
	} else {
		b.WriteString("\n")
	}
	if s.typing {
		b.WriteString(s.input.View())
	} else {
		b.WriteString(st.Muted.Render("↑/↓ row · +/- or ←/→ nudge · [ ] column · enter types a number or percent (empty clears) · x removes · S save to curate.toml · D discard"))
	}
	return frame.Fit(b.String(), s.w, s.h)
}

// scales is each dimension's bar scale: its largest count or bound.
func (s *Model) scales() map[string]int {
	out := map[string]int{"": max(s.res.Budget, 1)}
	for _, r := range s.rows {
		m := max(out[r.dim], r.have, 1)
		if r.quota >= 0 {
			q := s.quotas[r.quota]
			for _, p := range []*int{q.Min, q.Target, q.Max} {
				if p != nil {
					m = max(m, *p)
				}
			}
		}
		out[r.dim] = m
	}
	return out
}

func (s *Model) rowView(i int, scale map[string]int) string {
	st := s.ctx.Styles
	r := s.rows[i]
	dim, val := r.dim, frame.CleanLine(r.value)
	if dim == "" {
		dim, val = "budget", "total"
	}
	if val == "" {
		val = "(none)"
	}
	if vw := s.valueWidth(); ansi.StringWidth(val) > vw {
		// Keep values apart that share a long prefix (three phases
		// start "Implementation").
		if dim == "sdlc_phase" {
			val = shared.ShortPhase(val)
		}
		val = frame.TruncateMiddle(val, vw)
	}
	cells := []string{"", "", "", "", ""}
	met := true
	if r.dim == "" {
		cells[1] = fmt.Sprint(s.res.Budget)
	} else if r.quota >= 0 {
		q := s.quotas[r.quota]
		for j, p := range []*int{q.Min, q.Target, q.Max} {
			if p != nil {
				cells[j] = fmt.Sprint(*p)
			}
		}
		cells[fieldMinShare], cells[fieldMaxShare] = shareText(q.MinShare), shareText(q.MaxShare)
		lo, hi := selection.Bounds(q, s.res.Budget)
		met = r.have >= lo && r.have <= hi
	}
	for j := range cells {
		if cells[j] == "" {
			cells[j] = "–"
		}
	}
	bw := s.barWidth()
	n := min(r.have*bw/scale[r.dim], bw)
	bar := st.Bar.Render(strings.Repeat("█", n)) + st.BarEmpty.Render(strings.Repeat("░", bw-n))
	if !met {
		bar = st.Bad.Render(strings.Repeat("█", n)) + st.BarEmpty.Render(strings.Repeat("░", bw-n))
	}
	cur := "  "
	if i == s.list.Cursor {
		cur = "> "
		cells[s.field] = "‹" + cells[s.field] + "›"
		if r.dim == "" {
			cells = []string{"", "‹" + fmt.Sprint(s.res.Budget) + "›", "", "", ""}
		}
	}
	eligible := fmt.Sprint(r.eligible)
	if r.dim == "" {
		eligible = ""
	}
	vw := s.valueWidth()
	left := fmt.Sprintf("%s%-11s %s ", cur, dim, frame.PadRight(val, vw))
	right := fmt.Sprintf(" %4d %6s %6s %6s %5s %5s %6s", r.have, cells[0], cells[1], cells[2], cells[3], cells[4], eligible)
	if i == s.list.Cursor {
		left = st.Cursor.Render(left)
	}
	if !met {
		right = st.Bad.Render(right + "  not met")
	}
	return left + bar + right
}

func idList(ids []string, w int) string {
	if len(ids) == 0 {
		return "–"
	}
	return frame.Truncate(frame.CleanLine(strings.Join(ids, ", ")), max(w-14, 10))
}
