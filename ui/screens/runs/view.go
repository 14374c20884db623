package runs

import (
	"fmt"
	"path/filepath"
	"strings"

	"curate/pipeline"
	"curate/ui/components/frame"
	"curate/ui/components/scroller"
)

// View: title and filter, the run list (or the start form), the selected
// run's log pane and a key hint.
func (s *Model) View() string {
	st := s.ctx.Styles
	var b strings.Builder
	queued, running := 0, 0
	for _, e := range s.entries {
		switch e.state {
		case runQueued:
			queued++
		case runRunning:
			running++
		}
	}
	filter := runFilters[s.filter]
	if filter == "" {
		filter = "all runs"
	}
	b.WriteString(st.Title.Render("Runs") + st.Muted.Render(fmt.Sprintf("  %d queued · %d running · %d in the list · review: ", queued, running, len(s.entries))) +
		st.Accent.Render(filter) + st.Muted.Render(" (f next class)") + "\n")
	if e := s.current(); s.matrix != nil && e != nil {
		b.WriteString(s.matrixView(e))
	} else if s.form != nil {
		b.WriteString(s.formView())
	} else {
		b.WriteString(s.listView())
	}
	b.WriteString(s.logView())
	return frame.Fit(b.String(), s.w, s.h)
}

func (s *Model) listView() string {
	st := s.ctx.Styles
	var b strings.Builder
	tw := max(min(s.w-61, 28), 12)
	b.WriteString(st.Header.Render(frame.PadRight(fmt.Sprintf("  %-10s %-19s %-*s %-7s %-14s %s", "STATE", "RUN", tw, "TASK", "MODE", "OUTCOME", "DETAIL"), s.w)) + "\n")
	v := s.visible()
	rows := s.listRows()
	if len(v) == 0 {
		msg := "no runs yet: v validates the current task, the marked tasks or the filtered set"
		if s.filter != 0 {
			msg = "no run of this class · f shows the next class"
		}
		b.WriteString(st.Muted.Render("  "+msg) + "\n")
		rows--
	}
	from, to := scroller.Window(s.list.Offset, len(v), rows)
	for i := from; i < to; i++ {
		e := v[i]
		line := fmt.Sprintf("%-10s %-19s %s %-7s %-14s %s", stateText(e), e.run.ID, frame.PadRight(frame.CleanLine(e.run.TaskID), tw),
			e.run.Mode, outcomeText(e), frame.CleanLine(detailText(e)))
		if i == s.list.Cursor {
			line = st.Cursor.Render(frame.PadRight("> "+line, s.w))
		} else {
			line = "  " + s.outcomeStyle(e, line)
		}
		b.WriteString(frame.Truncate(line, s.w) + "\n")
	}
	for i := to - from; i < rows; i++ {
		b.WriteString("\n")
	}
	return b.String()
}

func stateText(e *runEntry) string {
	switch e.state {
	case runQueued:
		if e.asked {
			return "cancelled"
		}
		return "queued"
	case runRunning:
		if e.asked {
			return "stopping"
		}
		if e.waiting != "" {
			return "waiting"
		}
		return "running"
	}
	return "finished"
}

func outcomeText(e *runEntry) string {
	if e.state != runFinished {
		return "…"
	}
	s := string(e.run.Outcome)
	if e.run.Reward != nil {
		s += fmt.Sprintf(" %g", *e.run.Reward)
	}
	return s
}

func (s *Model) outcomeStyle(e *runEntry, line string) string {
	st := s.ctx.Styles
	switch {
	case e.state != runFinished:
		return st.Accent.Render(line)
	case e.run.Outcome == pipeline.OutcomeOK:
		return st.Good.Render(line)
	case e.run.Outcome == pipeline.OutcomeCancelled || e.run.Outcome == pipeline.OutcomeInterrupted || e.run.Outcome == pipeline.OutcomeInfraError:
		return st.Warn.Render(line)
	}
	return st.Bad.Render(line)
}

func (s *Model) formView() string {
	st := s.ctx.Styles
	f := s.form
	current, marked, filtered := s.scopeIDs()
	counts := []string{frame.CleanLine(current), fmt.Sprintf("%d", len(marked)), fmt.Sprintf("%d", len(filtered))}
	fields := []struct{ name, value string }{
		{"Validate", fmt.Sprintf("%s (%s)", runScopes[f.scope], counts[f.scope])},
		{"Modes", runModes[f.modes]},
		{"Runs", fmt.Sprintf("%d (differing results are flaky)", f.runs)},
		{"Concurrency", concurrencyText(f.concurrency)},
	}
	var b strings.Builder
	b.WriteString(st.Bold.Render("  Start a validation") + st.Muted.Render("   ↑/↓ field · ←/→ change · enter starts · esc cancels") + "\n")
	rows := s.listRows()
	for i, fl := range fields {
		line := fmt.Sprintf("  %-12s ‹ %s ›", fl.name, fl.value)
		if i == f.field {
			line = st.Cursor.Render(frame.PadRight(line, s.w))
		}
		b.WriteString(line + "\n")
	}
	for i := len(fields); i < rows; i++ {
		b.WriteString("\n")
	}
	return b.String()
}

