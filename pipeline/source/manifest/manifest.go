// Package manifest imports a selection manifest (selected_benchmark_tasks.json):
// catalogue entries for the tasks it lists, and the selection it records,
// so a curator can compare an earlier choice with a new one.
package manifest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"reflect"
	"sort"
	"strings"

	"curate/pipeline"
	"curate/pipeline/taskvalue"
)

// EntryError is one task entry that could not be used.
type EntryError struct {
	File  string
	Line  int // where the entry starts
	Index int // 1-based position in tasks
	Err   error
}

func (e *EntryError) Error() string {
	return fmt.Sprintf("%s:%d: tasks[%d]: %v", e.File, e.Line, e.Index, e.Err)
}

// Parse reads a manifest. A file that is not a manifest is one error
// naming the file (with line and column where the problem is); each entry
// goes through the strict task-value reader, and a bad entry comes back on
// its own with its line and key while the good ones are still used.
func Parse(name string, data []byte) (*pipeline.Manifest, []*EntryError, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	at := func(off int64, format string, args ...any) error {
		line, col := lineCol(data, off)
		return fmt.Errorf("%s:%d:%d: %s", name, line, col, fmt.Sprintf(format, args...))
	}
	syntax := func(err error) error {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			// A Decoder's offset counts from the value it was decoding;
			// the whole file gives the offset in the file.
			var whole any
			if errors.As(json.Unmarshal(data, &whole), &se) {
				return at(se.Offset-1, "%v", se)
			}
			return at(se.Offset-1, "%v", err)
		}
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return at(int64(len(data)), "unexpected end of the file")
		}
		return fmt.Errorf("%s: %w", name, err)
	}
	var m pipeline.Manifest
	var raws []rawEntry
	if tok, err := dec.Token(); err != nil {
		return nil, nil, syntax(err)
	} else if tok != json.Delim('{') {
		return nil, nil, at(0, "the file must be a JSON object with a \"tasks\" list (a selected_benchmark_tasks.json manifest)")
	}
	sawTasks := false
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, nil, syntax(err)
		}
		key, _ := tok.(string)
		off := valueStart(data, dec.InputOffset())
		switch key {
		case "metadata", "methodology", "statistics":
			var raw json.RawMessage
			if err := dec.Decode(&raw); err != nil {
				return nil, nil, syntax(err)
			}
			if string(raw) == "null" {
				continue
			}
			target := map[string]any{"metadata": &m.Metadata, "methodology": &m.Methodology, "statistics": &m.Statistics}[key]
			if raw[0] != '{' {
				return nil, nil, at(off, "%s must be an object", key)
			}
			if err := json.Unmarshal(raw, target); err != nil {
				var te *json.UnmarshalTypeError
				if errors.As(err, &te) {
					return nil, nil, at(off+te.Offset-1, "%s.%s must be %s, not %s", key, te.Field, jsonKind(te.Type), te.Value)
				}
				return nil, nil, at(off, "%s: %v", key, err)
			}
		case "tasks":
			sawTasks = true
			if raws, err = readEntries(dec, data); err != nil {
				if _, ok := err.(notList); ok {
					return nil, nil, at(off, "tasks must be a list of task objects")
				}
				return nil, nil, syntax(err)
			}
		default:
			var skip json.RawMessage
			if err := dec.Decode(&skip); err != nil {
				return nil, nil, syntax(err)
			}
		}
	}
	if _, err := dec.Token(); err != nil {
		return nil, nil, syntax(err)
	}
	if !sawTasks {
		return nil, nil, fmt.Errorf("%s: no \"tasks\" list: not a selected_benchmark_tasks.json manifest", name)
	}
	var bad []*EntryError
	seen := map[string]int{}
	m.Tasks = []pipeline.ManifestTask{}
	for i, r := range raws {
		line, _ := lineCol(data, r.offset)
		e, err := parseEntry(r.data)
		if err == nil && seen[e.TaskID] > 0 {
			err = fmt.Errorf("task %q listed twice (first at tasks[%d])", e.TaskID, seen[e.TaskID])
		}
		if err != nil {
			bad = append(bad, &EntryError{name, line, i + 1, err})
			continue
		}
		seen[e.TaskID] = i + 1
		m.Tasks = append(m.Tasks, e)
	}
	return &m, bad, nil
}

// rawEntry is one element of tasks with where it starts in the file.
type rawEntry struct {
	offset int64
	data   json.RawMessage
}

type notList struct{}

func (notList) Error() string { return "not a list" }

func readEntries(dec *json.Decoder, data []byte) ([]rawEntry, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	if tok != json.Delim('[') {
		if d, ok := tok.(json.Delim); ok && d == '{' {
			var skip json.RawMessage // finish the object so later syntax is still checked
			for dec.More() {
				if _, err := dec.Token(); err != nil {
					return nil, err
				}
				if err := dec.Decode(&skip); err != nil {
					return nil, err
				}
			}
		}
		return nil, notList{}
	}
	var out []rawEntry
	for dec.More() {
		off := valueStart(data, dec.InputOffset())
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, err
		}
		out = append(out, rawEntry{off, raw})
	}
	_, err = dec.Token() // ']'
	return out, err
}

// valueStart skips the separators a decoder's offset may still point at.
func valueStart(data []byte, off int64) int64 {
	for off < int64(len(data)) {
		switch data[off] {
		case ' ', '\t', '\r', '\n', ',', ':':
			off++
			continue
		}
		break
	}
	return off
}

