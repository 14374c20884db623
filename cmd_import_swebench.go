package main

import (
	"fmt"
	"os"
	"strconv"

	"github.com/spf13/cobra"

	"curate/pipeline/source/swebench"
)

func init() { importSubs = append(importSubs, newImportSWEbenchCmd) }

func newImportSWEbenchCmd(app *App) *cobra.Command {
	var opt importOptions
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
			ctx := cmd.Context()
			im, scorer, profile, err := newImporter(ctx, app, opt, "swebench")
			if err != nil {
				return err
			}
			var items []importItem
			var failures []importFailure
			var notes []string
			for _, path := range args { // a file that cannot be opened stops the import, as a manifest does
				if fi, err := os.Stat(path); err != nil {
					return fmt.Errorf("import swebench: %w", err)
				} else if fi.IsDir() {
					return fmt.Errorf("import swebench: %s is a folder, not a JSONL file", path)
				}
			}
			for _, path := range args {
				f, err := os.Open(path)
				if err != nil {
					return fmt.Errorf("import swebench: %w", err)
				}
				tasks, bad, err := swebench.Read(path, f, opt.benchmark)
				f.Close()
				if err != nil {
					failures = append(failures, importFailure{path, err.Error()})
				}
				if err == nil && len(tasks) == 0 && len(bad) == 0 {
					notes = append(notes, path+": no rows (an empty file?); a SWE-bench JSONL holds one JSON object a line")
				}
				for _, b := range bad {
					failures = append(failures, importFailure{b.File + ":" + strconv.Itoa(b.Line), b.Err.Error()})
				}
				for _, t := range tasks {
					items = append(items, importItem{task: t})
				}
			}
			sum, err := im.run(ctx, scorer, profile, items, failures)
			if err != nil {
				return err
			}
			sum.Notes = notes
			return im.report(sum)
		},
	}
	opt.register(cmd, true)
	return cmd
}
