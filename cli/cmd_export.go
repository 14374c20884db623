package cli

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"curate/app"
	"curate/pipeline/export"
	"curate/pipeline/sanitize"
)

func newExportCmd(env *Env) *cobra.Command {
	var format, out, name, gitURL, gitCommit, org string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "export",
		Short: "Write a saved selection as a Harbor dataset, SWE-bench JSONL, the manifest, the methodology report or CSV",
		Example: `  curate export --format manifest --out out/
  curate export --format report --out out/ --selection small
  curate export --format harbor --out dataset/ --org me --git-url https://github.com/me/bench --git-commit abc123`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			if out == "" {
				return fmt.Errorf("export: --out DIR is required")
			}
			known := false
			for _, f := range export.Formats {
				known = known || f == format
			}
			if !known {
				return fmt.Errorf("export: unknown format %q (want one of %s)", format, strings.Join(export.Formats, ", "))
			}
			ws, err := env.Workspace(ctx)
			if err != nil {
				return err
			}
			sel, err := app.ResolveSelection(ctx, ws, name)
			if err != nil {
				return err
			}
			if sel == nil {
				return fmt.Errorf("export: no saved selection; run `curate select` first")
			}
			in, err := app.ExportInput(ctx, ws, sel, format, gitURL, gitCommit)
			if err != nil {
				return err
			}
			if org != "" {
				in.Org = org // else [export] org
			}
			chosen := in.Selected
			sum, err := export.Write(format, out, in)
			if err != nil {
				return err
			}
			if asJSON {
				return writeJSON(env.Out, sum)
			}
			fmt.Fprintf(env.Out, "Exported selection %s (%d tasks) as %s to %s: %s\n", sanitize.Line(sel.Name), len(chosen), format,
				sanitize.Line(filepath.Clean(out)), sanitize.Line(strings.Join(sum.Files, ", ")))
			if len(sum.Skipped) > 0 {
				fmt.Fprintf(env.Out, "Warning: %d selected tasks have no task dir and were left out of the dataset (e.g. %s); build them first\n",
					len(sum.Skipped), sanitize.Line(strings.Join(sum.Skipped[:min(3, len(sum.Skipped))], ", ")))
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&format, "format", "", "harbor, swebench, manifest, report or csv")
	cmd.Flags().StringVar(&out, "out", "", "output folder (created; a harbor dataset replaces it whole)")
	cmd.Flags().StringVar(&name, "selection", "", "saved selection (default: the newest)")
	cmd.Flags().StringVar(&gitURL, "git-url", "", "harbor: git_url of the registry's task entries")
	cmd.Flags().StringVar(&gitCommit, "git-commit", "", "harbor: git_commit_id of the registry's task entries")
	cmd.Flags().StringVar(&org, "org", "", "harbor: org of task and dataset names, org/name (default: [export] org in curate.toml)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print what was written as JSON")
	return cmd
}
