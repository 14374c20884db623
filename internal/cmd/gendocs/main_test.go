package main

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"curate/ui/shared"
)

// The checked-in man pages are what the command tree makes now: after
// changing a command, run `go run ./internal/cmd/gendocs` from the
// repository root.
func TestManPagesAreCurrent(t *testing.T) {
	fresh := t.TempDir()
	if err := Generate(fresh); err != nil {
		t.Fatal(err)
	}
	checked := filepath.Join("..", "..", "..", "docs", "man")
	want := pages(t, fresh)
	got := pages(t, checked)
	if len(want) < 20 {
		t.Fatalf("only %d man pages generated", len(want))
	}
	for name, text := range want {
		if old, ok := got[name]; !ok {
			t.Errorf("docs/man/%s is missing: run `go run ./internal/cmd/gendocs`", name)
		} else if old != text {
			t.Errorf("docs/man/%s is not current: run `go run ./internal/cmd/gendocs`", name)
		}
	}
	for name := range got {
		if _, ok := want[name]; !ok {
			t.Errorf("docs/man/%s names no command: run `go run ./internal/cmd/gendocs`", name)
		}
	}
	// The same tree twice gives the same bytes (no dates, no machine).
	again := t.TempDir()
	if err := Generate(again); err != nil {
		t.Fatal(err)
	}
	for name, text := range pages(t, again) {
		if want[name] != text {
			t.Errorf("%s differs between two runs", name)
		}
	}
}

// docs/keys.md is the workbench's key table as it is now.
func TestKeysPageIsCurrent(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "..", "docs", "keys.md"))
	if err != nil || string(data) != shared.KeysMarkdown() {
		t.Errorf("docs/keys.md is not current (%v): run `go run ./internal/cmd/gendocs`", err)
	}
}

// docs/workbench.md's key tables are the key table as it is now, one per
// scope, not hand-written ones (which said J/K move between tasks).
func TestWorkbenchKeyTablesAreCurrent(t *testing.T) {
	path := filepath.Join("..", "..", "..", "docs", "workbench.md")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	fresh, err := shared.ReplaceKeyTables("docs/workbench.md", string(data))
	if err != nil {
		t.Fatal(err)
	}
	if fresh != string(data) {
		t.Errorf("docs/workbench.md's key tables are not current: run `go run ./internal/cmd/gendocs`")
	}
	for _, scope := range shared.KeyScopes() {
		if !strings.Contains(fresh, "<!-- keys: "+scope+" -->") {
			t.Errorf("docs/workbench.md has no generated key table for %s", scope)
		}
	}
	if strings.Contains(fresh, "`J`/`K` next/previous task") {
		t.Error("docs/workbench.md still says J/K move between tasks")
	}
}

// A marked block naming no scope, or left open, is refused with the line.
func TestReplaceKeyTablesRejectsBadMarkers(t *testing.T) {
	for page, want := range map[string]string{
		"a\n<!-- keys: Nowhere -->\n<!-- end keys -->\n": "p.md:2: no key scope \"Nowhere\"",
		"<!-- keys: Task -->\nold\n":                     "p.md:1: key table block not closed",
		"<!-- end keys -->\n":                            "p.md:1: <!-- end keys --> with no block open",
	} {
		if _, err := shared.ReplaceKeyTables("p.md", page); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", page, err, want)
		}
	}
}

func pages(t *testing.T, dir string) map[string]string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.1"))
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(files)
	out := map[string]string{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out[filepath.Base(f)] = string(data)
	}
	return out
}
