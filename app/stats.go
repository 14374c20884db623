package app

import (
	"context"

	"curate/pipeline"
	"curate/pipeline/selection"
	"curate/pipeline/stats"
	"curate/workspace"
)

// SelectionStats computes the tables for a saved selection (the newest when
// name is ""), or for every eligible task when no selection exists yet.
func SelectionStats(ctx context.Context, ws *workspace.Workspace, name string) (*stats.Stats, string, error) {
	tasks, err := ws.Store.Tasks(ctx)
	if err != nil {
		return nil, "", err
	}
	sel, err := ResolveSelection(ctx, ws, name)
	if err != nil {
		return nil, "", err
	}
	if sel == nil {
		cfg, err := SelectionConfig(ws)
		if err != nil {
			return nil, "", err
		}
		var eligible []*pipeline.Task
		for _, t := range tasks {
			if selection.Eligible(t) {
				eligible = append(eligible, t)
			}
		}
		return stats.Compute(tasks, eligible, StatsOptions(cfg)), "catalogue (no selection saved: every eligible task)", nil
	}
	chosen, err := SelectedTasks(sel, tasks)
	if err != nil {
		return nil, "", err
	}
	cfg, err := SnapshotConfig(sel)
	if err != nil {
		return nil, "", err
	}
	return stats.Compute(tasks, chosen, StatsOptions(cfg)), "selection " + sel.Name, nil
}
