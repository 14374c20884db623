package cli

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"curate/app"
	"curate/pipeline/sanitize"
	"curate/workspace"
)

func newImportCmd(env *Env) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "import",
		Short: "Import existing benchmarks: Harbor task dirs, SWE-bench JSONL, selection manifests",
		Long: `Import tasks from existing benchmarks into the workspace. Each import scores
the tasks with the workspace's profile and prints how many were imported,
updated, unchanged and failed (each failure with its reason). With --strict
any failure exits non-zero and nothing is written; without it the good
tasks are written and any failure still exits 1. Re-importing is
idempotent; changed task files update the digest, which marks earlier
validation runs stale.`,
	}
	cmd.AddCommand(newImportHarborCmd(env), newImportManifestCmd(env), newImportSWEbenchCmd(env))
	return cmd
}

// importFlags are the flags every import shares.
type importFlags struct {
	app.ImportOptions
	asJSON bool
}

func (o *importFlags) register(cmd *cobra.Command, withBenchmark bool) {
	if withBenchmark {
		cmd.Flags().StringVar(&o.Benchmark, "benchmark", "", "benchmark name for every task (default: from the source)")
	}
	cmd.Flags().BoolVar(&o.Strict, "strict", false, "exit non-zero and write nothing if any task fails")
	cmd.Flags().BoolVar(&o.asJSON, "json", false, "print the summary as JSON")
	cmd.Flags().StringVar(&o.Profile, "profile", "", "profile TOML file overriding the workspace's profile")
	cmd.Flags().BoolVar(&o.Rename, "rename", false, "import a task whose id is taken by a task from another source as ID-2 (default: refuse it)")
}

// runImport runs one import of paths on the workspace and reports it.
func runImport(ctx context.Context, env *Env, opt importFlags, paths []string,
	run func(context.Context, *workspace.Workspace, []string, app.ImportOptions) (*app.ImportSummary, error)) error {
	ws, err := env.Workspace(ctx)
	if err != nil {
		return err
	}
	sum, err := run(ctx, ws, paths, opt.ImportOptions)
	if err != nil {
		return err
	}
	return reportImport(env, opt, sum)
}

// reportImport prints the summary; any failure is exit code 1 (with
// --strict nothing was written, without it the good tasks were).
func reportImport(env *Env, o importFlags, sum *app.ImportSummary) error {
	if o.asJSON {
		if err := writeJSON(env.Out, sum); err != nil {
			return err
		}
	} else {
		format := "import %s (profile %s): %d imported, %d updated, %d unchanged, %d failed\n"
		if !sum.Written {
			format = "import %s (profile %s): nothing written; would be %d imported, %d updated, %d unchanged; %d failed\n"
		}
		fmt.Fprintf(env.Out, format, sum.Kind, sanitize.Line(sum.Profile), len(sum.Imported), len(sum.Updated), len(sum.Unchanged), len(sum.Failed))
		for _, f := range sum.Failed {
			fmt.Fprintf(env.Out, "  FAILED %s\n         %s\n", sanitize.Line(f.Source), sanitize.Line(f.Reason))
		}
		for _, n := range sum.Notes {
			fmt.Fprintf(env.Out, "  note: %s\n", sanitize.Line(n))
		}
	}
	switch {
	case len(sum.Failed) == 0:
		return nil
	case o.Strict:
		return exitError{code: 1, msg: fmt.Sprintf("import %s: %d failed; --strict: nothing was written", sum.Kind, len(sum.Failed))}
	default: // the good tasks are in; the exit still says something failed
		return exitError{code: 1, msg: fmt.Sprintf("import %s: %d failed (the %d good tasks were written)", sum.Kind, len(sum.Failed),
			len(sum.Imported)+len(sum.Updated)+len(sum.Unchanged))}
	}
}
