package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"curate/pipeline"
	"curate/pipeline/export"
	"curate/pipeline/profiles"
	"curate/pipeline/sanitize"
	"curate/pipeline/selection"
	"curate/pipeline/stats"
	"curate/workspace"
)

func init() { register(newExportCmd) }

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
	if len(sum.Skipped) > 0 {
		parts = append(parts, fmt.Sprintf("%d task(s) have no task dir (catalogue entries; build them first, or select built tasks): %s",
			len(sum.Skipped), sanitize.Line(strings.Join(first(sum.Skipped, 10), ", "))))
		if len(sum.Skipped) > 10 {
			parts[len(parts)-1] += fmt.Sprintf(", and %d more", len(sum.Skipped)-10)
		}
	}
	return exitError{code: 1, msg: "export harbor: the rest was written, but " + strings.Join(parts, "; ")}
}

func newExportCmd(app *App) *cobra.Command {
	var format, out, name, gitURL, gitCommit string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "export",
		Short: "Write a saved selection as a Harbor dataset, SWE-bench JSONL, the manifest, the methodology report or CSV",
		Example: `  curate export --format manifest --out out/
  curate export --format report --out out/ --selection small
  curate export --format harbor --out dataset/ --git-url https://github.com/me/bench --git-commit abc123`,
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
			ws, err := app.Workspace(ctx)
			if err != nil {
				return err
			}
			sel, err := resolveSelection(ctx, ws, name)
			if err != nil {
				return err
			}
			if sel == nil {
				return fmt.Errorf("export: no saved selection; run `curate select` first")
			}
			in, err := exportInput(ctx, ws, sel, format, gitURL, gitCommit)
			if err != nil {
				return err
			}
			chosen := in.Selected
			if err := os.MkdirAll(filepath.Dir(filepath.Clean(out)), 0o755); err != nil { // the help promises it is created
				return fmt.Errorf("export: %w", err)
			}
			sum, err := export.Write(format, out, in)
			if err != nil {
				return err
			}
			if asJSON {
				if err := writeJSON(app.Out, sum); err != nil {
					return err
				}
			} else {
				fmt.Fprintf(app.Out, "Exported selection %s (%d tasks) as %s to %s: %s\n", sanitize.Line(sel.Name), len(chosen), format,
					sanitize.Line(filepath.Clean(out)), sanitize.Line(strings.Join(sum.Files, ", ")))
			}
			return leftOut(sum)
		},
	}
	cmd.Flags().StringVar(&format, "format", "", "harbor, swebench, manifest, report or csv")
	cmd.Flags().StringVar(&out, "out", "", "output folder (created; a harbor dataset replaces it whole)")
	cmd.Flags().StringVar(&name, "selection", "", "saved selection (default: the newest)")
	cmd.Flags().StringVar(&gitURL, "git-url", "", "harbor: git_url of the registry's task entries")
	cmd.Flags().StringVar(&gitCommit, "git-commit", "", "harbor: git_commit_id of the registry's task entries")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print what was written as JSON")
	return cmd
}

// savedSolve reads the solver's verdict stored with a snapshot.
func savedSolve(st map[string]any) *export.Solve {
	raw, ok := st["solve"]
	if !ok {
		return nil
	}
	data, err := json.Marshal(raw)
	if err != nil {
		return nil
	}
	var r selection.Result
	if json.Unmarshal(data, &r) != nil {
		return nil
	}
	s := &export.Solve{Feasible: r.Feasible, Shortfalls: r.Shortfalls, TotalScore: r.TotalScore, UpperBound: r.UpperBound, Gap: r.Gap}
	for _, v := range r.Violations {
		s.Violations = append(s.Violations, v.Message)
	}
	return s
}

// profileWeights are the score weights in formula order.
func profileWeights(p *profiles.Profile) []export.Weight {
	w := p.Score.Weights
	if w.ContextComplexity+w.CrossFileDeps+w.SemanticSearchPotential+w.TaskCategoryWeight == 0 {
		return nil
	}
	return []export.Weight{
		{Name: "context_complexity", Value: w.ContextComplexity},
		{Name: "cross_file_deps", Value: w.CrossFileDeps},
		{Name: "semantic_search_potential", Value: w.SemanticSearchPotential},
		{Name: "task_category_weight", Value: w.TaskCategoryWeight},
	}
}

func profileCategoryWeights(p *profiles.Profile) map[string]float64 { return p.Score.CategoryWeights }

// exportInput builds the export of a saved (or, in the workbench, a just
// solved) selection; `curate export` and the Export screen share it.
func exportInput(ctx context.Context, ws *workspace.Workspace, sel *pipeline.Selection, format, gitURL, gitCommit string) (*export.Input, error) {
	tasks, err := ws.Store.Tasks(ctx)
	if err != nil {
		return nil, err
	}
	chosen, err := selectedTasks(sel, tasks)
	if err != nil {
		return nil, err
	}
	cfg, err := snapshotConfig(sel)
	if err != nil {
		return nil, err
	}
	p, err := loadProfile(ws)
	if err != nil {
		return nil, err
	}
	in := &export.Input{
		Name: sel.Name, GeneratedBy: "curate", Config: cfg, Catalogue: tasks,
		Stats:   stats.Compute(tasks, chosen, statsOptions(cfg)),
		Weights: profileWeights(p), CategoryWeights: profileCategoryWeights(p),
		Solve: savedSolve(sel.Stats), GitURL: gitURL, GitCommit: gitCommit,
	}
	for i, t := range chosen {
		if format == "swebench" { // the problem statement needs the body, which Tasks leaves out
			full, err := ws.Store.Task(ctx, t.ID)
			if err != nil {
				return nil, err
			}
			t = full
		}
		in.Selected = append(in.Selected, export.Item{Task: t, Rationale: sel.Tasks[i].Rationale})
	}
	return in, nil
}
