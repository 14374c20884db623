// Package manifest imports a selection manifest (selected_benchmark_tasks.json):
// catalogue entries for the tasks it lists, and the selection it records,
// so a curator can compare an earlier choice with a new one.
package manifest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"curate/pipeline"
)

// EntryError is one task entry that could not be used.
type EntryError struct {
	File  string
	Index int // 1-based position in tasks
	Err   error
}

func (e *EntryError) Error() string { return fmt.Sprintf("%s: tasks[%d]: %v", e.File, e.Index, e.Err) }

// Parse reads a manifest. A file that is not a manifest is one error
// naming the file (with line and column for a JSON syntax error); bad
// entries come back one by one and the good ones are still used.
func Parse(name string, data []byte) (*pipeline.Manifest, []*EntryError, error) {
	var m pipeline.Manifest
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&m); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			line, col := lineCol(data, se.Offset-1)
			return nil, nil, fmt.Errorf("%s:%d:%d: %v", name, line, col, err)
		}
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			line, col := lineCol(data, te.Offset-1)
			return nil, nil, fmt.Errorf("%s:%d:%d: %s must be %s, not %s", name, line, col, te.Field, te.Type, te.Value)
		}
		return nil, nil, fmt.Errorf("%s: %w", name, err)
	}
	if m.Tasks == nil {
		return nil, nil, fmt.Errorf("%s: no \"tasks\" list: not a selected_benchmark_tasks.json manifest", name)
	}
	var bad []*EntryError
	seen := map[string]int{}
	good := m.Tasks[:0]
	for i, e := range m.Tasks {
		e.TaskID = strings.TrimSpace(e.TaskID)
		var err error
		switch {
		case e.TaskID == "":
			err = fmt.Errorf("no task_id")
		case seen[e.TaskID] > 0:
			err = fmt.Errorf("task %q listed twice (first at tasks[%d])", e.TaskID, seen[e.TaskID])
		}
		if err != nil {
			bad = append(bad, &EntryError{name, i + 1, err})
			continue
		}
		seen[e.TaskID] = i + 1
		good = append(good, e)
	}
	m.Tasks = good
	return &m, bad, nil
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
	if d, err := pipeline.ParseDifficulty(e.Difficulty); err == nil {
		t.DifficultyImported = d
	} else {
		t.Extra["difficulty"] = e.Difficulty
	}
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
