package export

import (
	"bufio"
	"fmt"
	"io"
	"sort"
	"strings"

	"curate/pipeline"
	"curate/pipeline/sanitize"
	"curate/pipeline/stats"
)

// writeReport writes the methodology Markdown that seed 000 is an instance
// of. Every number comes from in.Stats, the tables `curate stats` prints.
func writeReport(w io.Writer, in *Input) error {
	bw := bufio.NewWriter(w)
	st := in.Stats
	p := func(format string, args ...any) { fmt.Fprintf(bw, format, args...) }

	p("# Task Selection Methodology\n\n")
	p("## Overview\n\n%s\n\n", overview(in))
	if in.Solve != nil {
		s := in.Solve
		p("Total MCP benefit score **%.4f** against an upper bound of %.4f (gap %.4f).", s.TotalScore, s.UpperBound, s.Gap)
		if s.Feasible {
			p(" Every quota was met.\n\n")
		} else {
			p(" Quotas not met:\n\n")
			for _, v := range s.Violations {
				p("- %s\n", cell(v))
			}
			p("\n")
		}
		for _, sf := range s.Shortfalls {
			p("- Shortfall: %s has %d of the %d tasks its target asks for (short by %d).\n", cell(sf.Benchmark), sf.Available, sf.Take, sf.Short)
		}
		if len(s.Shortfalls) > 0 {
			p("\n")
		}
	}

	p("## SDLC Phase Coverage\n\n| SDLC Phase | Tasks | Benchmarks |\n|------------|-------|------------|\n")
	for _, r := range st.Phases {
		p("| %s | %d | %s |\n", cell(r.Phase), r.Tasks, cell(strings.Join(r.Benchmarks, ", ")))
	}

	p("\n## Benchmark Coverage\n\n| Benchmark | Available | Selected | Strategy |\n|-----------|-----------|----------|----------|\n")
	for _, r := range st.Benchmarks {
		strategy := r.Strategy
		if strategy == "" {
			strategy = "No rule (not targeted)"
		}
		p("| %s | %d | %d | %s |\n", cell(r.Benchmark), r.Available, r.Selected, cell(strategy))
	}

	p("\n## Language Distribution\n\n| Language | Tasks |\n|----------|-------|\n")
	for _, r := range st.Languages {
		p("| %s | %d |\n", cell(r.Name), r.Count)
	}

	p("\n## MCP Benefit Scoring\n\n")
	if len(in.Weights) > 0 {
		p("Each task receives an MCP benefit score in [0.0, 1.0] computed as:\n\n```\n")
		for i, wt := range in.Weights {
			lead := "score = "
			if i > 0 {
				lead = "      + "
			}
			p("%s%.2f * %s\n", lead, wt.Value, wt.Name)
		}
		p("```\n\n")
	} else {
		p("Each task carries an MCP benefit score in [0.0, 1.0] from the profile's [score] rules (weights not given to this export).\n\n")
	}
	p("**Average MCP benefit score:** %.4f\n\n", st.AvgScore)
	p("### Component Definitions\n\n")
	p("- **context_complexity**: How large or complex the codebase context is. Normalized: 1M+ tokens = 1.0\n")
	p("- **cross_file_deps**: How many files must be understood or modified. Normalized: 20+ files = 1.0\n")
	p("- **semantic_search_potential**: How much an agent would benefit from semantic code search. Scaled by codebase size, number of repos, and code density\n")
	p("- **task_category_weight**: Per-category MCP affinity%s\n", categoryExamples(in.CategoryWeights))

	p("\n### Score Variation by Benchmark\n\n")
	rows := append([]stats.BenchmarkRow(nil), st.Benchmarks...)
	sort.SliceStable(rows, func(i, j int) bool { return rows[i].StdDev > rows[j].StdDev })
	var flat []string
	for _, r := range rows {
		if r.Selected >= 5 && r.StdDev <= 0.05 {
			flat = append(flat, r.Benchmark)
		}
	}
	if len(flat) == 0 {
		p("All benchmarks with 5+ tasks achieve standard deviation > 0.05, ensuring meaningful discrimination:\n\n")
	} else {
		p("Benchmarks with 5+ tasks and a standard deviation of at most 0.05 (weak discrimination): %s.\n\n", cell(strings.Join(flat, ", ")))
	}
	p("| Benchmark | Tasks | Score Range | Std Dev |\n|-----------|-------|-------------|---------|\n")
	for _, r := range rows {
		if r.Selected == 0 {
			continue
		}
		p("| %s | %d | %.3f–%.3f | %.3f |\n", cell(r.Benchmark), r.Selected, r.ScoreMin, r.ScoreMax, r.StdDev)
	}

	p("\n## Per-Benchmark Selection Strategies\n\n")
	var small []string
	for _, name := range in.Config.BenchmarkNames() {
		b := in.Config.Benchmarks[name]
		n := selectedIn(st, name)
		if b.Strategy == "all" {
			small = append(small, fmt.Sprintf("%s (%d)", name, n))
			continue
		}
		heading := b.Title
		if heading == "" {
			heading = name
		}
		p("### %s (%d tasks)\n", cell(heading), n)
		text := b.Notes
		if text == "" {
			text = b.Description
		}
		p("%s\n\n", sanitize.Text(text))
	}
	if len(small) > 0 {
		p("### Small Benchmarks (all selected)\n%s -- all tasks selected due to small size.\n\n", strings.Join(small, ", "))
	}
	pinned := 0
	for _, it := range in.Selected {
		if it.Task.Labels.Pinned {
			pinned++
		}
	}
	if pinned > 0 {
		p("### Pinned by the curator\n%d tasks were pinned and are always selected.\n\n", pinned)
	}
	if len(in.Config.Quotas) > 0 {
		p("### Quotas\n")
		for _, q := range in.Config.Quotas {
			p("- %s\n", cell(quotaText(q)))
		}
		p("\n")
	}

	p("## Difficulty Calibration Methodology\n\n")
	p("Difficulty labels were calibrated per benchmark using objective metrics; a curator's label overrides the calibrated value.\n\n")
	p("### Per-Benchmark Rules\n\n| Benchmark | Rule | Labels |\n|-----------|------|--------|\n")
	for _, r := range difficultyRules(in) {
		p("| %s | %s | %s |\n", cell(r[0]), cell(r[1]), cell(r[2]))
	}
	p("\n### Difficulty Distribution\n\n| Difficulty | Count | %% |\n|------------|-------|---|\n")
	total := 0
	for _, r := range st.Difficulties {
		p("| %s | %d | %.1f%% |\n", cell(r.Name), r.Count, r.Percent)
		total += r.Count
	}
	pct := 0.0
	if total > 0 {
		pct = 100
	}
	p("| **Total** | **%d** | **%.0f%%** |\n", total, pct)
	writeFunnel(p, in.Funnel)
	writeReviewSection(p, in)
	writeStatementSection(p, in)
	return bw.Flush()
}

