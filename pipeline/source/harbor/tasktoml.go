// Package harbor imports Harbor task directories (task.toml,
// instruction.md, environment/, solution/, tests/) in every task.toml
// shape benchmarks use, keeping keys it does not model so nothing is lost.
package harbor

import (
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/pelletier/go-toml/v2"

	"curate/internal/tomlerr"
	"curate/internal/tomlpos"
	"curate/pipeline/taskvalue"
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
// give the line and column of a syntax error ("x/task.toml:3:7: ...") and
// of a value the strict reader refuses ("x/task.toml:9:1: environment.cpus:
// want a number > 0 (got -1)").
func ParseTaskTOML(name string, data []byte) (*TaskTOML, error) {
	if err := tomlpos.CheckDepth(data); err != nil {
		return nil, tomlpos.WrapDepth(name, err)
	}
	var doc map[string]any
	if err := toml.Unmarshal(data, &doc); err != nil {
		return nil, tomlerr.Wrap(name, err)
	}
	flat := map[string]any{}
	flatten(make([]byte, 0, 256), doc, flat)
	checked, err := checkValues(flat)
	if err != nil {
		var ve *taskvalue.Error
		if errors.As(err, &ve) {
			p := tomlpos.Find(tomlpos.Positions(data), ve.Key)
			return nil, fmt.Errorf("%s:%d:%d: %w", name, p.Line, p.Col, err)
		}
		return nil, fmt.Errorf("%s: %w", name, err)
	}
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
		if table != "metadata" || !taskvalue.FeatureKeys[leaf] {
			continue
		}
		t.Features[leaf] = checked[k].(float64) // a finite number >= 0
		t.Sources[leaf] = "task.toml " + k
		delete(flat, k)
	}
	t.Extra = flat
	return t, nil
}

// flatten turns nested tables into "a.b" keys; arrays stay values. The
// path grows and shrinks in one buffer and only a leaf's key is made a
// string, so the cost is the size of the keys flattened, not of every
// prefix at every level.
func flatten(path []byte, m map[string]any, out map[string]any) {
	for k, v := range m {
		key := path
		if len(key) > 0 {
			key = append(key, '.')
		}
		key = append(key, k...)
		if sub, ok := v.(map[string]any); ok && len(sub) > 0 {
			flatten(key, sub, out)
			continue
		}
		out[string(key)] = v
	}
}

// checkValues runs the strict reader over every key, in key order so the
// first refusal reported is the same on every run, and returns the known
// keys normalised (numbers as float64); flat keeps what the file says, for
// extra's round trip.
func checkValues(flat map[string]any) (map[string]any, error) {
	checked := map[string]any{}
	keys := make([]string, 0, len(flat))
	for k := range flat {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		spec, known := taskvalue.TaskTOML[k]
		if !known {
			if err := taskvalue.CheckAny(k, flat[k], 0); err != nil {
				return nil, err
			}
			continue
		}
		v, err := taskvalue.Check(k, spec, flat[k])
		if err != nil {
			return nil, err
		}
		checked[k] = v
	}
	return checked, nil
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

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return strings.TrimSpace(strings.TrimLeft(s, "# "))
}
