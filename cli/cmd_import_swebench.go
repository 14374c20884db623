package cli

import (
	"github.com/spf13/cobra"

	"curate/app"
)

func newImportSWEbenchCmd(env *Env) *cobra.Command {
	var opt importFlags
	cmd := &cobra.Command{
		Use:   "swebench FILE.jsonl...",
		Short: "Import SWE-bench style instances (SWE-bench, Verified, SWE-smith, SWE-bench Pro) from JSONL",
		Long: `Import SWE-bench style instances, one JSON object a line. FAIL_TO_PASS and
PASS_TO_PASS (or Pro's lower-case fail_to_pass/pass_to_pass) may be JSON
lists or JSON-encoded strings. Files and lines changed come from the patch
column. Without --benchmark the dataset is recognised by its columns:
swesmith (image_name), swebenchpro (repo_language, fail_to_pass),
swebench_verified (difficulty), else swebench. A broken line is reported as
FILE:LINE with its reason; the other lines are imported.`,
		Example: `  curate import swebench swe-bench-verified.jsonl
  curate import swebench swesmith.jsonl --benchmark swesmith --strict`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runImport(cmd.Context(), env, opt, args, app.ImportSWEbench)
		},
	}
	opt.register(cmd, true)
	return cmd
}
