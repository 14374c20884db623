package app

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"curate/pipeline"
	"curate/pipeline/query"
	"curate/workspace"
)

// FilterTasks loads every task (without bodies and blobs) and keeps those
// matching the filter expression expr.
func FilterTasks(ctx context.Context, ws *workspace.Workspace, expr string) ([]*pipeline.Task, error) {
	q, err := query.Parse(expr)
	if err != nil {
		return nil, err
	}
	all, err := ws.Store.Tasks(ctx)
	if err != nil {
		return nil, err
	}
	if q.Empty() {
		return all, nil
	}
	if err := q.Unseen("language", Languages(all)); err != nil {
		return nil, err
	}
	out := all[:0]
	for _, t := range all {
		if q.Match(t) {
			out = append(out, t)
		}
	}
	return out, nil
}

// Languages are the languages tasks have, each once.
func Languages(tasks []*pipeline.Task) []string {
	seen := map[string]bool{}
	var out []string
	for _, t := range tasks {
		if l := strings.ToLower(t.Language); l != "" && !seen[l] {
			seen[l] = true
			out = append(out, l)
		}
	}
	return out
}

// SortKeys are SortTasks' keys (completion offers them).
var SortKeys = []string{"id", "benchmark", "repo", "language", "category", "phase", "difficulty", "status", "files", "loc", "score"}

// SortTasks orders tasks by key (id, benchmark, repo, language, category,
// phase, difficulty, status, files, loc, score; a leading - reverses), ties
// by id.
func SortTasks(tasks []*pipeline.Task, key string) error {
	desc := strings.HasPrefix(key, "-")
	key = strings.TrimPrefix(key, "-")
	var less func(a, b *pipeline.Task) bool
	switch key {
	case "id", "":
		less = func(a, b *pipeline.Task) bool { return pipeline.CompareIDs(a.ID, b.ID) < 0 }
	case "score":
		less = func(a, b *pipeline.Task) bool { return a.Score < b.Score }
	case "files":
		less = func(a, b *pipeline.Task) bool {
			return a.Features.Int(pipeline.FeatFilesChanged) < b.Features.Int(pipeline.FeatFilesChanged)
		}
	case "loc":
		less = func(a, b *pipeline.Task) bool {
			return a.Features.Int(pipeline.FeatLOCChanged) < b.Features.Int(pipeline.FeatLOCChanged)
		}
	case "difficulty":
		less = func(a, b *pipeline.Task) bool { return a.EffectiveDifficulty().Rank() < b.EffectiveDifficulty().Rank() }
	case "phase":
		less = func(a, b *pipeline.Task) bool { return pipeline.PhaseRank(a.Phase()) < pipeline.PhaseRank(b.Phase()) }
	case "benchmark", "repo", "language", "status", "category":
		less = func(a, b *pipeline.Task) bool { return query.FieldValue(a, key) < query.FieldValue(b, key) }
	default:
		return fmt.Errorf("unknown sort key %q (%s)", key, strings.Join(SortKeys, ", "))
	}
	sort.SliceStable(tasks, func(i, j int) bool {
		a, b := tasks[i], tasks[j]
		if desc {
			a, b = b, a
		}
		if less(a, b) {
			return true
		}
		if less(b, a) {
			return false
		}
		return pipeline.CompareIDs(tasks[i].ID, tasks[j].ID) < 0
	})
	return nil
}
