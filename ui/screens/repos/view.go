package repos

import (
	"fmt"
	"strings"

	"curate/app"
	"curate/pipeline"
	"curate/ui/components/frame"
)

// funnelCols are the funnel's columns: header and width.
var funnelCols = []struct {
	name string
	w    int
}{{"MINED", 6}, {"BUILT", 6}, {"ENV", 5}, {"NOP0", 5}, {"ORC1", 5}, {"F2P", 5}, {"VALID", 6}, {"FAIL", 5}}

// View implements shared.Screen: the repo table, then the selected repo's
// failure classes, evidence and suggested fix. No I/O.
func (s *Model) View() string {
	st := s.ctx.Styles
	var b strings.Builder
	b.WriteString(st.Title.Render("Repos") + "  ")
	switch {
	case s.loadErr != "":
		return frame.Fit(b.String()+"\n"+st.Error.Render(frame.CleanLine(s.loadErr)), s.w, s.h)
	case !s.loaded:
		return frame.Fit(b.String()+st.Muted.Render("loading runs…"), s.w, s.h)
	case len(s.repos) == 0:
		return frame.Fit(b.String()+st.Muted.Render("no mined repository yet: curate mine git PATH, then curate build --candidates"), s.w, s.h)
	}
	what := fmt.Sprintf("%d repositories", len(s.repos))
	if len(s.repos) == 1 {
		what = "1 repository"
	}
	b.WriteString(st.Muted.Render(what + " · failures by class · e edit profile · R rebuild + rerun failures"))
	b.WriteString("\n")
	s.table(&b)
	if r := s.selected(); r != nil && r.profile != nil {
		s.detail(&b, r.profile)
	}
	return frame.Fit(strings.TrimRight(b.String(), "\n"), s.w, s.h)
}

// tableRows is how many repo rows fit above the detail.
func (s *Model) tableRows() int { return max(min(len(s.repos), s.h/3), 1) }

func (s *Model) table(b *strings.Builder) {
	st := s.ctx.Styles
	nameW := s.nameWidth()
	head := "  " + frame.PadRight("REPO", nameW)
	for _, c := range funnelCols {
		head += frame.PadLeft(c.name, c.w)
	}
	b.WriteString(st.Header.Render(frame.PadRight(head, s.w)) + "\n")
	rows := s.tableRows()
	if s.cursor < s.top {
		s.top = s.cursor
	}
	if s.cursor >= s.top+rows {
		s.top = s.cursor - rows + 1
	}
	for i := s.top; i < len(s.repos) && i < s.top+rows; i++ {
		p := s.repos[i].profile
		if p == nil {
			continue
		}
		f := p.Funnel
		env := "-"
		if p.EnvCheck != nil {
			env = fmt.Sprintf("%.0f%%", 100*float64(p.EnvCheck.Passed)/float64(max(p.EnvCheck.Total, 1)))
		}
		cells := []string{fmt.Sprint(f.Mined), fmt.Sprint(f.Built), env, fmt.Sprint(f.Nop0), fmt.Sprint(f.Oracle1),
			fmt.Sprint(f.FailToPass), fmt.Sprint(f.Valid), fmt.Sprint(p.Failing())}
		name := frame.CleanLine(p.Repo)
		if _, step := s.campaignStep(p.Repo); step != "" {
			name += " ⟳ " + strings.SplitN(step, ":", 2)[0]
		}
		line := "  " + frame.PadRight(frame.Truncate(name, nameW), nameW)
		for j, c := range funnelCols {
			line += frame.PadLeft(cells[j], c.w)
		}
		line = frame.PadRight(line, s.w)
		if i == s.cursor {
			line = st.Cursor.Render("▸" + line[len("  ")-1:])
		}
		b.WriteString(line + "\n")
	}
}

func (s *Model) nameWidth() int {
	w := s.w - 2
	for _, c := range funnelCols {
		w -= c.w
	}
	return max(w, 8)
}

