package cli

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"curate/app"
	"curate/app/kubeengine"
	"curate/pipeline/sanitize"
	"curate/workspace"
)

func newEnvPushCmd(env *Env) *cobra.Command {
	var all, asJSON bool
	cmd := &cobra.Command{
		Use:   "push [ID... | --all]",
		Short: "Build tasks' environment images and push them to [kubernetes] registry by digest (bytes sent)",
		Long: `Push does ahead of time what validate --engine kubernetes does before a
run: it builds each task's environment image on the local Docker engine when
missing and pushes it to the registry of curate.toml [kubernetes]. Layers the
registry already has are not sent again; the digest reference printed is what
pods run.`,
		Example: `  curate env push --all
  curate env push django__django-1234 --json`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if !all && len(args) == 0 {
				return fmt.Errorf("name tasks to push: IDs or --all")
			}
			ctx := cmd.Context()
			ws, err := env.Workspace(ctx)
			if err != nil {
				return err
			}
			tasks, err := app.ResolveTasks(ctx, ws, args, all, "")
			if err != nil {
				return err
			}
			pushed, err := kubeengine.Push(ctx, ws, tasks, env.Err)
			if asJSON {
				if jerr := writeJSON(env.Out, pushed); jerr != nil {
					return jerr
				}
			} else {
				var total int64
				for _, p := range pushed {
					fmt.Fprintf(env.Out, "%-32s %s  %d bytes sent\n", sanitize.Line(p.TaskID), p.Ref, p.Bytes)
					total += p.Bytes
				}
				fmt.Fprintf(env.Out, "%d image(s) pushed, %d bytes sent\n", len(pushed), total)
			}
			return err
		},
	}
	cmd.Flags().BoolVar(&all, "all", false, "every task that has a task dir")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print each task's image and bytes sent as JSON")
	return cmd
}

// kubeCheck checks the [kubernetes] cluster (`curate env check --engine
// kubernetes`), printing a line per check unless asJSON; a failed check
// is an exit error (printed as JSON first when asJSON).
func kubeCheck(ctx context.Context, env *Env, ws *workspace.Workspace, asJSON bool) ([]kubeengine.CheckLine, error) {
	lines, err := kubeengine.Check(ctx, ws)
	if err != nil {
		return nil, err
	}
	bad := 0
	for _, l := range lines {
		mark := "ok  "
		if !l.OK {
			mark, bad = "FAIL", bad+1
		}
		if !asJSON {
			fmt.Fprintf(env.Out, "%s %-15s %s\n", mark, l.What, sanitize.Line(l.Note))
		}
	}
	if bad > 0 {
		if asJSON {
			if err := writeJSON(env.Out, lines); err != nil {
				return nil, err
			}
		}
		return nil, exitError{code: 1, msg: fmt.Sprintf("%d kubernetes check(s) failed", bad)}
	}
	return lines, nil
}
