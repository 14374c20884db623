package taskvalue

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
)

func TestCheck(t *testing.T) {
	cases := []struct {
		key  string
		v    any
		want any    // normalised value, when ok
		err  string // else part of the message
	}{
		{"environment.memory", "8G", 8192.0, ""},
		{"environment.memory", "512m", 512.0, ""},
		{"environment.memory", int64(2048), 2048.0, ""},
		{"environment.memory", "-1G", nil, "want a positive size"},
		{"environment.cpus", 0.5, 0.5, ""},
		{"environment.cpus", math.Inf(1), nil, "want a finite number"},
		{"metadata.codebase_loc", "1_000", 1000.0, ""},
		{"metadata.difficulty", "15 min - 1 hour", "medium", ""},
		{"task.id", "a..b", nil, "not usable as a folder name"},
		{"task.id", "owner__repo.1a2b3c4d.pr_12", "owner__repo.1a2b3c4d.pr_12", ""},
		{"metadata.tags", []any{"a", int64(1)}, nil, "item 2 is 1"},
		{"environment.network_mode", "host", nil, "want one of public"},
		// Values no machine has are refused, naming the range.
		{"environment.memory_mb", int64(1000000000), nil, "want at most 16777216"},
		{"environment.memory", "1P", nil, "want a positive size"},
		{"environment.memory", "2000T", nil, "want at most 16777216 MB"},
		{"environment.memory_mb", int64(2), nil, "want at least 6"},
		{"environment.pids_limit", 1e12, nil, "want at most 4194304"},
		{"environment.pids_limit", int64(4194304), 4194304.0, ""},
		{"environment.cpus", int64(4096), nil, "want at most 1024"},
		{"environment.cpus", 0.001, nil, "want at least 0.01"},
		{"environment.cpus", int64(64), 64.0, ""}, // within range: clamped to the workspace cap at run time
		{"verifier.timeout_sec", 1e9, nil, "want at most 604800"},
	}
	for _, c := range cases {
		got, err := Check(c.key, TaskTOML[c.key], c.v)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) || !strings.HasPrefix(err.Error(), c.key+": ") {
				t.Errorf("%s = %v: err %v, want %q", c.key, c.v, err, c.err)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("%s = %v: got %v %v, want %v", c.key, c.v, got, err, c.want)
		}
	}
}

func TestCheckAnyCaps(t *testing.T) {
	deep := any("x")
	for i := 0; i < MaxDepth+2; i++ {
		deep = []any{deep}
	}
	for _, c := range []struct {
		v   any
		err string
	}{
		{deep, "nested deeper than 16 levels"},
		{make([]any, MaxItems+1), "100001 items is over the 100000-item limit"},
		{map[string]any{"a": []any{1.0, math.NaN()}}, "k.a[2]: want a finite number (got NaN)"},
		{strings.Repeat("é", MaxText), "2.0 MB is over the 1.0 MB limit"},
		{"\xff", "not UTF-8 text"},
	} {
		if err := CheckAny("k", c.v, 0); err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("err %v, want %q", err, c.err)
		}
	}
	if err := CheckAny("k", map[string]any{"a": []any{"x", 1.0, true, nil}}, 0); err != nil {
		t.Error(err)
	}
}

// Any JSON value under any known key: Check either refuses it with the
// key named or returns a value of the kind the spec promises.
func FuzzCheck(f *testing.F) {
	f.Add("metadata.codebase_loc", `1e308`)
	f.Add("environment.memory", `"8G"`)
	f.Add("task.id", `"../x"`)
	f.Add("metadata.tags", `["a", 1]`)
	f.Fuzz(func(t *testing.T, key, raw string) {
		spec, ok := TaskTOML[key]
		if !ok {
			spec = Spec{Kind: String}
		}
		var v any
		if json.Unmarshal([]byte(raw), &v) != nil {
			return
		}
		got, err := Check(key, spec, v)
		if err != nil {
			if !strings.HasPrefix(err.Error(), key+": ") || len(err.Error()) > len(key)+400 {
				t.Fatalf("message %q", err)
			}
			return
		}
		switch spec.Kind {
		case Feature, Positive, Size:
			f := got.(float64)
			if math.IsNaN(f) || math.IsInf(f, 0) || f < 0 {
				t.Fatalf("%s accepted %v", key, f)
			}
		case ID:
			if CheckID(key, got.(string)) != nil {
				t.Fatalf("unsafe id %q accepted", got)
			}
		}
		if CheckAny(key, got, MaxPatch) != nil && spec.Kind != StringList {
			t.Fatalf("accepted value fails CheckAny: %v", got)
		}
	})
}
