package form

import (
	"fmt"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"curate/app"
	"curate/pipeline"
	"curate/ui/components/frame"
)

// The review form sets the four review fields (SWE-bench Verified shape)
// in one step: tab and the arrows move between fields, 0-3 (or 1-4 for
// the fix time) and left/right choose, backspace clears, enter saves.

const (
	reviewUnder = iota
	reviewFalseNeg
	reviewFix
	reviewComment
	reviewFieldCount
)

// reviewForm is the form's state; -1 means "not set".
type reviewForm struct {
	field  int
	scores [2]int // underspecified, false_negative
	fix    int    // index in pipeline.FixTimes
}

// OpenReview opens the review form on ids, filled from the first task.
func (l *Labeler) OpenReview(ids []string) tea.Cmd {
	l.prompt, l.ids = promptReview, ids
	l.review = reviewForm{scores: [2]int{-1, -1}, fix: -1}
	comment := ""
	if t := l.ctx.Catalog.Task(ids[0]); t != nil {
		l.review.scores = [2]int{scoreIndex(t.Labels.Underspecified), scoreIndex(t.Labels.FalseNegative)}
		l.review.fix = indexOf(pipeline.FixTimes, t.Labels.FixTime)
		comment = t.Labels.ReviewComment
	}
	l.input.Prompt = ""
	l.input.Width = max(l.Width-20, 10)
	l.input.SetValue(comment)
	l.input.CursorEnd()
	l.input.Blur()
	return nil
}

func scoreIndex(s string) int {
	if len(s) == 1 && s[0] >= '0' && s[0] <= '3' {
		return int(s[0] - '0')
	}
	return -1
}

func indexOf(xs []string, x string) int {
	for i, y := range xs {
		if y == x {
			return i
		}
	}
	return -1
}

// updateReview takes a key of the open review form.
func (l *Labeler) updateReview(m tea.KeyMsg) tea.Cmd {
	r := &l.review
	move := func(d int) tea.Cmd {
		r.field = (r.field + d + reviewFieldCount) % reviewFieldCount
		if r.field == reviewComment {
			return l.input.Focus()
		}
		l.input.Blur()
		return nil
	}
	switch m.Type {
	case tea.KeyEsc:
		l.close()
		return nil
	case tea.KeyEnter:
		return l.saveReview()
	case tea.KeyTab, tea.KeyDown:
		return move(1)
	case tea.KeyShiftTab, tea.KeyUp:
		return move(-1)
	}
	if r.field == reviewComment {
		var cmd tea.Cmd
		l.input, cmd = l.input.Update(m)
		return cmd
	}
	v, n := &r.fix, len(pipeline.FixTimes)
	first := '1' // the fix time is chosen with 1-4, the scores with 0-3
	if r.field != reviewFix {
		v, n, first = &r.scores[r.field], 4, '0'
	}
	switch {
	case m.Type == tea.KeyLeft:
		*v = max(*v-1, 0)
	case m.Type == tea.KeyRight:
		*v = min(*v+1, n-1)
	case m.Type == tea.KeyBackspace || m.Type == tea.KeyDelete:
		*v = -1
	case len(m.Runes) == 1 && m.Runes[0] >= first && m.Runes[0] < first+rune(n):
		*v = int(m.Runes[0] - first)
		return move(1) // one key per field: the next one is ready
	}
	return nil
}

func (l *Labeler) saveReview() tea.Cmd {
	r, ids := l.review, l.ids
	text := func(i int, vals []string) *string {
		s := ""
		if i >= 0 {
			s = vals[i]
		}
		return &s
	}
	scores := []string{"0", "1", "2", "3"}
	comment := strings.TrimSpace(l.input.Value())
	l.close()
	cmd := l.ctx.ReviewCmd(ids, app.Review{
		Underspecified: text(r.scores[0], scores), FalseNegative: text(r.scores[1], scores),
		FixTime: text(r.fix, pipeline.FixTimes), Comment: &comment,
	})
	if l.AfterReview != nil {
		return tea.Sequence(cmd, l.AfterReview(ids))
	}
	return cmd
}

// reviewView draws the open form: a title line and one line per field.
func (l *Labeler) reviewView(w int, target string) string {
	st := l.ctx.Styles
	r := l.review
	lines := []string{st.Title.Render("Review "+target) +
		st.Muted.Render("  tab/↑↓ field · 0-3 ←→ value · ⌫ clears · enter saves · esc")}
	choices := func(vals []string, chosen int) string {
		parts := make([]string, len(vals))
		for i, v := range vals {
			if i == chosen {
				parts[i] = st.Label.Render("[" + v + "]")
			} else {
				parts[i] = " " + v + " "
			}
		}
		return strings.Join(parts, "")
	}
	rows := []struct{ name, value, hint string }{
		{"underspecified", choices([]string{"0", "1", "2", "3"}, r.scores[0]), "how unclear the instruction is"},
		{"false_negative", choices([]string{"0", "1", "2", "3"}, r.scores[1]), "tests reject a correct fix"},
		{"fix_time", choices(pipeline.FixTimes, r.fix), "1-4"},
		{"comment", l.input.View(), ""},
	}
	for i, row := range rows {
		cursor := "  "
		if i == r.field {
			cursor = st.Cursor.Render("> ")
		}
		line := cursor + fmt.Sprintf("%-15s ", row.name) + row.value
		if row.hint != "" {
			line += "  " + st.Muted.Render(row.hint)
		}
		lines = append(lines, frame.Truncate(line, w))
	}
	lines[0] = frame.Truncate(lines[0], w)
	return strings.Join(lines, "\n")
}

// OpenReviewOf names the tasks of an open review form ("" when none is
// open): what quitting now would lose.
func (l *Labeler) OpenReviewOf() []string {
	if l.prompt != promptReview {
		return nil
	}
	return l.ids
}

// SaveReview saves the open review form as enter does.
func (l *Labeler) SaveReview() tea.Cmd {
	if l.prompt != promptReview {
		return nil
	}
	return l.saveReview()
}
