package cli

import (
	"fmt"
	"io"
	"strings"

	"curate/pipeline/sanitize"
	"curate/pipeline/stats"
)

// phaseLabels name the timed phases in the table.
var phaseLabels = map[string]string{"mine": "mine", "env_check": "env check", "repo_image": "repo image",
	"task_layer": "task layer", "runs": "runs", "total": "total"}

// printTiming prints `funnel --timing`: each repository's, each
// language's and the total machine time per phase and per valid task.
// "-" is unknown: nothing recorded, no CPU measured, or no valid task to
// divide by.
func printTiming(w io.Writer, t *stats.Timing) {
	fmt.Fprintln(w, "Machine time per phase: wall and CPU seconds, and per valid task (docs/validation.md)")
	partial := false
	section := func(title string, rows []stats.TimingRow) {
		fmt.Fprintf(w, "\n%s\n", title)
		for i := range rows {
			partial = printTimingRow(w, &rows[i]) || partial
		}
	}
	section("by repository", t.Repos)
	section("by language", t.Languages)
	section("all", []stats.TimingRow{t.Total})
	if partial {
		fmt.Fprintln(w, "\n* some of this phase's work had no CPU measure (another engine, or one whose cgroups curate cannot read): the CPU figure counts only the rest")
	}
}

// printTimingRow prints one row's table; it reports whether a CPU figure
// is partial.
func printTimingRow(w io.Writer, r *stats.TimingRow) (partial bool) {
	fmt.Fprintf(w, "  %s: %d valid\n", sanitize.Line(r.Name), r.Valid)
	fmt.Fprintf(w, "    %-12s %9s %9s %11s %11s\n", "phase", "wall s", "cpu s", "wall/valid", "cpu/valid")
	for _, p := range append(append([]stats.PhaseTiming(nil), r.Phases...), r.Total) {
		wall, cpu := "-", "-"
		if p.Pieces > 0 {
			wall = fmt.Sprintf("%.2f", p.WallS)
		}
		mark := ""
		if p.CPUKnown() {
			if p.CPUUnmeasured > 0 {
				mark, partial = "*", true
			}
			cpu = fmt.Sprintf("%.2f", p.CPUS) + mark
		}
		fmt.Fprintf(w, "    %-12s %9s %9s %11s %11s\n", phaseLabels[p.Phase], wall, cpu, perValid(p.WallPerValid, ""), perValid(p.CPUPerValid, mark))
	}
	return partial
}

func perValid(v *float64, mark string) string {
	if v == nil {
		return "-"
	}
	return strings.TrimSpace(fmt.Sprintf("%.2f", *v)) + mark
}
