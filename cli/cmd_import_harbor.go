package cli

import (
	"github.com/spf13/cobra"

	"curate/app"
)

func newImportHarborCmd(env *Env) *cobra.Command {
	var opt importFlags
	cmd := &cobra.Command{
		Use:   "harbor PATH...",
		Short: "Import Harbor task directories (every folder with a task.toml under each PATH)",
		Long: `Import Harbor task directories: every folder holding a task.toml under each
PATH (a task dir or a folder of them). The files are copied into the
workspace's tasks/ folder (or referenced where they are with --in-place) and
their digest recorded. Without --benchmark the benchmark comes from the
task.toml or the nearest parent folder (e.g. benchmarks/ccb_pytorch/sgt-001
-> ccb_pytorch). A task dir is refused, with its reason, when task.toml does
not parse, instruction.md is missing or not UTF-8 text, a symlink points
outside the dir, or a file is over 50 MB.`,
		Example: `  curate import harbor ~/benchmarks/ccb_pytorch ~/benchmarks/ccb_locobench
  curate import harbor ./tasks-from-taskgen --benchmark taskgen --in-place
  curate import harbor ./bench --strict --json`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runImport(cmd.Context(), env, opt, args, app.ImportHarbor)
		},
	}
	opt.register(cmd, true)
	cmd.Flags().BoolVar(&opt.InPlace, "in-place", false, "reference the task dirs where they are instead of copying them into tasks/")
	return cmd
}
