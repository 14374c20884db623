package task

import (
	"fmt"
	"github.com/charmbracelet/x/ansi"
	"sort"
	"strings"

	"curate/app"
	"curate/pipeline"
	"curate/themes"
	"curate/ui/components/frame"
	"curate/ui/components/scroller"
	"curate/ui/shared"
)

// build lays the page out as lines; View only slices them.
func (s *Model) build() {
	t := s.task()
	st := s.ctx.Styles
	if t == nil {
		s.lines = []string{st.Muted.Render("No task chosen: pick one in Candidates (enter).")}
		return
	}
	w := max(s.w, 20)
	var out []string
	add := func(lines ...string) { out = append(out, lines...) }
	field := func(name, value string) {
		if value == "" {
			value = "-"
		}
		add(st.Muted.Render(fmt.Sprintf("%-12s", name)) + " " + st.Base.Render(value))
	}
	section := func(title string) { add("", st.Title.Render(title)) }

	if s.queue {
		add(st.Label.Render("Review queue") + st.Muted.Render(fmt.Sprintf(" · %d unreviewed valid task(s) left · enter saves and moves on · Q leaves", queueLeft(s.ctx.Catalog, s.ctx.Table.Rows))))
	}
	add(st.Title.Render(frame.CleanLine(t.ID)) + "  " + st.Base.Render(frame.CleanLine(t.Title)))
	// The statement first: what the agent reads, then what checks it.
	add(s.statementRows(t, w)...)
	add("")
	field("benchmark", frame.CleanLine(t.Benchmark))
	repo := frame.CleanLine(t.Repo)
	if t.PR != 0 {
		repo += fmt.Sprintf(" #%d", t.PR)
	}
	field("repo", repo)
	field("language", frame.CleanLine(t.Language))
	if b := app.TaskStrategy(t); b != "" {
		field("built at", b)
	}
	field("category", labelled(frame.CleanLine(t.Category), frame.CleanLine(t.Labels.Category)))
	phase := frame.CleanLine(t.SDLCPhase)
	if t.PhaseRule != "" {
		phase += st.Muted.Render("  (rule: " + frame.CleanLine(t.PhaseRule) + ")")
	}
	field("phase", labelled(phase, t.Labels.Phase))
	field("status", string(t.Status))
	field("source", frame.CleanLine(t.Source+" "+t.SourcePath))
	if t.TaskDir != "" {
		field("task dir", frame.CleanLine(shared.ShownTaskDir(s.ctx.Root, t)))
	}
	if t.Digest != "" {
		field("digest", frame.CleanLine(t.Digest))
	}
	flagsLine := []string{}
	if t.Labels.Pinned {
		flagsLine = append(flagsLine, st.Label.Render("pinned"))
	}
	if t.Labels.Excluded {
		flagsLine = append(flagsLine, st.Bad.Render("excluded: "+frame.CleanLine(t.Labels.ExcludeReason)))
	}
	if t.Labels.Note != "" {
		flagsLine = append(flagsLine, "note: "+frame.CleanLine(t.Labels.Note))
	}
	if len(flagsLine) > 0 {
		field("curator", strings.Join(flagsLine, " · "))
	}
	field("review", reviewText(st, t.Labels))

	section("Difficulty")
	rule := ""
	if t.DifficultyRule != "" {
		rule = st.Muted.Render("  (rule: " + frame.CleanLine(t.DifficultyRule) + ")")
	}
	field("imported", string(t.DifficultyImported))
	field("calibrated", string(t.DifficultyCalibrated)+rule)
	lab := string(t.Labels.Difficulty)
	if lab != "" {
		lab = st.Label.Render(lab+"*") + st.Muted.Render("  (curator's label; wins)")
	}
	field("label", lab)

	section(fmt.Sprintf("Score %.3f", t.Score))
	barW := min(30, max(w/5, 10))
	comps := []struct {
		name, key string
		v         float64
	}{
		{"context complexity", "context_complexity", t.Breakdown.ContextComplexity},
		{"cross-file deps", "cross_file_deps", t.Breakdown.CrossFileDeps},
		{"semantic search", "semantic_search_potential", t.Breakdown.SemanticSearchPotential},
		{"category weight", "task_category_weight", t.Breakdown.TaskCategoryWeight},
	}
	for _, c := range comps {
		r := t.Breakdown.Rules[c.key]
		if r == "" {
			r = "no rule recorded"
		}
		add(fmt.Sprintf("%-19s %s %5.3f  %s", c.name, bar(st, c.v, barW), c.v, st.Muted.Render(frame.CleanLine(r))))
	}
	if len(t.Features.Values) > 0 {
		names := make([]string, 0, len(t.Features.Values))
		for n := range t.Features.Values {
			names = append(names, n)
		}
		sort.Strings(names)
		var parts []string
		for _, n := range names {
			parts = append(parts, fmt.Sprintf("%s=%g", frame.CleanLine(n), t.Features.Values[n]))
		}
		add(st.Muted.Render("features: ") + strings.Join(parts, "  "))
	}
	if fields := sourceFields(t); len(fields) > 0 { // task.toml keys curate does not model
		section("Source keys")
		for _, f := range fields {
			text := f.Text
			if len(text) > 300 { // a huge value must not make a huge row
				text = text[:300] + "…"
			}
			add(st.Muted.Render(fmt.Sprintf("  %-28s", frame.CleanLine(f.Key))) + " " + frame.CleanLine(text))
		}
	}

	if len(t.Reasons) > 0 {
		section("Filter reasons")
		for _, r := range t.Reasons {
			add("  - " + frame.CleanLine(r))
		}
	}

	section("Runs")
	switch {
	case s.data == nil:
		add(st.Muted.Render("  loading…"))
	case s.data.err != nil:
		add(st.Error.Render("  " + frame.CleanLine(s.data.err.Error())))
	case len(s.data.runs) == 0:
		add(st.Muted.Render("  never validated"))
	default:
		for _, r := range s.data.runs {
			stale := ""
			if r.Stale(t.Digest) {
				stale = st.Warn.Render("  stale: made on other files")
			}
			o := string(r.Outcome)
			os := st.Bad
			if r.Outcome == pipeline.OutcomeOK {
				os = st.Good
			}
			add(fmt.Sprintf("  %s  %-6s #%d  %s  %s%s", r.StartedAt.Format("2006-01-02 15:04"), frame.CleanLine(r.Mode), r.Attempt, os.Render(o), frame.CleanLine(r.Detail+r.RetryNote()), stale))
		}
	}

	section("History")
	switch {
	case s.data == nil:
		add(st.Muted.Render("  loading…"))
	case len(s.data.events) == 0:
		add(st.Muted.Render("  no label changes yet"))
	default:
		for _, e := range s.data.events {
			add(fmt.Sprintf("  %s  %-5s %-14s %s → %s  %s", e.Time.Local().Format("01-02 15:04"), e.Kind, e.Field, orNone(frame.CleanLine(e.Old)), orNone(frame.CleanLine(e.New)), st.Muted.Render(frame.CleanLine(e.Actor+" "+e.Note))))
		}
	}

	if notes := app.EnvironmentNotes(t); len(notes) > 0 {
		// What the build decided and why (toolchain, installs, mirroring,
		// known failures): what a curator reads after the runs.
		section("Environment")
		for _, n := range notes { // wrapped: the end of a note (a test's name) matters
			indent := "  "
			for _, row := range strings.Split(ansi.Wrap(frame.CleanLine(n), max(w-4, 16), ""), "\n") {
				add(indent + row)
				indent = "    "
			}
		}
	}

	s.lines = out
	s.scrollBy(0)
}