func (s *Model) logView() string {
	st := s.ctx.Styles
	var b strings.Builder
	e := s.current()
	h := s.h - s.listRows() - 4
	if e == nil || e.log == nil {
		b.WriteString(st.Header.Render(frame.PadRight(" log", s.w)) + "\n")
		msg := "select a run to see its log"
		if e != nil && e.state == runQueued {
			msg = "queued: its log starts when a container is free"
		}
		b.WriteString(st.Muted.Render(" "+msg) + "\n")
		for i := 1; i < h; i++ {
			b.WriteString("\n")
		}
	} else {
		p := e.log
		mode := st.Good.Render("following")
		if first, last, ok := p.Windowed(); ok {
			mode = st.Warn.Render(fmt.Sprintf("at %d–%d of the file (F tail)", first+1, last+1))
		} else if !p.Follow {
			mode = st.Warn.Render(fmt.Sprintf("paused at line %d (F or G follows)", p.Top()+1))
		}
		if s.busy != "" {
			mode += st.Accent.Render(" · " + s.busy)
		}
		wrap := "wrap off"
		if p.Wrap {
			wrap = "wrap on"
		}
		src := ""
		if e.fromFile && e.run.LogPath != "" {
			src = " · from " + frame.CleanLine(shownPath(s.ctx.Root, e.run.LogPath))
		}
		focus := " "
		if s.focusLog {
			focus = "▶"
		}
		head := fmt.Sprintf("%s log %s %s %s · %d lines", focus, e.run.ID, frame.CleanLine(e.run.TaskID), e.run.Mode, p.Total)
		if p.Dropped > 0 {
			head += fmt.Sprintf(" (%d skipped on screen)", p.Dropped)
		}
		if _, _, ok := p.Windowed(); ok || s.busy != "" { // what the pane shows first: the window, the search
			head = fmt.Sprintf("%s log %s", focus, e.run.ID)
			src = fmt.Sprintf(" · %s %s · %d lines", frame.CleanLine(e.run.TaskID), e.run.Mode, p.Total) + src
		}
		b.WriteString(frame.Truncate(st.Header.Render(frame.Truncate(head, s.w))+" "+mode+st.Muted.Render(" · "+wrap+src), s.w) + "\n")
		var lines []string
		if s.showsTests(e) {
			lines = s.testLines(e, s.w, h)
		} else {
			lines = p.Render(func(x string) string { return st.Accent.Render(x) })
		}
		for _, l := range lines {
			b.WriteString(l + "\n")
		}
		for i := len(lines); i < h; i++ {
			b.WriteString("\n")
		}
	}
	switch {
	case s.confirm != nil:
		b.WriteString(st.Warn.Render(fmt.Sprintf("Cancel %s %s %s? y cancels, any other key keeps it", s.confirm.run.ID, frame.CleanLine(s.confirm.run.TaskID), s.confirm.run.Mode)))
	case s.searching:
		b.WriteString(s.search.View())
	case s.matrix != nil:
		b.WriteString(st.Muted.Render(frame.Truncate(s.matrixHint(), s.w)))
	default:
		hint := "v validate · r rerun · x cancel · f review class · enter log focus · T tests/raw log · m gold matrix · w wrap · / search · E first error · e/t/s edit Dockerfile/test.sh/solve.sh"
		if e != nil && e.run.Retry != "" { // the selected run moved engines: say so in full, as `curate runs show` does
			b.WriteString(frame.Truncate(st.Warn.Render(frame.CleanLine(e.run.Retry))+st.Muted.Render(" · "+hint), s.w))
			break
		}
		b.WriteString(st.Muted.Render(hint))
	}
	return b.String()
}

// detailText is a run's detail column: why it waits for the cluster while
// it does, else its detail and retry note.
func detailText(e *runEntry) string {
	if e.state == runRunning && e.waiting != "" {
		return "waiting for the cluster: " + e.waiting
	}
	return e.run.Detail + e.run.RetryNote()
}

// shownPath is a log's path relative to the workspace when it is inside
// it: shorter, and the same on every machine the workspace is copied to.
func shownPath(root, p string) string {
	if root == "" {
		return p
	}
	if rel, err := filepath.Rel(root, p); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return rel
	}
	return p
}

// concurrencyText is the run form's concurrency: a number, or 0 for each
// engine's own size.
func concurrencyText(n int) string {
	if n <= 0 {
		return "auto (each engine's CPUs and memory)"
	}
	return fmt.Sprintf("%d container(s) at once", n)
}
