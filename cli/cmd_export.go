package cli

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"curate/app"
	"curate/pipeline/export"
	"curate/pipeline/sanitize"
)

// leftOut fails an export that had to leave selected tasks out (the rest
// is written): every such task is named, so the curator can build or
// re-import it, or drop it from the selection.
func leftOut(sum *export.Summary) error {
	if len(sum.Skipped)+len(sum.Missing) == 0 {
		return nil
	}
	var parts []string
	if len(sum.Missing) > 0 {
		parts = append(parts, fmt.Sprintf("%d task dir(s) missing from disk (re-import or rebuild them): %s",
			len(sum.Missing), sanitize.Line(strings.Join(sum.Missing, ", "))))
	}
	if n := len(sum.Skipped); n > 0 {
		names := strings.Join(sum.Skipped[:min(n, 10)], ", ")
		if n > 10 {
			names += fmt.Sprintf(", and %d more", n-10)
		}
		parts = append(parts, fmt.Sprintf("%d task(s) have no task dir (catalogue entries; build them first, or select built tasks): %s",
			n, sanitize.Line(names)))
	}
	return exitError{code: 1, msg: "export harbor: the rest was written, but " + strings.Join(parts, "; ")}
}

func newExportCmd(env *Env) *cobra.Command {
	var format, out, name, gitURL, gitCommit, org string
	var asJSON, allowUnvalidated bool
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
			// Say which selection first: without --selection it is the newest.
			fmt.Fprintln(noteOut(env, asJSON), selectionLine(sel.Name, name == ""))
			in, err := app.ExportInput(ctx, ws, sel, format, gitURL, gitCommit)
			if err != nil {
				return err
			}
			if org != "" {
				in.Org = org // else [export] org
			}
			chosen := in.Selected
			sum, err := app.WriteExport(ws, format, out, in, allowUnvalidated)
			if err != nil {
				return err
			}
			if asJSON {
				if err := writeJSON(env.Out, sum); err != nil {
					return err
				}
			} else {
				// Success only when every task was written; else the
				// count written, and leftOut's error names the rest.
				what := fmt.Sprintf("Exported selection %s (%d tasks)", sanitize.Line(sel.Name), len(chosen))
				if left := len(sum.Skipped) + len(sum.Missing); left > 0 {
					what = fmt.Sprintf("Wrote %d of the %d tasks of selection %s", len(chosen)-left, len(chosen), sanitize.Line(sel.Name))
				}
				fmt.Fprintf(env.Out, "%s as %s to %s: %s\n", what, format,
					sanitize.Line(filepath.Clean(out)), sanitize.Line(strings.Join(sum.Files, ", ")))
			}
			return leftOut(sum)
		},
	}
	cmd.Flags().StringVar(&format, "format", "", "harbor, swebench, manifest, report or csv")
	cmd.Flags().StringVar(&out, "out", "", "output folder (created; a later export replaces only what curate wrote there)")
	cmd.Flags().StringVar(&name, "selection", "", "saved selection (default: the newest)")
	cmd.Flags().StringVar(&gitURL, "git-url", "", "harbor: git_url of the registry's task entries")
	cmd.Flags().StringVar(&gitCommit, "git-commit", "", "harbor: git_commit_id of the registry's task entries")
	cmd.Flags().StringVar(&org, "org", "", "harbor: org of task and dataset names, org/name (default: [export] org in curate.toml)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print what was written as JSON")
	cmd.Flags().BoolVar(&allowUnvalidated, "allow-unvalidated", false, "harbor, swebench: export even when selected tasks are not validated valid")
	return cmd
}

// selectionLine names the selection a command works on; newest says it
// was not named (--selection) but taken as the newest saved.
func selectionLine(name string, newest bool) string {
	if newest {
		return fmt.Sprintf("selection %s (the newest saved; --selection NAME picks another)", sanitize.Line(name))
	}
	return "selection " + sanitize.Line(name)
}

// noteOut is where a command's notes go: stderr when stdout carries JSON.
func noteOut(env *Env, asJSON bool) io.Writer {
	if asJSON {
		return env.Err
	}
	return env.Out
}