// writeFunnel is the "Task construction" section: how many mined PRs
// became valid tasks, per repository, and why the others did not.
func writeFunnel(p func(string, ...any), f *stats.Funnel) {
	if f == nil || len(f.Repos) == 0 {
		return
	}
	p("\n## Task construction\n\n")
	p("Tasks were mined from merged pull requests, built into Harbor task dirs and validated in Docker: ")
	p("NOP (the tests on the buggy state) must give reward 0 with the suite running, Oracle (the reference fix) reward 1, ")
	p("and gold grading at least one FAIL_TO_PASS test. Each column counts the tasks that passed it and every column before it.\n\n")
	p("| Repository | Mined | Passed filter | Built | NOP 0 | Oracle 1 | ≥1 FAIL_TO_PASS | Valid | no_fail_to_pass |\n")
	p("|------------|-------|---------------|-------|-------|----------|-----------------|-------|-----------------|\n")
	rows := f.Repos
	if len(rows) > 1 {
		rows = append(rows[:len(rows):len(rows)], f.Total)
	}
	for _, r := range rows {
		name := cell(r.Repo)
		if r.Repo == "total" {
			name = "**Total**"
		}
		p("| %s | %d | %d | %d | %d | %d | %d | %d | %d |\n", name, r.Mined, r.PassedFilter, r.Built, r.Nop0, r.Oracle1, r.FailToPass, r.Valid, r.NoFailToPass.Count)
	}
	p("\nno_fail_to_pass is a true negative, not a failure: the suite ran on both states and none of the PR's tests failed before the fix.\n")
	if len(f.Total.Failures) == 0 && f.Total.NotValidated == 0 {
		return
	}
	p("\n### Why tasks were invalid\n\n| Class | Tasks | Examples |\n|-------|-------|----------|\n")
	for _, c := range f.Total.Failures {
		p("| %s | %d | %s |\n", cell(c.Class), c.Count, cell(strings.Join(c.Examples, ", ")))
	}
	if f.Total.NotValidated > 0 {
		p("| not validated | %d | |\n", f.Total.NotValidated)
	}
}

