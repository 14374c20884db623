package app

import (
	"context"
	"sync"

	"curate/pipeline"
	"curate/pipeline/validate"
	"curate/workspace"
)

// runSaver stores runs as a batch goes: a finished run is stored in the
// same transaction as the verdict it gives its task (store.SettleRun), so
// `list`, `show`, `funnel` and the workbench agree with the runs while a
// long batch is still going, and a batch killed midway leaves every task
// it settled judged. Judging is serialised: two runs of one task finishing
// at once each see the other.
func runSaver(ws *workspace.Workspace) func(ctx context.Context, r *pipeline.Run) error {
	var mu sync.Mutex
	return func(ctx context.Context, r *pipeline.Run) error {
		if !r.Outcome.Finished() {
			return ws.Store.SaveRun(ctx, r)
		}
		mu.Lock()
		defer mu.Unlock()
		changed, err := validate.JudgeRuns(ctx, ws.Store, ws.Root, []*pipeline.Run{r})
		if err != nil {
			// The run is worth keeping even when its task cannot be
			// judged now; the batch's end (or the next command) judges it.
			if serr := ws.Store.SaveRun(ctx, r); serr != nil {
				return serr
			}
			return err
		}
		return ws.Store.SettleRun(ctx, r, changed)
	}
}

// JudgeUnjudged judges the tasks whose finished runs are stored but whose
// status still says built: what a curate killed between a run and its
// verdict, or an older curate that judged only at a batch's end, left.
// It returns how many tasks it judged.
func JudgeUnjudged(ctx context.Context, ws *workspace.Workspace) (int, error) {
	runs, err := ws.Store.UnjudgedRuns(ctx)
	if err != nil || len(runs) == 0 {
		return 0, err
	}
	changed, err := validate.JudgeRuns(ctx, ws.Store, ws.Root, runs)
	if err != nil {
		return 0, err
	}
	var judged []*pipeline.Task
	for _, t := range changed {
		if t.Status != pipeline.StatusBuilt { // only verdicts: nothing else is rewritten on every command
			judged = append(judged, t)
		}
	}
	if len(judged) == 0 {
		return 0, nil
	}
	return len(judged), ws.Store.UpsertTasks(ctx, judged)
}
