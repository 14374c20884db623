package cli

import (
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"curate/app"
	"curate/pipeline"
	"curate/pipeline/sanitize"
)

func newShowCmd(env *Env) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:     "show ID",
		Short:   "Show one task: metadata, score breakdown, difficulty, labels, runs and history",
		Example: "  curate show acme__calc-1\n  curate show big-code-kub --json   # a unique id prefix is enough",
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			ws, err := env.Workspace(ctx)
			if err != nil {
				return err
			}
			id, err := ws.Store.ResolveID(ctx, args[0])
			if err != nil {
				return err
			}
			t, err := ws.Store.Task(ctx, id)
			if err != nil {
				return err
			}
			runs, err := ws.Store.Runs(ctx, id)
			if err != nil {
				return err
			}
			events, err := ws.Store.History(ctx, id, 10)
			if err != nil {
				return err
			}
			if asJSON {
				return writeJSON(env.Out, toShowJSON(t, runs, events))
			}
			scoreName := "mcp benefit score" // CodeContextBench's, the ccb profile's
			if p, err := app.LoadProfile(ws); err == nil && p.ScoreKey != "" {
				scoreName = strings.ReplaceAll(p.ScoreKey, "_", " ")
			}
			printTask(env, t, runs, events, scoreName)
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the task as JSON")
	return cmd
}

