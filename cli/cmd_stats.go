package cli

import (
	"context"
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"curate/app"
	"curate/pipeline"
	"curate/pipeline/sanitize"
	"curate/pipeline/selection"
	"curate/pipeline/stats"
	"curate/workspace"
)

func newStatsCmd(env *Env) *cobra.Command {
	var name string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "stats",
		Short: "Print a selection's tables: SDLC phases, benchmarks, languages, score variation, difficulty",
		Example: `  curate stats                      # the newest saved selection
  curate stats --selection small --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			ws, err := env.Workspace(cmd.Context())
			if err != nil {
				return err
			}
			st, label, err := selectionStats(cmd.Context(), ws, name)
			if err != nil {
				return err
			}
			if asJSON {
				return writeJSON(env.Out, st)
			}
			printStats(env, label, st)
			return nil
		},
	}
	cmd.Flags().StringVar(&name, "selection", "", "saved selection (default: the newest; the whole catalogue when none is saved)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the tables as JSON")
	return cmd
}

// selectionStats computes the tables for a saved selection (the newest when
// name is ""), or for every eligible task when no selection exists yet.
func selectionStats(ctx context.Context, ws *workspace.Workspace, name string) (*stats.Stats, string, error) {
	tasks, err := ws.Store.Tasks(ctx)
	if err != nil {
		return nil, "", err
	}
	sel, err := app.ResolveSelection(ctx, ws, name)
	if err != nil {
		return nil, "", err
	}
	if sel == nil {
		cfg, err := app.SelectionConfig(ws)
		if err != nil {
			return nil, "", err
		}
		var eligible []*pipeline.Task
		for _, t := range tasks {
			if selection.Eligible(t) {
				eligible = append(eligible, t)
			}
		}
		return stats.Compute(tasks, eligible, app.StatsOptions(cfg)), "catalogue (no selection saved: every eligible task)", nil
	}
	chosen, err := app.SelectedTasks(sel, tasks)
	if err != nil {
		return nil, "", err
	}
	cfg, err := app.SnapshotConfig(sel)
	if err != nil {
		return nil, "", err
	}
	return stats.Compute(tasks, chosen, app.StatsOptions(cfg)), "selection " + sel.Name, nil
}

func printStats(env *Env, label string, st *stats.Stats) {
	out := env.Out
	fmt.Fprintf(out, "%s: %d of %d tasks across %d benchmarks, average MCP benefit score %.4f\n\n",
		sanitize.Line(label), st.TotalSelected, st.TotalAvailable, st.BenchmarkCount, st.AvgScore)
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "SDLC PHASE\tTASKS\tBENCHMARKS")
	for _, r := range st.Phases {
		fmt.Fprintf(tw, "%s\t%d\t%s\n", sanitize.Line(r.Phase), r.Tasks, sanitize.Line(strings.Join(r.Benchmarks, ", ")))
	}
	tw.Flush()
	fmt.Fprintln(out)
	tw = tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "BENCHMARK\tAVAILABLE\tSELECTED\tSCORE RANGE\tSTD DEV\tSTRATEGY")
	for _, r := range st.Benchmarks {
		strategy := r.Strategy
		if strategy == "" {
			strategy = "(no rule)"
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%.3f–%.3f\t%.3f\t%s\n", sanitize.Line(r.Benchmark), r.Available, r.Selected, r.ScoreMin, r.ScoreMax, r.StdDev, sanitize.Line(strategy))
	}
	tw.Flush()
	fmt.Fprintln(out)
	tw = tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "LANGUAGE\tTASKS")
	for _, r := range st.Languages {
		fmt.Fprintf(tw, "%s\t%d\n", sanitize.Line(r.Name), r.Count)
	}
	tw.Flush()
	fmt.Fprintln(out)
	tw = tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "DIFFICULTY\tCOUNT\t%")
	for _, r := range st.Difficulties {
		fmt.Fprintf(tw, "%s\t%d\t%.1f%%\n", sanitize.Line(r.Name), r.Count, r.Percent)
	}
	tw.Flush()
}
