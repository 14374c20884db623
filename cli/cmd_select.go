package cli

import (
	"context"
	"fmt"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"curate/app"
	"curate/pipeline"
	"curate/pipeline/sanitize"
	"curate/pipeline/selection"
	"curate/pipeline/stats"
)

// selectOutput is `select --json`: the solver's verdict and the snapshot.
type selectOutput struct {
	Name string `json:"name"`
	*selection.Result
	Selected   int                     `json:"selected"`
	Benchmarks []stats.BenchmarkRow    `json:"benchmarks"`
	Tasks      []pipeline.SelectedTask `json:"tasks"`
}

func newSelectCmd(env *Env) *cobra.Command {
	var budget int
	var name, alias, filter string
	var quotas []string
	var asJSON, allowInfeasible, dryRun, allowEmpty bool
	cmd := &cobra.Command{
		Use:   "select",
		Short: "Choose a set of tasks under the profile's strategies, the budget and quotas, and save it as a named snapshot",
		Example: `  curate select --selection base      # the profile's targets
  curate select --budget 80 --selection small
  curate select --quota language=rust:min=12 --quota 'sdlc_phase=Documentation:max=3'
  curate select --json | jq .violations
  curate select --quota language=java:min=500 --allow-infeasible   # save it anyway, exit 0
  curate select --budget 4 --selection four --dry-run   # what would be saved; nothing is
  curate select --filter 'source=git' --budget 2 --selection mined   # choose among the matching tasks only
  curate select diff base small
  curate select list`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			ws, err := env.Workspace(ctx)
			if err != nil {
				return err
			}
			if cmd.Flags().Changed("name") {
				if cmd.Flags().Changed("selection") {
					return fmt.Errorf("--name and --selection are the same flag; give one")
				}
				name = alias
			}
			if filter != "" {
				ids, err := filterIDs(ctx, ws, filter)
				if err != nil {
					return err
				}
				if len(ids) == 0 {
					return emptyMatch(env, filter, "nothing to select from", allowEmpty)
				}
			}
			opt := app.SelectOptions{Name: name, AllowInfeasible: allowInfeasible, DryRun: dryRun, Filter: filter}
			if cmd.Flags().Changed("budget") {
				if budget < 1 {
					return fmt.Errorf("--budget %d: must be at least 1", budget)
				}
				opt.Budget = &budget
			}
			for _, qs := range quotas {
				q, err := selection.ParseQuota(qs)
				if err != nil {
					return fmt.Errorf("--quota: %w", err)
				}
				opt.Quotas = append(opt.Quotas, q)
			}
			done, err := app.Select(ctx, ws, opt)
			if err != nil {
				return err
			}
			res, sel, st := done.Result, done.Selection, done.Stats
			name := sel.Name
			if asJSON {
				err = writeJSON(env.Out, selectOutput{Name: name, Result: res, Selected: len(res.Picks), Benchmarks: st.Benchmarks, Tasks: sel.Tasks})
			} else {
				printSolve(env, name, res, st)
			}
			if err != nil || done.Saved {
				return err
			}
			if dryRun {
				if !asJSON {
					fmt.Fprintf(env.Out, "dry run: nothing saved; without --dry-run %s\n", dryRunVerdict(ctx, env, name, len(done.Shortfalls) == 0 || allowInfeasible))
				}
				return nil
			}
			return exitError{code: 2, msg: "selection " + sanitize.Line(name) + " is infeasible and was not saved (--allow-infeasible saves it):\n  " +
				strings.Join(done.Shortfalls, "\n  ")}
		},
	}
	cmd.Flags().IntVar(&budget, "budget", 0, "total number of tasks (default: the profile's budget or the sum of its takes)")
	cmd.Flags().StringArrayVar(&quotas, "quota", nil, "extra quota DIMENSION=VALUE:min=N,max=N,target=N,min_share=F,max_share=F (repeatable)")
	cmd.Flags().StringVar(&name, "selection", "", "snapshot name (default: sel-<UTC time>)")
	cmd.Flags().StringVar(&alias, "name", "", "snapshot name (an alias of --selection)")
	cmd.Flags().StringVarP(&filter, "filter", "f", "", "choose only among the tasks matching a filter expression (e.g. 'status=valid')")
	addAllowEmpty(cmd, &allowEmpty)
	cmd.Flags().BoolVar(&dryRun, "dry-run", false, "solve and print what would be saved; save nothing")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the result as JSON")
	cmd.Flags().BoolVar(&allowInfeasible, "allow-infeasible", false, "save and exit 0 even when a quota or a benchmark's take cannot be met")
	cmd.AddCommand(newSelectDiffCmd(env), newSelectListCmd(env), newSelectRmCmd(env), newSelectRenameCmd(env))
	return cmd
}

func printSolve(env *Env, name string, res *selection.Result, st *stats.Stats) {
	fmt.Fprintf(env.Out, "Selection %s: %d of %d tasks (budget %d)\n", sanitize.Line(name), len(res.Picks), st.TotalAvailable, res.Budget)
	if res.Feasible {
		fmt.Fprintln(env.Out, "Quotas: every quota met") // benchmark takes are judged apart (Shortfall lines)
	} else {
		fmt.Fprintln(env.Out, "Infeasible:")
		for _, v := range res.Violations {
			fmt.Fprintln(env.Out, "  "+sanitize.Line(v.Message))
		}
	}
	for _, q := range res.Quotas {
		mark := "ok "
		if !q.Met {
			mark = "NOT"
		}
		bound := fmt.Sprintf("min %d", q.Min)
		if q.Max >= 0 {
			bound += fmt.Sprintf(", max %d", q.Max)
		}
		fmt.Fprintf(env.Out, "  [%s] %s: have %d (%s; %d eligible)\n", mark, sanitize.Line(q.Label), q.Have, bound, q.Available)
	}
	fmt.Fprintf(env.Out, "Total score %.4f, upper bound %.4f, gap %.4f\n", res.TotalScore, res.UpperBound, res.Gap)
	for _, s := range res.Shortfalls {
		fmt.Fprintf(env.Out, "Shortfall: %s has %d tasks, target %d (short by %d)\n", sanitize.Line(s.Benchmark), s.Available, s.Take, s.Short)
	}
	tw := tabwriter.NewWriter(env.Out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "BENCHMARK\tAVAILABLE\tSELECTED\tSTRATEGY")
	for _, b := range st.Benchmarks {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%s\n", sanitize.Line(b.Benchmark), b.Available, b.Selected, sanitize.Line(b.Strategy))
	}
	tw.Flush()
}