func printTask(env *Env, t *pipeline.Task, runs []*pipeline.Run, events []pipeline.Event, scoreName string) {
	w := env.Out
	line := func(k, v string) {
		if v != "" {
			fmt.Fprintf(w, "%-22s %s\n", k, sanitize.Line(v))
		}
	}
	fmt.Fprintf(w, "%s\n%s\n", sanitize.Line(t.ID), strings.Repeat("=", min(len(t.ID), 78)))
	line("title", t.Title)
	line("benchmark", t.Benchmark)
	line("source", strings.TrimSpace(t.Source+" "+t.SourcePath))
	line("repo", t.Repo)
	if t.PR > 0 {
		line("pull request", fmt.Sprintf("#%d  base %s  head %s", t.PR, short(t.BaseCommit), short(t.HeadCommit)))
	}
	line("language", t.Language)
	line("built at", app.TaskStrategy(t))
	line("category", t.EffectiveCategory())
	phase := t.Phase()
	if t.Labels.Phase != "" {
		phase += "  (curator; computed: " + t.SDLCPhase + ")"
	} else if t.PhaseRule != "" {
		phase += "  (" + t.PhaseRule + ")"
	}
	line("sdlc phase", phase)
	line("status", string(t.Status))
	for _, r := range t.Reasons {
		line("  reason", r)
	}
	printFailure(w, "%-22s %s\n", t.Failure)
	decided := map[string]bool{} // each decision is also a note: shown once
	for _, d := range app.ToolchainDecisions(t) {
		line("  toolchain", d.Tool+" "+d.Version+" from "+d.Source)
		decided[d.String()] = true
	}
	for _, n := range app.EnvironmentNotes(t) {
		if !decided[n] {
			line("  environment", n)
		}
	}
	from := pipeline.InstructionSource(t)
	if srcs := pipeline.ExtraStrings(t, pipeline.ExtraInstructionSources); len(srcs) > 1 {
		from = strings.Join(srcs, ", ")
	}
	line("instruction from", from)
	if flags := pipeline.StatementFlags(t); len(flags) > 0 {
		line("  statement flags", strings.Join(flags, ", "))
	}
	for _, d := range app.TaskInterface(t) {
		line("  interface", d.Signature)
	}
	for _, r := range app.TaskRequirements(t) {
		line("  requirement", r.Context+": "+r.Value)
	}
	if why := pipeline.ExtraStrings(t, pipeline.ExtraUnderspecified); len(why) > 0 {
		line("  underspecified", strings.Join(why, "; "))
	}
	for _, s := range app.TaskStrictTests(t) {
		line("  strict test", orDash(s.Test)+" checks "+strings.Join(quoteAll(s.Values), ", ")+" (not in the instruction)")
	}
	fmt.Fprintf(w, "%-22s %s  (label %q, calibrated %q, imported %q)\n", "difficulty", orDash(string(t.EffectiveDifficulty())),
		t.Labels.Difficulty, t.DifficultyCalibrated, t.DifficultyImported)
	line("  calibration rule", t.DifficultyRule)
	fmt.Fprintf(w, "%-22s %.4f\n", scoreName, t.Score)
	b := t.Breakdown
	comp := []struct {
		name string
		v    float64
		key  string
	}{{"context_complexity", b.ContextComplexity, "context_complexity"}, {"cross_file_deps", b.CrossFileDeps, "cross_file_deps"},
		{"semantic_search", b.SemanticSearchPotential, "semantic_search_potential"}, {"category_weight", b.TaskCategoryWeight, "task_category_weight"}}
	for _, c := range comp {
		fmt.Fprintf(w, "  %-20s %.3f  %s\n", c.name, c.v, sanitize.Line(b.Rules[c.key]))
	}
	if len(t.Features.Values) > 0 {
		keys := make([]string, 0, len(t.Features.Values))
		for k := range t.Features.Values {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		fmt.Fprintln(w, "features")
		for _, k := range keys {
			fmt.Fprintf(w, "  %-20s %-12g from %s\n", k, t.Features.Values[k], sanitize.Line(t.Features.Sources[k]))
		}
	}
	flags := []string{}
	if t.Labels.Pinned {
		flags = append(flags, "pinned")
	}
	if t.Labels.Excluded {
		flags = append(flags, "excluded ("+t.Labels.ExcludeReason+")")
	}
	line("flags", strings.Join(flags, ", "))
	line("note", t.Labels.Note)
	line("review", reviewLine(t.Labels))
	line("task dir", t.TaskDir)
	if t.Digest != "" {
		line("digest", "sha256:"+t.Digest) // as Harbor's dataset.toml writes it
	}
	printExtra(w, t)
	if len(runs) > 0 {
		fmt.Fprintln(w, "runs")
		for _, r := range runs {
			stale := ""
			if r.Stale(t.Digest) {
				stale = "  (stale: files changed since)"
			}
			class := ""
			if r.Failure != nil {
				class = "  " + r.Failure.Class
			}
			fmt.Fprintf(w, "  %-14s %-7s %-15s %s%s%s\n", r.ID, r.Mode, r.Outcome, r.StartedAt.Local().Format("2006-01-02 15:04"), class, stale)
		}
	}
	if len(events) > 0 {
		fmt.Fprintln(w, "history (newest first)")
		for _, e := range events {
			printEvent(env, e)
		}
	}
	if t.Body != "" {
		fmt.Fprintf(w, "\n%s\n", sanitize.Text(t.Body))
	}
}

// printExtra lists the keys a source had that curate does not model
// (task.toml's schema 1.2-1.4 keys, unknown keys), one line each.
func printExtra(w io.Writer, t *pipeline.Task) {
	fields := t.ExtraFields()
	if len(fields) == 0 {
		return
	}
	fmt.Fprintf(w, "source keys (%s)\n", orDash(t.Source))
	for _, f := range fields {
		text := f.Text
		if len(text) > 100 {
			text = text[:100] + "..."
		}
		fmt.Fprintf(w, "  %-30s %s\n", sanitize.Line(f.Key), sanitize.Line(text))
	}
}

func short(s string) string {
	if len(s) > 12 {
		return s[:12]
	}
	return s
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// reviewLine is the human review in one line, or "" when not reviewed.
func reviewLine(l pipeline.Labels) string {
	if !l.Reviewed() {
		return ""
	}
	s := fmt.Sprintf("%s: underspecified %s, false_negative %s, fix_time %s, by %s",
		l.ReviewState(), orDash(l.Underspecified), orDash(l.FalseNegative), orDash(l.FixTime), orDash(l.Reviewer))
	if l.ReviewComment != "" {
		s += " — " + l.ReviewComment
	}
	return s
}

// quoteAll quotes each value as Go would, so spaces and edges show.
func quoteAll(vs []string) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = strconv.Quote(v)
	}
	return out
}
