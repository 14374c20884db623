// Package harbor imports Harbor task directories (task.toml,
// instruction.md, environment/, solution/, tests/) in every task.toml
// shape benchmarks use, keeping keys it does not model so nothing is lost.
package harbor

import (
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/pelletier/go-toml/v2"

	"curate/internal/tomlerr"
	"curate/pipeline"
)

// TaskTOML is what a task.toml says, whatever its shape: schema 1.x
// ([task] name/description, [metadata]), older `version =` files, and
// adapters' own [task] id/repo/category/language/difficulty tables.
type TaskTOML struct {
	ID         string
	Benchmark  string
	Repo       string
	Language   string
	Category   string
	Difficulty string
	BaseCommit string
	Title      string
	// Features are numeric metadata named like pipeline features
	// (context_length, files_count, ...), keyed by name, with their key path.
	Features map[string]float64
	Sources  map[string]string
	// Extra holds every other key, flattened to "table.key", so nothing
	// the file says is lost (unknown keys included).
	Extra map[string]any
}

// featureKeys are metadata keys read as features.
var featureKeys = map[string]bool{
	pipeline.FeatFilesChanged: true, pipeline.FeatLOCChanged: true, pipeline.FeatLinesAdded: true,
	pipeline.FeatLinesRemoved: true, pipeline.FeatContextLength: true, pipeline.FeatFilesCount: true,
	pipeline.FeatSourceFiles: true, pipeline.FeatTestFiles: true, pipeline.FeatCodeRatio: true,
	pipeline.FeatRepoCount: true, pipeline.FeatCodebaseLOC: true, pipeline.FeatBaselineRuntime: true,
}

// fieldKeys are the key paths that fill each field, first present wins.
var fieldKeys = map[string][]string{
	"id":         {"task.id", "metadata.task_id", "task.task_id"},
	"benchmark":  {"metadata.benchmark", "task.benchmark"},
	"repo":       {"task.repo", "metadata.repo", "metadata.repository", "task.repository"},
	"language":   {"task.language", "metadata.language"},
	"category":   {"task.category", "metadata.category"},
	"difficulty": {"task.difficulty", "metadata.difficulty"},
	"base":       {"task.pre_fix_rev", "task.base_commit", "metadata.base_commit", "metadata.pre_fix_rev"},
}

// ParseTaskTOML reads task.toml text; name is used in messages, which
// give the line and column of a syntax error ("x/task.toml:3:7: ...").
func ParseTaskTOML(name string, data []byte) (*TaskTOML, error) {
	var doc map[string]any
	if err := toml.Unmarshal(data, &doc); err != nil {
		return nil, tomlerr.Wrap(name, err)
	}
	flat := map[string]any{}
	flatten("", doc, flat)
	t := &TaskTOML{Features: map[string]float64{}, Sources: map[string]string{}}
	take := func(field string) string {
		for _, k := range fieldKeys[field] {
			if v, ok := flat[k]; ok {
				if s, ok := scalarString(v); ok && s != "" {
					delete(flat, k)
					return s
				}
			}
		}
		return ""
	}
	t.ID, t.Benchmark, t.Repo = take("id"), take("benchmark"), take("repo")
	t.Language, t.Category, t.Difficulty, t.BaseCommit = take("language"), take("category"), take("difficulty"), take("base")
	if d, ok := flat["task.description"].(string); ok {
		t.Title = firstLine(d)
	}
	keys := make([]string, 0, len(flat))
	for k := range flat {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		table, leaf, _ := strings.Cut(k, ".")
		if table != "metadata" || !featureKeys[leaf] {
			continue
		}
		if f, ok := number(flat[k]); ok && f >= 0 {
			t.Features[leaf] = f
			t.Sources[leaf] = "task.toml " + k
			delete(flat, k)
		}
	}
	t.Extra = flat
	return t, nil
}

// flatten turns nested tables into "a.b" keys; arrays stay values.
func flatten(prefix string, m map[string]any, out map[string]any) {
	for k, v := range m {
		key := k
		if prefix != "" {
			key = prefix + "." + k
		}
		if sub, ok := v.(map[string]any); ok && len(sub) > 0 {
			flatten(key, sub, out)
			continue
		}
		out[key] = jsonSafe(v)
	}
}

// jsonSafe turns TOML's nan and inf, which JSON cannot hold, into strings
// so the task can still be stored.
func jsonSafe(v any) any {
	switch x := v.(type) {
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return strconv.FormatFloat(x, 'g', -1, 64)
		}
	case []any:
		for i := range x {
			x[i] = jsonSafe(x[i])
		}
	case map[string]any:
		for k := range x {
			x[k] = jsonSafe(x[k])
		}
	}
	return v
}

func scalarString(v any) (string, bool) {
	switch x := v.(type) {
	case string:
		return strings.TrimSpace(x), true
	case int64:
		return strconv.FormatInt(x, 10), true
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64), true
	}
	return "", false
}

// number accepts TOML numbers and numeric strings ("975000", "1_000").
func number(v any) (float64, bool) {
	switch x := v.(type) {
	case int64:
		return float64(x), true
	case float64:
		return x, x == x
	case string:
		f, err := strconv.ParseFloat(strings.ReplaceAll(strings.TrimSpace(x), "_", ""), 64)
		return f, err == nil && f == f
	}
	return 0, false
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return strings.TrimSpace(strings.TrimLeft(s, "# "))
}