func newSelectDiffCmd(env *Env) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:     "diff A B",
		Short:   "Show which tasks entered and left between two saved selections",
		Example: "  curate select diff base small\n  curate select diff base small --json",
		Args:    cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			ws, err := env.Workspace(cmd.Context())
			if err != nil {
				return err
			}
			a, err := ws.Store.Selection(cmd.Context(), args[0])
			if err != nil {
				return err
			}
			b, err := ws.Store.Selection(cmd.Context(), args[1])
			if err != nil {
				return err
			}
			d := app.DiffSelections(a, b)
			if asJSON {
				return writeJSON(env.Out, d)
			}
			fmt.Fprintf(env.Out, "%s (%d) -> %s (%d): %d entered, %d left, %d kept\n",
				sanitize.Line(a.Name), len(a.Tasks), sanitize.Line(b.Name), len(b.Tasks), len(d.Entered), len(d.Left), d.Kept)
			for _, e := range d.Entered {
				fmt.Fprintf(env.Out, "+ %s  %s\n", sanitize.Line(e.TaskID), sanitize.Line(e.Rationale))
			}
			for _, e := range d.Left {
				fmt.Fprintf(env.Out, "- %s  %s\n", sanitize.Line(e.TaskID), sanitize.Line(e.Rationale))
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print {entered, left, kept} as JSON")
	return cmd
}

func newSelectListCmd(env *Env) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:     "list",
		Short:   "List saved selections, newest first",
		Example: "  curate select list\n  curate select list --json",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			ws, err := env.Workspace(cmd.Context())
			if err != nil {
				return err
			}
			sels, err := app.LoadSelections(cmd.Context(), ws)
			if err != nil {
				return err
			}
			type row struct {
				Name      string    `json:"name"`
				CreatedAt time.Time `json:"created_at"`
				Source    string    `json:"source"`
				Tasks     int       `json:"tasks"`
			}
			rows := []row{}
			for _, s := range sels {
				rows = append(rows, row{s.Name, s.CreatedAt, s.Source, len(s.Tasks)})
			}
			if asJSON {
				return writeJSON(env.Out, rows)
			}
			if len(rows) == 0 {
				fmt.Fprintln(env.Out, "No selections yet: run `curate select`.")
				return nil
			}
			tw := tabwriter.NewWriter(env.Out, 0, 0, 2, ' ', 0)
			fmt.Fprintln(tw, "NAME\tCREATED\tSOURCE\tTASKS")
			for _, r := range rows {
				fmt.Fprintf(tw, "%s\t%s\t%s\t%d\n", sanitize.Line(r.Name), r.CreatedAt.Format(time.RFC3339), sanitize.Line(r.Source), r.Tasks)
			}
			return tw.Flush()
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print a JSON array")
	return cmd
}

// dryRunVerdict says what `select` would have done with the solve.
func dryRunVerdict(ctx context.Context, env *Env, name string, saves bool) string {
	if !saves {
		return "it would not be saved (infeasible; --allow-infeasible saves it)"
	}
	ws, err := env.Workspace(ctx)
	if err == nil {
		if _, err := ws.Store.Selection(ctx, name); err == nil {
			return "it would replace the saved selection " + sanitize.Line(name)
		}
	}
	return "it would be saved as " + sanitize.Line(name)
}

func newSelectRmCmd(env *Env) *cobra.Command {
	return &cobra.Command{
		Use:               "rm NAME...",
		Short:             "Remove saved selections",
		Example:           "  curate select rm small-v2",
		Args:              cobra.MinimumNArgs(1),
		ValidArgsFunction: completeSelections(env),
		RunE: func(cmd *cobra.Command, args []string) error {
			ws, err := env.Workspace(cmd.Context())
			if err != nil {
				return err
			}
			for _, n := range args {
				if err := ws.Store.DeleteSelection(cmd.Context(), n); err != nil {
					return err
				}
				fmt.Fprintf(env.Out, "removed selection %s\n", sanitize.Line(n))
			}
			return nil
		},
	}
}

func newSelectRenameCmd(env *Env) *cobra.Command {
	return &cobra.Command{
		Use:               "rename OLD NEW",
		Short:             "Rename a saved selection",
		Example:           "  curate select rename small small-v2",
		Args:              cobra.ExactArgs(2),
		ValidArgsFunction: completeSelections(env),
		RunE: func(cmd *cobra.Command, args []string) error {
			ws, err := env.Workspace(cmd.Context())
			if err != nil {
				return err
			}
			if err := ws.Store.RenameSelection(cmd.Context(), args[0], args[1]); err != nil {
				return err
			}
			fmt.Fprintf(env.Out, "renamed selection %s to %s\n", sanitize.Line(args[0]), sanitize.Line(args[1]))
			return nil
		},
	}
}
