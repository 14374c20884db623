package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"curate/app"
)

func newImportManifestCmd(env *Env) *cobra.Command {
	var opt importFlags
	cmd := &cobra.Command{
		Use:   "manifest FILE.json",
		Short: "Import a selection manifest (selected_benchmark_tasks.json): catalogue entries and the selection it records",
		Long: `Import a selection manifest. Listed tasks the workspace does not have yet
become catalogue entries (source "manifest"; the manifest's own phase, score
and breakdown are kept as manifest_* extras for comparison). Tasks already
imported from their directories are left as they are. The manifest's choice
is saved as a selection snapshot named after the file
("selected_benchmark_tasks"), with each task's rationale and rank.`,
		Example: `  curate import manifest ~/ccb/selected_benchmark_tasks.json
  curate import manifest old/selected_benchmark_tasks.json --strict --json`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			ws, err := env.Workspace(ctx)
			if err != nil {
				return err
			}
			sum, saved, err := app.ImportManifest(ctx, ws, args[0], opt.ImportOptions)
			if err != nil {
				return err
			}
			err = reportImport(env, opt, sum)
			if saved.Selection != nil && !opt.asJSON {
				fmt.Fprintf(env.Out, "selection %q saved: %d tasks (%d already in the catalogue from their task dirs)\n",
					saved.Selection.Name, len(saved.Selection.Tasks), saved.Known)
			}
			return err
		},
	}
	opt.register(cmd, false)
	return cmd
}
