package app

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"curate/pipeline"
	"curate/pipeline/query"
	"curate/pipeline/source/harbor"
	"curate/pipeline/taskdir"
	"curate/pipeline/validate"
	"curate/store"
	"curate/workspace"
)

// ResolveTasks resolves task IDs (prefixes allowed) and Harbor task
// folders, plus, when all is set or filter is not empty, the tasks matching
// filter. A folder no task points at is added as a built task.
func ResolveTasks(ctx context.Context, ws *workspace.Workspace, args []string, all bool, filter string) ([]*pipeline.Task, error) {
	var out []*pipeline.Task
	seen := map[string]bool{}
	add := func(t *pipeline.Task) {
		if !seen[t.ID] {
			seen[t.ID] = true
			out = append(out, t)
		}
	}
	if all || filter != "" {
		q, err := query.Parse(filter)
		if err != nil {
			return nil, err
		}
		tasks, err := ws.Store.Tasks(ctx)
		if err != nil {
			return nil, err
		}
		if err := q.Unseen("language", Languages(tasks)); err != nil {
			return nil, err
		}
		for _, t := range tasks {
			if q.Match(t) {
				add(t)
			}
		}
	}
	for _, a := range args {
		if fi, err := os.Stat(filepath.Join(a, "task.toml")); err == nil && fi.Mode().IsRegular() {
			t, err := taskForDir(ctx, ws, a)
			if err != nil {
				return nil, err
			}
			add(t)
			continue
		}
		t, err := taskByPrefix(ctx, ws, a)
		if err != nil {
			return nil, err
		}
		add(t)
	}
	return out, nil
}

// taskForDir finds the task whose task dir is dir, or adds one: id as
// `import harbor` names the folder, status built. An id already taken by
// another task is refused, never replaced.
func taskForDir(ctx context.Context, ws *workspace.Workspace, dir string) (*pipeline.Task, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real // the workspace root is resolved too
	}
	all, err := ws.Store.Tasks(ctx)
	if err != nil {
		return nil, err
	}
	for _, t := range all {
		if d, err := validate.ResolveTaskDir(ws.Root, t); err == nil && d == abs {
			return ws.Store.Task(ctx, t.ID)
		}
		if t.Source == "harbor" && t.SourcePath == abs { // imported from here (a copy in tasks/)
			return ws.Store.Task(ctx, t.ID)
		}
	}
	tt, id, err := harbor.ReadTOML(abs)
	if err != nil {
		return nil, err
	}
	if old, err := ws.Store.Task(ctx, id); err == nil {
		return nil, fmt.Errorf("%s: task id %q is already the task of %s; give the folder's task.toml another [task] id, or validate it by id", abs, id, old.TaskDir)
	} else if !errors.Is(err, store.ErrNotFound) {
		return nil, err
	}
	digest, _ := taskdir.Digest(abs)
	t := &pipeline.Task{ID: id, Benchmark: "local", Source: "harbor", SourcePath: abs, Language: tt.Language,
		Category: tt.Category, Status: pipeline.StatusBuilt, TaskDir: abs, Digest: digest}
	if err := ws.Store.UpsertTasks(ctx, []*pipeline.Task{t}); err != nil {
		return nil, err
	}
	return ws.Store.Task(ctx, id)
}

// DefaultModes are what a validation runs when no modes are named: NOP and
// Oracle, and gold for a mined task, whose verdict needs gold's
// FAIL_TO_PASS (pipeline.Judge): without it a mined task stays built.
func DefaultModes(t *pipeline.Task) []string {
	if t.Mined() {
		return []string{pipeline.ModeNop, pipeline.ModeOracle, pipeline.ModeGold}
	}
	return []string{pipeline.ModeNop, pipeline.ModeOracle}
}

// ValidationJobs are validate.Jobs for tasks in modes, or in each task's
// DefaultModes when modes is empty.
func ValidationJobs(root string, tasks []*pipeline.Task, modes []string) ([]validate.Job, []validate.Skip) {
	if len(modes) > 0 {
		return validate.Jobs(root, tasks, modes)
	}
	var jobs []validate.Job
	var skips []validate.Skip
	for _, t := range tasks {
		j, s := validate.Jobs(root, []*pipeline.Task{t}, DefaultModes(t))
		jobs, skips = append(jobs, j...), append(skips, s...)
	}
	return jobs, skips
}
