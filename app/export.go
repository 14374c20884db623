package app

import (
	"context"
	"encoding/json"

	"curate/pipeline"
	"curate/pipeline/export"
	"curate/pipeline/profiles"
	"curate/pipeline/selection"
	"curate/pipeline/stats"
	"curate/workspace"
)

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

// ExportInput builds the export of a saved (or, in the workbench, a just
// solved) selection; `curate export` and the Export screen share it.
func ExportInput(ctx context.Context, ws *workspace.Workspace, sel *pipeline.Selection, format, gitURL, gitCommit string) (*export.Input, error) {
	tasks, err := ws.Store.Tasks(ctx)
	if err != nil {
		return nil, err
	}
	chosen, err := SelectedTasks(sel, tasks)
	if err != nil {
		return nil, err
	}
	cfg, err := SnapshotConfig(sel)
	if err != nil {
		return nil, err
	}
	p, err := LoadProfile(ws)
	if err != nil {
		return nil, err
	}
	runs, err := ws.Store.Runs(ctx, "")
	if err != nil {
		return nil, err
	}
	in := &export.Input{
		Name: sel.Name, GeneratedBy: "curate", Config: cfg, Catalogue: tasks, Funnel: stats.ComputeFunnel(tasks, runs, ""),
		Stats:   stats.Compute(tasks, chosen, StatsOptions(cfg)),
		Weights: profileWeights(p), CategoryWeights: profileCategoryWeights(p),
		Solve: savedSolve(sel.Stats), GitURL: gitURL, GitCommit: gitCommit, Org: ExportOrg(ws, p), ScoreKey: p.ScoreKey,
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

// SolveExportInput builds the export of a solve not saved yet (the Export
// screen), named name, as ExportInput does for a saved selection.
func SolveExportInput(ctx context.Context, ws *workspace.Workspace, name string, cfg selection.Config, res *selection.Result, format string) (*export.Input, error) {
	sel, err := SolveSelection(ctx, ws, name, cfg, res)
	if err != nil {
		return nil, err
	}
	return ExportInput(ctx, ws, sel, format, "", "")
}

// SolveSelection is a solve made elsewhere (the Export screen) as a
// selection named name, not stored.
func SolveSelection(ctx context.Context, ws *workspace.Workspace, name string, cfg selection.Config, res *selection.Result) (*pipeline.Selection, error) {
	tasks, err := ws.Store.Tasks(ctx)
	if err != nil {
		return nil, err
	}
	sel, _, err := Snapshot(name, cfg, tasks, res)
	return sel, err
}

// ShipsTasks reports whether an export format carries the tasks
// themselves (task dirs, or patches and test lists), not a description of
// the selection (manifest, report, csv).
func ShipsTasks(format string) bool { return format == "harbor" || format == "swebench" }

// Unvalidated are the selected tasks validation has not found valid:
// catalogue entries never built, built tasks never validated (or changed
// since), invalid ones, each with its status. An export that ships tasks
// refuses them unless asked to (--allow-unvalidated): it would write rows
// without a patch or FAIL_TO_PASS.
func Unvalidated(in *export.Input) []string {
	out := []string{}
	for _, it := range in.Selected {
		if it.Task.Status != pipeline.StatusValid {
			out = append(out, it.Task.ID+" ("+string(it.Task.Status)+")")
		}
	}
	return out
}