// reviewText is the human review in one line ("-" when not reviewed).
func reviewText(st *themes.Styles, l pipeline.Labels) string {
	if !l.Reviewed() {
		return st.Muted.Render("unreviewed  (r reviews)")
	}
	state := st.Good.Render("reviewed")
	if l.Flagged() {
		state = st.Bad.Render("flagged")
	}
	dash := func(v string) string { return orNone(frame.CleanLine(v)) }
	text := fmt.Sprintf("%s · underspecified %s · false_negative %s · fix %s · by %s", state,
		dash(l.Underspecified), dash(l.FalseNegative), dash(l.FixTime), dash(l.Reviewer))
	if l.ReviewComment != "" {
		text += " — " + frame.CleanLine(l.ReviewComment)
	}
	return text
}

func labelled(computed, label string) string {
	if label == "" {
		return computed
	}
	return label + "*  (computed: " + orNone(computed) + ")"
}

func orNone(s string) string {
	if s == "" {
		return "∅"
	}
	return s
}

// bar draws v in [0,1] as a horizontal bar w cells wide.
func bar(st *themes.Styles, v float64, w int) string {
	n := int(v*float64(w) + 0.5)
	n = max(min(n, w), 0)
	return st.Bar.Render(strings.Repeat("█", n)) + st.BarEmpty.Render(strings.Repeat("░", w-n))
}

// View shows the page from the scroll offset, with an open prompt pinned
// at the bottom.
func (s *Model) View() string {
	if len(s.lines) == 0 {
		return ""
	}
	h, prompt := s.h, ""
	switch {
	case s.label.Active():
		prompt = s.label.View(s.w)
	case s.drop != nil:
		prompt = s.dropView(s.w)
	}
	if prompt != "" {
		h -= strings.Count(prompt, "\n") + 1
	}
	from, to := scroller.Window(s.scroll.Offset, len(s.lines), h)
	page := strings.Join(s.lines[from:to], "\n")
	if prompt != "" {
		page = frame.Fit(page, s.w, max(h, 0)) + "\n" + prompt
	}
	return page
}

// sourceFields are the task's Extra keys but those curate's build and
// validation keep (shown in their own places: built at, Environment).
func sourceFields(t *pipeline.Task) []pipeline.ExtraField {
	var out []pipeline.ExtraField
	for _, f := range t.ExtraFields() {
		switch f.Key {
		case app.EnvironmentNotesKey, app.ToolchainDecisionsKey, pipeline.ExtraBuildNotes, pipeline.ExtraKnownFailures, pipeline.ExtraFlakyTests, pipeline.ExtraBuildStrategy,
			pipeline.ExtraSnapshot, pipeline.ExtraMirrorMethod, pipeline.ExtraRepoImage,
			// the statement's: shown in the Statement section
			pipeline.ExtraInstructionSource, pipeline.ExtraInstructionSources, pipeline.ExtraInterface, pipeline.ExtraStatementFlags, pipeline.ExtraStrictTests, pipeline.ExtraUnderspecified,
			pipeline.ExtraGenerated, pipeline.ExtraHints, pipeline.ExtraCommitMessages:
			continue
		}
		out = append(out, f)
	}
	return out
}