// detail is the selected repo: how it builds, its classes (the selected
// one marked), the class's tasks, evidence and suggested fix, the job and
// a refused edit.
func (s *Model) detail(b *strings.Builder, p *app.RepoProfile) {
	st := s.ctx.Styles
	w := s.w
	prof := "profile: none (e adds one)"
	if p.Profile != nil {
		prof = "profile: curate.toml"
	}
	b.WriteString("\n" + frame.Truncate(st.Bold.Render(frame.CleanLine(p.Repo))+st.Muted.Render(" · "+frame.CleanLine(orDash(p.Language))+" · "+prof), w) + "\n")
	if p.TestCommand != "" {
		b.WriteString(frame.Truncate(st.Muted.Render("tests ("+p.TestSource+"): ")+frame.CleanLine(p.TestCommand), w) + "\n")
	}
	if len(p.Install) > 0 {
		b.WriteString(frame.Truncate(st.Muted.Render("install ("+p.InstallSource+"): ")+frame.CleanLine(strings.Join(p.Install, "; ")), w) + "\n")
	}
	if p.Snapshot != "" || p.EnvCheck != nil {
		env := "snapshot " + orDash(app.ShortRev(p.Snapshot)) + " · env check " + p.EnvCheck.String()
		b.WriteString(st.Muted.Render(frame.Truncate(frame.CleanLine(env), w)) + "\n")
		s.envFailures(b, p)
	}
	if f := p.Funnel; f.NotValidated > 0 || f.Unbuilt > 0 {
		b.WriteString(st.Muted.Render(frame.Truncate(fmt.Sprintf("not validated %d · not built yet %d", f.NotValidated, f.Unbuilt), w)) + "\n")
	}
	if id, step := s.campaignStep(p.Repo); step != "" {
		b.WriteString(st.Accent.Render(frame.Truncate(frame.CleanLine(fmt.Sprintf("campaign (job %d, J shows it): %s", id, step)), w)) + "\n")
	}
	if s.jobLine != "" {
		line := s.jobLine
		if j := s.job; j != nil && j.long.Total > 0 {
			line += fmt.Sprintf(" · %s %d/%d", frame.MiniBar(j.long.Done, j.long.Total, 8), j.long.Done, j.long.Total)
		}
		b.WriteString(st.Accent.Render(frame.Truncate(frame.CleanLine(line), w)) + "\n")
	}
	if s.editErr != "" {
		b.WriteString(st.Error.Render(frame.Truncate("profile edit refused (curate.toml unchanged; e reopens it, esc drops it):", w)) + "\n")
		for _, l := range strings.Split(s.editErr, "\n") {
			b.WriteString(st.Error.Render(frame.Truncate("  "+frame.CleanLine(l), w)) + "\n")
		}
	}
	if len(p.Failures) == 0 {
		b.WriteString("\n" + st.Good.Render("no failing task") + "\n")
		return
	}
	var classes strings.Builder
	classes.WriteString(st.Muted.Render("failures: "))
	for i, g := range p.Failures {
		label := fmt.Sprintf("%s %d", frame.CleanLine(g.Class), len(g.Tasks))
		if i == s.class {
			classes.WriteString(st.Cursor.Render("[" + label + "]"))
		} else {
			classes.WriteString(" " + label + " ")
		}
	}
	b.WriteString("\n" + frame.Truncate(classes.String(), w) + "\n")
	g := p.Failures[min(s.class, len(p.Failures)-1)]
	b.WriteString(frame.Truncate(st.Bold.Render(frame.CleanLine(g.Class))+st.Muted.Render(": ")+frame.CleanLine(strings.Join(g.Tasks, ", ")), w) + "\n")
	if len(g.Evidence) > 0 {
		b.WriteString(st.Muted.Render("evidence") + "\n")
		for i, e := range g.Evidence {
			if i == 4 {
				b.WriteString(st.Muted.Render(fmt.Sprintf("  … %d more", len(g.Evidence)-4)) + "\n")
				break
			}
			b.WriteString(frame.Truncate("  "+st.Muted.Render(frame.CleanLine(e.TaskID)+" ")+frame.CleanLine(e.Line), w) + "\n")
		}
	}
	if len(g.Suggestions) > 0 {
		b.WriteString(st.Muted.Render(frame.Truncate("suggested fix in [repos.\""+frame.CleanLine(p.Repo)+"\"] (e edits it):", w)) + "\n")
		for _, sg := range g.Suggestions {
			b.WriteString(st.Good.Render(frame.Truncate("  "+frame.CleanLine(sg), w)) + "\n")
		}
	} else if g.Class != pipeline.ClassNoFailToPass {
		b.WriteString(st.Muted.Render(frame.Truncate("no suggested fix: read a log in Runs (F4)", w)) + "\n")
	}
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// shownFailures is how many of a failed env check's tests the detail
// lists; the rest are in curate repo show --json.
const shownFailures = 3

// envFailures lists a failed env check's first failing tests with their
// first error line, and the key that accepts them.
func (s *Model) envFailures(b *strings.Builder, p *app.RepoProfile) {
	c := p.EnvCheck
	if c == nil || c.OK || len(c.Failing) == 0 {
		return
	}
	st, w := s.ctx.Styles, s.w
	for _, f := range c.Failing[:min(len(c.Failing), shownFailures)] {
		line := "  FAIL " + frame.CleanLine(f.Test)
		if f.Error != "" {
			line += ": " + frame.CleanLine(f.Error)
		}
		b.WriteString(st.Muted.Render(frame.Truncate(line, w)) + "\n")
	}
	if c.Failed > shownFailures {
		b.WriteString(st.Muted.Render(frame.Truncate(fmt.Sprintf("  … %d more (curate repo show %s --json)", c.Failed-shownFailures, frame.CleanLine(p.Repo)), w)) + "\n")
	}
	if !c.FailuresAccepted && c.Error == "" {
		b.WriteString(st.Accent.Render(frame.Truncate(s.ctx.Keys.Get("repo_accept_env").Help().Key+" accepts them as known failures (they fail for the environment, not the code)", w)) + "\n")
	}
}

// campaignStep is the step a running campaign job is at for repo (its
// latest event) and the job's number, or "" when none works on it.
func (s *Model) campaignStep(repo string) (int, string) {
	for _, j := range s.ctx.Long.All() {
		if step := j.Repos[repo]; step != "" && j.Active() {
			return j.ID, step
		}
	}
	return 0, ""
}
