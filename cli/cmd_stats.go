package cli

import (
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"curate/app"
	"curate/pipeline/sanitize"
	"curate/pipeline/stats"
)

func newStatsCmd(env *Env) *cobra.Command {
	var name string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "stats",
		Short: "Print a selection's tables: SDLC phases, benchmarks, languages, score variation, difficulty",
		Example: `  curate stats                      # the newest saved selection
  curate stats --selection base --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			ws, err := env.Workspace(cmd.Context())
			if err != nil {
				return err
			}
			st, label, err := app.SelectionStats(cmd.Context(), ws, name)
			if err != nil {
				return err
			}
			if name == "" && strings.HasPrefix(label, "selection ") {
				label = selectionLine(strings.TrimPrefix(label, "selection "), true)
			}
			if asJSON {
				fmt.Fprintln(env.Err, label) // which selection, off the JSON
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
