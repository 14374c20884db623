package jobs

import (
	"fmt"
	"strings"

	"curate/ui/components/frame"
	"curate/ui/components/scroller"
	"curate/ui/shared"
)

// View: a title with the counts, the jobs newest first (a row of numbers
// and a line under it: the stage while it runs, what it changed once it
// ended), and the start form or the key hint.
func (s *Model) View() string {
	st := s.ctx.Styles
	s.clamp()
	all := s.ctx.Long.All()
	running := s.ctx.Long.Len()
	var b strings.Builder
	b.WriteString(st.Title.Render("Jobs") + st.Muted.Render(fmt.Sprintf("  %d running · %d finished · esc closes", running, len(all)-running)) + "\n")
	if s.form != nil {
		b.WriteString(s.formView())
		return frame.Fit(b.String(), s.w, s.h)
	}
	ww := max(s.w-64, 12)
	b.WriteString(st.Header.Render(frame.PadRight(fmt.Sprintf("  %-3s %-8s %-*s %-10s %11s %9s %6s %6s", "#", "JOB", ww, "WHAT", "STATE", "DONE", "RATE", "ETA", "TIME"), s.w)) + "\n")
	rows := s.rows()
	n := s.listRows()
	if len(rows) == 0 {
		b.WriteString(st.Muted.Render("  no jobs yet: i import · m mine · b build · v validate · R rebuild a repository") + "\n\n")
		n--
	}
	from, to := scroller.Window(s.list.Offset, len(rows), n)
	for i := from; i < to; i++ {
		j := rows[i]
		line := fmt.Sprintf("%-3d %-8s %s %-10s %11s %9s %6s %6s", j.ID, j.Name, frame.PadRight(frame.TruncateMiddle(frame.CleanLine(j.What), ww), ww),
			j.State, j.Counts(), rate(j), eta(j), shared.ShortDuration(j.Elapsed()))
		if i == s.list.Cursor {
			line = st.Cursor.Render(frame.PadRight("> "+line, s.w))
		} else {
			line = "  " + s.stateStyle(j, line)
		}
		b.WriteString(frame.Truncate(line, s.w) + "\n")
		b.WriteString(frame.Truncate("    "+s.detail(j), s.w) + "\n")
	}
	for i := to - from; i < n; i++ {
		b.WriteString("\n\n")
	}
	b.WriteString(s.hint())
	return frame.Fit(b.String(), s.w, s.h)
}

func rate(j *shared.LongJob) string {
	r := j.Rate()
	switch {
	case r <= 0:
		return "-"
	case r < 0.1: // slow work (validations): per minute
		return fmt.Sprintf("%.1f/m", r*60)
	case r < 10:
		return fmt.Sprintf("%.1f/s", r)
	}
	return fmt.Sprintf("%.0f/s", r)
}

func eta(j *shared.LongJob) string {
	if !j.Active() {
		return "-"
	}
	if e := j.ETA(); e > 0 {
		return shared.ShortDuration(e)
	}
	return "?"
}

// detail is the line under a job: the stage and last item while it runs,
// the finished line once it ended.
func (s *Model) detail(j *shared.LongJob) string {
	st := s.ctx.Styles
	switch j.State {
	case shared.JobDone:
		return st.Good.Render(frame.CleanLine(j.Line))
	case shared.JobFailed:
		return st.Bad.Render(frame.CleanLine(j.Line))
	case shared.JobCancelled:
		return st.Warn.Render(frame.CleanLine(j.Line))
	}
	parts := []string{}
	if j.Waiting != "" {
		parts = append(parts, j.Waiting)
	}
	if j.Stage != "" {
		parts = append(parts, j.Stage)
	}
	if j.Item != "" {
		parts = append(parts, "last "+frame.CleanLine(j.Item))
	}
	if j.Total > 0 {
		parts = append(parts, frame.MiniBar(j.Done, j.Total, 16))
	}
	if len(parts) == 0 {
		parts = append(parts, "starting…")
	}
	return st.Muted.Render(strings.Join(parts, " · "))
}

func (s *Model) stateStyle(j *shared.LongJob, line string) string {
	st := s.ctx.Styles
	switch j.State {
	case shared.JobDone:
		return line
	case shared.JobFailed:
		return st.Bad.Render(line)
	case shared.JobCancelled, shared.JobCancelling:
		return st.Warn.Render(line)
	}
	return st.Accent.Render(line)
}

func (s *Model) hint() string {
	st := s.ctx.Styles
	if j := s.confirm; j != nil {
		return st.Warn.Render(fmt.Sprintf("Cancel %s %s? y cancels, any other key keeps it", j.Name, frame.CleanLine(j.What)))
	}
	return st.Muted.Render("i import · m mine · b build · v validate · R rebuild repo · x cancel · esc close")
}

// formView is the start form of one job kind.
func (s *Model) formView() string {
	st := s.ctx.Styles
	f := s.form
	var b strings.Builder
	titles := map[string]string{
		"import":   "Import a path: a Harbor tasks folder, a SWE-bench .jsonl or a manifest .json",
		"mine":     "Mine merged PRs of a clone's folder or OWNER/REPO on GitHub",
		"build":    "Build tasks into Harbor task dirs (curate build)",
		"validate": "Validate with the Runs screen's last modes (logs in F4 Runs)",
		"rebuild":  "Rebuild a repository's changed tasks, rerun its failures",
		"campaign": "Campaign: mine, check, build and validate clones, resuming what is left",
	}
	b.WriteString(st.Bold.Render("  "+titles[f.kind]) + "\n")
	if f.scoped() {
		ids := s.scopeIDs(f.scope)
		count := fmt.Sprintf("%d task(s)", len(ids))
		if f.scope == 0 && len(ids) == 1 {
			count = frame.CleanLine(ids[0])
		}
		line := fmt.Sprintf("  %-12s ‹ %s (%s) ›", strings.ToUpper(f.kind[:1])+f.kind[1:], scopes[f.scope], count)
		b.WriteString(st.Cursor.Render(frame.PadRight(line, s.w)) + "\n")
		b.WriteString(st.Muted.Render("  ←/→ current / marked / filtered · enter starts · esc cancels") + "\n")
		return b.String()
	}
	for i, label := range f.labels {
		in := f.inputs[i]
		in.Width = max(s.w-18, 10)
		mark := "  "
		if i == f.field {
			mark = st.Accent.Render("> ")
		}
		b.WriteString(mark + fmt.Sprintf("%-12s ", label) + in.View() + "\n")
	}
	hint := "  tab next field · enter starts · esc cancels"
	if f.kind == "mine" {
		hint = "  tab field · enter starts · esc cancels · limit 0 = all · empty URL: github.com"
	}
	b.WriteString(st.Muted.Render(hint) + "\n")
	return b.String()
}
