package cli

import (
	"fmt"
	"path/filepath"

	"github.com/spf13/cobra"

	"curate/app"
	"curate/workspace"
)

func newInitCmd(env *Env) *cobra.Command {
	var reindex bool
	cmd := &cobra.Command{
		Use:   "init [DIR]",
		Short: "Create a workspace (curate.toml, tasks/, .curate/) in DIR (default: here)",
		Long: `Create a workspace (curate.toml, tasks/, .curate/) in DIR (default: here).

With --reindex, DIR is an existing workspace whose index (.curate/curate.db)
curate cannot read (empty, not SQLite, another program's file): the file is
moved aside (curate.db.unreadable-TIME) and a new index is built from the
task dirs in tasks/, as ` + "`curate import harbor tasks --in-place`" + ` would. Labels,
runs and selections lived only in the old index.`,
		Example: "  curate init ~/bench/my-benchmark\n  curate init --reindex ~/bench/my-benchmark",
		Args:    cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			dir := "."
			if len(args) == 1 {
				dir = args[0]
			}
			if reindex {
				return runReindex(cmd, env, dir)
			}
			root, err := workspace.Init(dir)
			if err != nil {
				return err
			}
			fmt.Fprintf(env.Out, "Created workspace %s\nNext: curate import harbor PATH, or curate mine git PATH\n", root)
			return nil
		},
	}
	cmd.Flags().BoolVar(&reindex, "reindex", false, "rebuild an unreadable index of the workspace DIR from its tasks/")
	return cmd
}

// runReindex sets the unreadable index aside and imports tasks/ in place.
func runReindex(cmd *cobra.Command, env *Env, dir string) error {
	ctx := cmd.Context()
	aside, err := workspace.SetAsideIndex(ctx, dir)
	if err != nil {
		return err
	}
	fmt.Fprintf(env.Out, "Moved the unreadable index to %s\n", aside)
	ws, err := workspace.Open(ctx, filepath.Dir(filepath.Dir(aside)))
	if err != nil {
		return err
	}
	defer ws.Close()
	sum, err := app.ImportHarbor(ctx, ws, []string{ws.TasksPath()}, app.ImportOptions{InPlace: true})
	if err != nil {
		return err
	}
	fmt.Fprintf(env.Out, "Rebuilt the index from %s: %d tasks, %d failed\n", ws.TasksPath(), len(sum.Imported)+len(sum.Updated)+len(sum.Unchanged), len(sum.Failed))
	for _, f := range sum.Failed {
		fmt.Fprintf(env.Out, "FAILED %s / %s\n", f.Source, f.Reason)
	}
	return nil
}