// overview is the one-sentence summary the report and manifest share.
func overview(in *Input) string {
	st := in.Stats
	return fmt.Sprintf("Selected **%d tasks** from %d available across %d benchmarks, stratified by SDLC phase with MCP benefit scoring.",
		st.TotalSelected, st.TotalAvailable, st.BenchmarkCount)
}

func selectedIn(st *stats.Stats, bench string) int {
	for _, r := range st.Benchmarks {
		if r.Benchmark == bench {
			return r.Selected
		}
	}
	return 0
}

func categoryExamples(m map[string]float64) string {
	if len(m) == 0 {
		return ""
	}
	type kv struct {
		k string
		v float64
	}
	var xs []kv
	for k, v := range m {
		xs = append(xs, kv{k, v})
	}
	sort.Slice(xs, func(i, j int) bool {
		if xs[i].v != xs[j].v {
			return xs[i].v > xs[j].v
		}
		return xs[i].k < xs[j].k
	})
	var parts []string
	for i := 0; i < len(xs) && i < 3; i++ {
		parts = append(parts, fmt.Sprintf("%s=%g", xs[i].k, xs[i].v))
	}
	return " (" + strings.Join(parts, ", ") + ", etc.)"
}

// difficultyRules lists, per benchmark, the calibration rules that fired on
// the selected tasks and the labels they gave ("1 medium, 4 hard").
func difficultyRules(in *Input) [][3]string {
	type acc struct {
		rules  map[string]bool
		labels map[pipeline.Difficulty]int
	}
	by := map[string]*acc{}
	for _, it := range in.Selected {
		t := it.Task
		a := by[t.Benchmark]
		if a == nil {
			a = &acc{rules: map[string]bool{}, labels: map[pipeline.Difficulty]int{}}
			by[t.Benchmark] = a
		}
		rule := t.DifficultyRule
		switch {
		case t.Labels.Difficulty != "":
			rule = "Manual assessment (curator label)"
		case t.DifficultyCalibrated == "" && t.DifficultyImported != "":
			rule = "As imported"
		case rule == "":
			rule = "Not calibrated"
		}
		a.rules[rule] = true
		a.labels[t.EffectiveDifficulty()]++
	}
	var out [][3]string
	for _, r := range in.Stats.Benchmarks {
		a := by[r.Benchmark]
		if a == nil {
			continue
		}
		var rules []string
		for k := range a.rules {
			rules = append(rules, k)
		}
		sort.Strings(rules)
		var labels []string
		for _, d := range append(append([]pipeline.Difficulty(nil), pipeline.Difficulties...), "") {
			if n := a.labels[d]; n > 0 {
				name := string(d)
				if name == "" {
					name = "unknown"
				}
				labels = append(labels, fmt.Sprintf("%d %s", n, name))
			}
		}
		out = append(out, [3]string{r.Benchmark, strings.Join(rules, "; "), strings.Join(labels, ", ")})
	}
	return out
}

func quotaText(q pipeline.Quota) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s = %s:", q.Dimension, q.Value)
	if q.Target != nil {
		fmt.Fprintf(&b, " target %d", *q.Target)
	}
	if q.Min != nil {
		fmt.Fprintf(&b, " at least %d", *q.Min)
	}
	if q.Max != nil {
		fmt.Fprintf(&b, " at most %d", *q.Max)
	}
	if q.MinShare != nil {
		fmt.Fprintf(&b, " at least %.0f%% of the budget", *q.MinShare*100)
	}
	if q.MaxShare != nil {
		fmt.Fprintf(&b, " at most %.0f%% of the budget", *q.MaxShare*100)
	}
	return b.String()
}

// cell makes untrusted text safe for one Markdown table cell.
func cell(s string) string {
	s = sanitize.Line(s)
	s = strings.ReplaceAll(s, "|", `\|`)
	return strings.ReplaceAll(s, "\n", " ")
}
