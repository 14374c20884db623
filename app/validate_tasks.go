package app

import (
	"context"
	"os"
	"path/filepath"
	"strings"

	"github.com/pelletier/go-toml/v2"

	"curate/internal/tomlerr"
	"curate/pipeline"
	"curate/pipeline/query"
	"curate/pipeline/taskdir"
	"curate/pipeline/validate"
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

// taskForDir finds the task whose task dir is dir, or adds one: id from
// task.toml's [task] name (or the folder name), status built.
func taskForDir(ctx context.Context, ws *workspace.Workspace, dir string) (*pipeline.Task, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	all, err := ws.Store.Tasks(ctx)
	if err != nil {
		return nil, err
	}
	for _, t := range all {
		if d, err := validate.ResolveTaskDir(ws.Root, t); err == nil && d == abs {
			return ws.Store.Task(ctx, t.ID)
		}
	}
	var doc struct {
		Task struct {
			Name string `toml:"name"`
		} `toml:"task"`
		Metadata struct {
			Language string `toml:"language"`
			Category string `toml:"category"`
		} `toml:"metadata"`
	}
	path := filepath.Join(abs, "task.toml")
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if err := toml.Unmarshal(data, &doc); err != nil {
		return nil, tomlerr.Wrap(path, err)
	}
	id := filepath.Base(abs)
	if doc.Task.Name != "" {
		id = strings.ReplaceAll(doc.Task.Name, "/", "__")
	}
	stored := abs
	if rel, err := filepath.Rel(ws.Root, abs); err == nil && !strings.HasPrefix(rel, "..") {
		stored = rel
	}
	digest, _ := taskdir.Digest(abs)
	t := &pipeline.Task{ID: id, Benchmark: "local", Source: "harbor", SourcePath: stored, Language: doc.Metadata.Language,
		Category: doc.Metadata.Category, Status: pipeline.StatusBuilt, TaskDir: stored, Digest: digest}
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