// parseEntry checks one entry's keys with the strict task-value reader.
func parseEntry(raw json.RawMessage) (pipeline.ManifestTask, error) {
	var e pipeline.ManifestTask
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil {
		return e, fmt.Errorf("want a task object, got %s", clip(raw))
	}
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	str := func(v any) string { s, _ := v.(string); return s }
	for _, k := range keys {
		if k == "mcp_breakdown" {
			if string(obj[k]) == "null" {
				continue
			}
			var b pipeline.ScoreBreakdown
			if err := json.Unmarshal(obj[k], &b); err != nil || !finiteBreakdown(b) {
				return e, &taskvalue.Error{Key: k, Reason: "want an object of four finite numbers and their rules (got " + clip(obj[k]) + ")"}
			}
			e.MCPBreakdown = &b
			continue
		}
		var v any
		if err := json.Unmarshal(obj[k], &v); err != nil {
			return e, &taskvalue.Error{Key: k, Reason: "want a finite number (got " + clip(obj[k]) + ")"}
		}
		if v == nil {
			continue
		}
		spec, known := taskvalue.Manifest[k]
		if !known {
			if err := taskvalue.CheckAny(k, v, 0); err != nil {
				return e, err
			}
			continue
		}
		cv, err := taskvalue.Check(k, spec, v)
		if err != nil {
			return e, err
		}
		switch k {
		case "mcp_benefit_score":
			f := cv.(float64)
			e.MCPBenefitScore = &f
		default:
			*entryField(&e, k) = str(cv)
		}
	}
	if e.TaskID == "" {
		return e, fmt.Errorf("no task_id")
	}
	return e, nil
}

// entryField is the string field a known key fills.
func entryField(e *pipeline.ManifestTask, key string) *string {
	return map[string]*string{"task_id": &e.TaskID, "benchmark": &e.Benchmark, "sdlc_phase": &e.SDLCPhase,
		"language": &e.Language, "difficulty": &e.Difficulty, "category": &e.Category, "repo": &e.Repo,
		"selection_rationale": &e.SelectionRationale, "task_dir": &e.TaskDir}[key]
}

// jsonKind names a Go type in JSON's words, for messages.
func jsonKind(t reflect.Type) string {
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Slice, reflect.Array:
		return "a list"
	case reflect.Map, reflect.Struct:
		return "an object"
	case reflect.Float32, reflect.Float64:
		return "a number"
	}
	return "a whole number"
}

func finiteBreakdown(b pipeline.ScoreBreakdown) bool {
	for _, f := range []float64{b.ContextComplexity, b.CrossFileDeps, b.SemanticSearchPotential, b.TaskCategoryWeight} {
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return false
		}
	}
	return true
}

func clip(b []byte) string {
	if len(b) > 60 {
		return string(b[:60]) + "…"
	}
	return string(b)
}

// SelectionName is the snapshot's name: the manifest's file name without
// its extension ("selected_benchmark_tasks").
func SelectionName(path string) string {
	return strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
}

// Task makes the catalogue entry for a listed task that has no task dir.
// What the manifest computed (phase, score, breakdown) is kept in Extra as
// manifest_* so the curator can compare it with this workspace's profile.
func Task(e pipeline.ManifestTask, path string) *pipeline.Task {
	t := &pipeline.Task{ID: e.TaskID, Benchmark: e.Benchmark, Source: "manifest", SourcePath: path, Repo: e.Repo,
		Language: e.Language, Category: e.Category, Status: pipeline.StatusImported, Extra: map[string]any{}}
	t.DifficultyImported = pipeline.Difficulty(e.Difficulty) // checked by Parse
	put := func(k string, v any, ok bool) {
		if ok {
			t.Extra[k] = v
		}
	}
	put("manifest_sdlc_phase", e.SDLCPhase, e.SDLCPhase != "")
	put("manifest_task_dir", e.TaskDir, e.TaskDir != "")
	put("selection_rationale", e.SelectionRationale, e.SelectionRationale != "")
	if e.MCPBenefitScore != nil {
		t.Extra["manifest_mcp_benefit_score"] = *e.MCPBenefitScore
	}
	if e.MCPBreakdown != nil {
		t.Extra["manifest_mcp_breakdown"] = e.MCPBreakdown
	}
	if e.Benchmark == "" {
		t.Benchmark = "manifest"
	}
	return t
}

// Selection is the snapshot of what the manifest chose, in its order.
func Selection(m *pipeline.Manifest, path string) *pipeline.Selection {
	sel := &pipeline.Selection{Name: SelectionName(path), Source: "manifest:" + path,
		Config: map[string]any{"metadata": m.Metadata, "methodology": m.Methodology}, Stats: asMap(m.Statistics)}
	for i, e := range m.Tasks {
		sel.Tasks = append(sel.Tasks, pipeline.SelectedTask{TaskID: e.TaskID, Rationale: e.SelectionRationale, Rank: i + 1})
	}
	return sel
}

func lineCol(data []byte, off int64) (int, int) {
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	if off < 0 {
		off = 0
	}
	before := data[:off]
	return bytes.Count(before, []byte("\n")) + 1, int(off) - bytes.LastIndexByte(before, '\n')
}

// asMap is v as the JSON object it encodes to.
func asMap(v any) map[string]any {
	data, _ := json.Marshal(v)
	var m map[string]any
	json.Unmarshal(data, &m)
	return m
}
