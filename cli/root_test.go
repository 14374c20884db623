package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// cli runs curate in-process and returns exit code, stdout, stderr. Every
// CLI test in this package shares it.
func cli(t testing.TB, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := Run(context.Background(), args, strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

// newWorkspace makes an empty workspace with `curate init --profile ccb`:
// the tests using it import CodeContextBench's fixtures and expect its
// phases, scores and strategies.
func newWorkspace(t testing.TB) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "ws")
	if code, _, errs := cli(t, "init", "--profile", "ccb", dir); code != 0 {
		t.Fatalf("init: %s", errs)
	}
	return dir
}

// demoWorkspace makes one demo workspace per test.
func demoWorkspace(t testing.TB) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "demo")
	if code, _, errs := cli(t, "demo", "--dir", dir, "--no-open"); code != 0 {
		t.Fatalf("demo: %s", errs)
	}
	return dir
}

func TestDemoListLabelUndo(t *testing.T) {
	ws := demoWorkspace(t)
	code, out, errs := cli(t, "-w", ws, "list", "--json")
	if code != 0 {
		t.Fatal(errs)
	}
	var tasks []map[string]any
	if err := json.Unmarshal([]byte(out), &tasks); err != nil {
		t.Fatalf("list --json is not JSON: %v", err)
	}
	if len(tasks) < 300 {
		t.Fatalf("demo has %d tasks", len(tasks))
	}
	for _, field := range []string{"id", "benchmark", "repo", "language", "category", "sdlc_phase", "difficulty", "difficulty_imported",
		"difficulty_calibrated", "difficulty_label", "mcp_benefit_score", "mcp_breakdown", "files_changed", "loc_changed", "status",
		"excluded", "pinned", "task_dir"} {
		if _, ok := tasks[0][field]; !ok {
			t.Errorf("list --json lacks %q", field)
		}
	}

	if code, _, errs := cli(t, "-w", ws, "label", "sgt-008", "--difficulty", "critical", "--note", "110 files"); code != 0 {
		t.Fatal(errs)
	}
	_, out, _ = cli(t, "-w", ws, "show", "sgt-008", "--json")
	var one map[string]any
	json.Unmarshal([]byte(out), &one)
	if one["difficulty"] != "critical" || one["difficulty_label"] != "critical" {
		t.Fatalf("label not effective: %v %v", one["difficulty"], one["difficulty_label"])
	}
	_, out, _ = cli(t, "-w", ws, "list", "--filter", "labelled=true", "--json")
	json.Unmarshal([]byte(out), &tasks)
	if len(tasks) != 1 {
		t.Fatalf("filter labelled=true gave %d tasks", len(tasks))
	}
	if code, _, errs := cli(t, "-w", ws, "undo", "--json"); code != 0 {
		t.Fatal(errs)
	}
	_, out, _ = cli(t, "-w", ws, "show", "sgt-008", "--json")
	json.Unmarshal([]byte(out), &one)
	if one["difficulty_label"] != "" {
		t.Fatalf("undo left label %v", one["difficulty_label"])
	}
	_, out, _ = cli(t, "-w", ws, "history", "--json")
	var events []map[string]any
	json.Unmarshal([]byte(out), &events)
	if len(events) != 2 || events[0]["kind"] != "undo" {
		t.Fatalf("history: %s", out)
	}
}

func TestBulkLabelByFilter(t *testing.T) {
	ws := demoWorkspace(t)
	code, out, errs := cli(t, "-w", ws, "label", "--filter", "benchmark=ccb_dibench language=csharp", "--pin")
	if code != 0 {
		t.Fatal(errs)
	}
	if !strings.Contains(out, "change(s) on 10 task(s)") {
		t.Fatalf("bulk label output: %s", out)
	}
	cli(t, "-w", ws, "undo")
	_, out, _ = cli(t, "-w", ws, "list", "--filter", "pinned=true", "--json")
	if strings.Count(out, `"id"`) != 0 {
		t.Fatalf("one undo should revert the whole bulk step: %s", out)
	}
}

