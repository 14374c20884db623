package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"curate/app"
	"curate/pipeline/sanitize"
	"curate/pipeline/stats"
)

func newFunnelCmd(env *Env) *cobra.Command {
	var repo, filter string
	var asJSON, timing bool
	cmd := &cobra.Command{
		Use:   "funnel",
		Short: "Yield of task construction per repo: mined → filter → built → NOP 0 → Oracle 1 → FAIL_TO_PASS → valid, and why tasks stopped",
		Example: `  curate funnel
  curate funnel --repo acme/calc --json
  curate funnel --filter 'language=go'
  curate funnel --timing`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			ws, err := env.Workspace(ctx)
			if err != nil {
				return err
			}
			tasks, err := app.FilterTasks(ctx, ws, filter) // every task when no filter
			if err != nil {
				return err
			}
			runs, err := ws.Store.Runs(ctx, "")
			if err != nil {
				return err
			}
			f := stats.ComputeFunnel(tasks, runs, repo)
			if err := app.FunnelEnvChecks(ws, f); err != nil {
				return err
			}
			if timing {
				if f.Timing, err = app.FunnelTiming(ctx, ws, tasks, runs, repo); err != nil {
					return err
				}
			}
			if asJSON {
				return writeJSON(env.Out, f)
			}
			if len(f.Repos) == 0 {
				if repo != "" {
					return fmt.Errorf("no mined task of repo %q in this workspace (see `curate list --filter benchmark=mined`)", repo)
				}
				fmt.Fprintln(env.Out, "No mined tasks yet: run `curate mine git PATH` first.")
				return nil
			}
			if timing {
				printTiming(env.Out, f.Timing)
				return nil
			}
			for i, r := range f.Repos {
				if i > 0 {
					fmt.Fprintln(env.Out)
				}
				printFunnel(env.Out, &r)
			}
			if len(f.Repos) > 1 {
				fmt.Fprintln(env.Out)
				printFunnel(env.Out, &f.Total)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&repo, "repo", "", "only this repository (owner/name)")
	cmd.Flags().StringVarP(&filter, "filter", "f", "", "only the tasks matching a filter expression")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the funnel as JSON")
	cmd.Flags().BoolVar(&timing, "timing", false, "print the machine time (wall and CPU seconds) of each phase per repository and language, and per valid task (with --json: the funnel's \"timing\")")
	return cmd
}

func printFunnel(w io.Writer, f *stats.RepoFunnel) {
	fmt.Fprintln(w, sanitize.Line(f.Repo))
	printSteps(w, f)
	examples := func(r stats.ClassRow) string {
		if len(r.Examples) == 0 {
			return ""
		}
		return "  e.g. " + sanitize.Line(strings.Join(r.Examples, ", "))
	}
	row := func(indent string, r stats.ClassRow) {
		fmt.Fprintf(w, "%s%-*s %5d%s\n", indent, 22-len(indent), sanitize.Line(r.Class), r.Count, examples(r))
	}
	row("  ", f.NoFailToPass)
	if f.Unbuilt > 0 {
		fmt.Fprintf(w, "  %-20s %5d  (passed the filter, never built: curate build --candidates)\n", "not built yet", f.Unbuilt)
	}
	if f.Validating > 0 {
		fmt.Fprintf(w, "  %-20s %5d  (runs in flight; each task is judged as its runs settle it)\n", "validating", f.Validating)
	}
	if f.NotValidated > 0 {
		fmt.Fprintf(w, "  %-20s %5d  (built, runs do not settle them: curate validate --mode nop,oracle,gold)\n", "not validated", f.NotValidated)
	}
	if len(f.Failures) > 0 {
		fmt.Fprintln(w, "  failures by class")
		for _, r := range f.Failures {
			row("    ", r)
		}
	}
	if len(f.NotBuilt) > 0 {
		fmt.Fprintln(w, "  not built")
		for _, r := range f.NotBuilt {
			fmt.Fprintf(w, "    %5d  %s%s\n", r.Count, sanitize.Line(clipText(r.Class, 70)), examples(r))
		}
	}
}

// printSteps prints a funnel's steps with the drop at each.
func printSteps(w io.Writer, f *stats.RepoFunnel) {
	prev := -1
	for _, s := range f.Steps() {
		drop := ""
		if prev >= 0 && s.Count < prev {
			drop = fmt.Sprintf("  (-%d)", prev-s.Count)
		}
		fmt.Fprintf(w, "  %-20s %5d%s\n", s.Name, s.Count, drop)
		prev = s.Count
		if s.Name == "passed the filter" && f.EnvCheck != "" {
			fmt.Fprintf(w, "  %-20s %s\n", "env check", sanitize.Line(f.EnvCheck))
		}
		if s.Name == "built" && f.Snapshot > 0 {
			fmt.Fprintf(w, "    %-18s %5d\n", "at the snapshot", f.Snapshot)
		}
	}
}
