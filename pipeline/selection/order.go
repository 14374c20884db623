package selection

import (
	"fmt"
	"sort"
	"strings"

	"curate/pipeline"
)

// sortKey is one parsed entry of a Sort list.
type sortKey struct {
	name string
	desc bool
}

func parseSort(keys []string) ([]sortKey, error) {
	var out []sortKey
	for _, k := range keys {
		k = strings.TrimSpace(k)
		desc := strings.HasPrefix(k, "-")
		name := strings.TrimPrefix(k, "-")
		if name == "" {
			return nil, fmt.Errorf("sort key %q is empty", k)
		}
		out = append(out, sortKey{name: name, desc: desc})
	}
	return out, nil
}

// keyValue is a task's numeric value for a sort key: score, difficulty
// rank, or a feature (unknown features count as 0).
func keyValue(t *pipeline.Task, name string) float64 {
	switch name {
	case "score":
		return t.Score
	case "difficulty", "difficulty_effective":
		return float64(t.EffectiveDifficulty().Rank())
	case "difficulty_imported":
		return float64(t.DifficultyImported.Rank())
	case "files":
		return t.Features.Values[pipeline.FeatFilesChanged]
	case "loc":
		return t.Features.Values[pipeline.FeatLOCChanged]
	}
	return t.Features.Values[name]
}

// describeSort renders keys for a rationale: "files_changed desc, score desc".
func describeSort(keys []sortKey) string {
	var parts []string
	for _, k := range keys {
		if k.desc {
			parts = append(parts, k.name+" desc")
		} else {
			parts = append(parts, k.name+" asc")
		}
	}
	if len(keys) == 0 || keys[len(keys)-1] != (sortKey{"score", true}) {
		parts = append(parts, "score desc")
	}
	parts = append(parts, "id")
	return strings.Join(parts, ", ")
}

// sortTasks orders tasks by keys, then score (descending), then id, so the
// order is total and the same on every platform.
func sortTasks(tasks []*pipeline.Task, keys []sortKey) {
	type row struct {
		t    *pipeline.Task
		vals []float64
	}
	rows := make([]row, len(tasks))
	for i, t := range tasks {
		vals := make([]float64, len(keys))
		for j, k := range keys {
			if k.name == "id" {
				continue
			}
			vals[j] = keyValue(t, k.name)
		}
		rows[i] = row{t, vals}
	}
	sort.SliceStable(rows, func(i, j int) bool {
		a, b := rows[i], rows[j]
		for k, key := range keys {
			if key.name == "id" {
				if a.t.ID != b.t.ID {
					return (a.t.ID < b.t.ID) != key.desc
				}
				continue
			}
			if a.vals[k] != b.vals[k] {
				return (a.vals[k] < b.vals[k]) != key.desc
			}
		}
		return better(a.t, b.t)
	})
	for i := range rows {
		tasks[i] = rows[i].t
	}
}

// better is the universal tie-break: higher score, then smaller id.
func better(a, b *pipeline.Task) bool {
	if a.Score != b.Score {
		return a.Score > b.Score
	}
	return a.ID < b.ID
}