func TestBadInputExitsNonZero(t *testing.T) {
	ws := demoWorkspace(t)
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"unknown id", []string{"show", "no-such-task"}, `task "no-such-task": not found`},
		{"unknown id in label", []string{"label", "no-such-task", "--difficulty", "hard"}, "not found"},
		{"invalid difficulty", []string{"label", "sgt-008", "--difficulty", "impossible"}, "invalid difficulty"},
		{"invalid phase", []string{"label", "sgt-008", "--phase", "coding"}, "invalid SDLC phase"},
		{"bad filter", []string{"list", "--filter", "colour=red"}, "unknown field"},
		{"bad sort", []string{"list", "--sort", "colour"}, "unknown sort key"},
		{"nothing to change", []string{"label", "sgt-008"}, "nothing to change"},
		{"not a workspace", []string{"-w", t.TempDir(), "list"}, "not a curate workspace"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			args := append([]string{"-w", ws}, c.args...)
			code, _, errs := cli(t, args...)
			if code == 0 || !strings.Contains(errs, c.want) {
				t.Fatalf("exit %d, stderr %q; want non-zero and %q", code, errs, c.want)
			}
		})
	}
	if _, out, _ := cli(t, "-w", ws, "history", "--json"); strings.TrimSpace(out) != "[]" {
		t.Fatalf("failed commands wrote events: %s", out)
	}
}

func TestBadWorkspaceFiles(t *testing.T) {
	t.Run("config unknown key", func(t *testing.T) {
		ws := demoWorkspace(t)
		cfg := filepath.Join(ws, "curate.toml")
		data, _ := os.ReadFile(cfg)
		os.WriteFile(cfg, append(data, []byte("\n[ui.extra]\nfoo = 1\n")...), 0o644)
		code, _, errs := cli(t, "-w", ws, "list")
		if code == 0 || !strings.Contains(errs, cfg+":") || !strings.Contains(errs, "unknown key") {
			t.Fatalf("exit %d: %s", code, errs)
		}
	})
	t.Run("config type error", func(t *testing.T) {
		ws := demoWorkspace(t)
		cfg := filepath.Join(ws, "curate.toml")
		os.WriteFile(cfg, []byte("[docker]\nconcurrency = \"lots\"\n"), 0o644)
		code, _, errs := cli(t, "-w", ws, "list")
		if code == 0 || !strings.Contains(errs, cfg+":2:") {
			t.Fatalf("exit %d: %s", code, errs)
		}
	})
	t.Run("corrupt database", func(t *testing.T) {
		ws := demoWorkspace(t)
		db := filepath.Join(ws, ".curate", "curate.db")
		os.Remove(db + "-wal")
		os.Remove(db + "-shm")
		junk := bytes.Repeat([]byte("not sqlite "), 100)
		os.WriteFile(db, junk, 0o644)
		code, _, errs := cli(t, "-w", ws, "list")
		if code == 0 || !strings.Contains(errs, db) {
			t.Fatalf("exit %d: %s", code, errs)
		}
		if after, _ := os.ReadFile(db); !bytes.Equal(after, junk) {
			t.Fatal("the corrupt database was modified")
		}
	})
}

func TestVersion(t *testing.T) {
	code, out, _ := cli(t, "--version")
	if code != 0 || !strings.HasPrefix(out, "curate ") || !strings.Contains(out, "go1.") {
		t.Fatalf("--version: %d %q", code, out)
	}
}

// `curate` with stdin from /dev/null is not at a terminal: no demo offer,
// no demo workspace, the usual error.
func TestNoTerminalNoDemo(t *testing.T) {
	t.Chdir(t.TempDir())
	t.Setenv("CURATE_WORKSPACE", "")
	null, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	if isTerminal(null) {
		t.Fatal("/dev/null counts as a terminal")
	}
	var out, errb bytes.Buffer
	code := Run(context.Background(), nil, null, &out, &errb)
	if code == 0 || strings.Contains(out.String(), "demo") || !strings.Contains(errb.String(), "workspace") {
		t.Fatalf("exit %d\nout: %s\nerr: %s", code, out.String(), errb.String())
	}
}
