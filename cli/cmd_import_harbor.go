package cli

import (
	"github.com/spf13/cobra"

	"curate/pipeline/source/harbor"
)

func newImportHarborCmd(env *Env) *cobra.Command {
	var opt importOptions
	var inPlace bool
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
			ctx := cmd.Context()
			im, scorer, profile, err := newImporter(ctx, env, opt, "harbor")
			if err != nil {
				return err
			}
			var items []importItem
			var failures []importFailure
			var dirs []string
			for _, root := range args {
				found, err := harbor.Find(root)
				if err != nil {
					failures = append(failures, importFailure{root, err.Error()})
					continue
				}
				dirs = append(dirs, found...)
			}
			read := make([]importItem, len(dirs))
			errs := make([]error, len(dirs))
			parallel(len(dirs), func(i int) {
				t, err := harbor.Read(dirs[i], harbor.Options{Benchmark: opt.benchmark})
				if err != nil {
					errs[i] = err
					return
				}
				read[i] = importItem{task: t} // Read set TaskDir to the source dir
				if !inPlace {
					read[i].copyDir = t.TaskDir
				}
			})
			for i := range dirs {
				if errs[i] != nil {
					failures = append(failures, importFailure{dirs[i], errs[i].Error()})
					continue
				}
				items = append(items, read[i])
			}
			sum, err := im.run(ctx, scorer, profile, items, failures)
			if err != nil {
				return err
			}
			return im.report(sum)
		},
	}
	opt.register(cmd, true)
	cmd.Flags().BoolVar(&inPlace, "in-place", false, "reference the task dirs where they are instead of copying them into tasks/")
	return cmd
}
