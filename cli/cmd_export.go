package cli

import (
	"fmt"
	"io"
	"path/filepath"
	"slices"
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
	return fmt.Errorf("export harbor: the rest was written, but %s", strings.Join(parts, "; "))
}

func newExportCmd(env *Env) *cobra.Command {
	var out, name, gitURL, gitCommit, org string
	var formats []string
	var asJSON, allowUnvalidated bool
	cmd := &cobra.Command{
		Use:   "export",
		Short: "Write a saved selection as a Harbor dataset, SWE-bench JSONL, the manifest, the methodology report or CSV",
		Example: `  curate export --format manifest --out out/
  curate export --format report --out out/ --selection small
  curate export --format manifest,report,csv --out out/   # each format written or its reason printed
  curate export --format harbor --out dataset/ --org me --git-url https://github.com/me/bench --git-commit abc123`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			if out == "" {
				return fmt.Errorf("export: --out DIR is required")
			}
			if len(formats) == 0 {
				return fmt.Errorf("export: --format is required (one or more of %s)", strings.Join(export.Formats, ", "))
			}
			for _, f := range formats {
				if !slices.Contains(export.Formats, f) {
					return fmt.Errorf("export: unknown format %q (want one of %s)", f, strings.Join(export.Formats, ", "))
				}
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
			res, err := app.Export(ctx, ws, sel, app.ExportRequest{Formats: formats, Dest: out, AllowUnvalidated: allowUnvalidated,
				Org: org, GitURL: gitURL, GitCommit: gitCommit})
			if err != nil {
				return err
			}
			if err := printExported(env, res, sel.Name, len(sel.Tasks), out, asJSON); err != nil {
				return err
			}
			return exportFailures(res)
		},
	}
	cmd.Flags().StringSliceVar(&formats, "format", nil, "harbor, swebench, manifest, report or csv; several: repeat or separate with commas")
	cmd.Flags().StringVar(&out, "out", "", "output folder (created; a later export replaces only what curate wrote there)")
	cmd.Flags().StringVar(&name, "selection", "", "saved selection (default: the newest)")
	cmd.Flags().StringVar(&gitURL, "git-url", "", "harbor: git_url of the registry's task entries")
	cmd.Flags().StringVar(&gitCommit, "git-commit", "", "harbor: git_commit_id of the registry's task entries")
	cmd.Flags().StringVar(&org, "org", "", "harbor: org of task and dataset names, org/name (default: [export] org in curate.toml)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print what was written as JSON (an array when several formats are given)")
	cmd.Flags().BoolVar(&allowUnvalidated, "allow-unvalidated", false, "harbor, swebench: export even when selected tasks are not validated valid")
	return cmd
}

// printExported says what each written format holds: a JSON summary (an
// array for several formats), or one line per format.
func printExported(env *Env, res *app.ExportOutcome, name string, total int, out string, asJSON bool) error {
	written := res.Written()
	if asJSON {
		if len(res.Results) == 1 {
			if len(written) == 0 {
				return nil
			}
			return writeJSON(env.Out, written[0])
		}
		if written == nil {
			written = []*export.Summary{}
		}
		return writeJSON(env.Out, written)
	}
	for _, sum := range written {
		// Success only when every task was written; else the count
		// written, and exportFailures names the rest.
		what := fmt.Sprintf("Exported selection %s (%d tasks)", sanitize.Line(name), total)
		if left := len(sum.Skipped) + len(sum.Missing); left > 0 {
			what = fmt.Sprintf("Wrote %d of the %d tasks of selection %s", total-left, total, sanitize.Line(name))
		}
		fmt.Fprintf(env.Out, "%s as %s to %s: %s\n", what, sum.Format,
			sanitize.Line(filepath.Clean(out)), sanitize.Line(strings.Join(sum.Files, ", ")))
	}
	return nil
}

// exportFailures is the exit of an export: 1, with one line per format not
// written (or harbor written without some tasks), after the rest was written.
func exportFailures(res *app.ExportOutcome) error {
	var lines []string
	for _, r := range res.Results {
		if r.Err != nil {
			lines = append(lines, r.Reason())
		} else if err := leftOut(r.Summary); err != nil {
			lines = append(lines, err.Error())
		}
	}
	if len(lines) == 0 {
		return nil
	}
	return exitError{code: 1, msg: strings.Join(lines, "\ncurate: ")} // one line per format, each as curate prints an error
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
