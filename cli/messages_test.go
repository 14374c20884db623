package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The messages issue 18 found wrong or misleading.
func TestNewcomerMessages(t *testing.T) {
	ws := newWorkspace(t)
	code, _, errs := cli(t, "-w", ws, "label", "--filter", "benchmark=nothing-like-this", "--pin")
	if code == 0 || !strings.Contains(errs, `no task matches "benchmark=nothing-like-this": nothing changed (check it with curate list --filter 'benchmark=nothing-like-this'; --allow-empty accepts an empty match)`) {
		t.Errorf("label matching nothing: exit %d %q", code, errs)
	}
	_, out, _ := cli(t, "-w", ws, "label", "--filter", "benchmark=nothing-like-this", "--pin", "--allow-empty")
	if !strings.Contains(out, `No task matches "benchmark=nothing-like-this": nothing changed.`) {
		t.Errorf("label matching nothing with --allow-empty: %q", out)
	}
	for _, args := range [][]string{{"build", "--filter", "repo=nobody/none"}, {"validate", "--filter", "repo=nobody/none"}} {
		if code, _, errs := cli(t, append([]string{"-w", ws}, args...)...); code == 0 || !strings.Contains(errs, "no task matches") {
			t.Errorf("%v matching nothing: exit %d %q", args, code, errs)
		}
		if code, out, errs := cli(t, append(append([]string{"-w", ws}, args...), "--allow-empty")...); code != 0 || !strings.Contains(out, "No task matches") {
			t.Errorf("%v --allow-empty: exit %d %q %q", args, code, out, errs)
		}
	}
	if code, _, errs := cli(t, "-w", ws, "list", "--filter", "status=vaild"); code == 0 || !strings.Contains(errs, "did you mean valid?") {
		t.Errorf("list with a misspelt status: exit %d %q", code, errs)
	}
	_, out, _ = cli(t, "env", "prune", "--help")
	if !strings.Contains(out, "--base ") || strings.Contains(out, "--base curate env bootstrap") {
		t.Errorf("env prune --help shows the flag as:\n%s", out)
	}
	_, out, _ = cli(t, "demo", "--help")
	if strings.Contains(out, "two built") || !strings.Contains(out, "four built") {
		t.Errorf("demo --help: %s", out)
	}
}

func TestUndoNamesTheBatch(t *testing.T) {
	ws := demoWorkspace(t)
	for _, args := range [][]string{{"label", "sgt-008", "--pin"}, {"label", "sgt-008", "sgt-025", "--difficulty", "hard"}} {
		if code, _, errs := cli(t, append([]string{"-w", ws}, args...)...); code != 0 {
			t.Fatal(errs)
		}
	}
	_, out, _ := cli(t, "-w", ws, "undo")
	// The undo's events have # numbers of their own; what it reverts is
	// named as the batch (the second label call), never as an event number.
	if !strings.Contains(out, "[undo of batch 2]") || strings.Contains(out, "of #") {
		t.Errorf("undo: %s", out)
	}
}

// demo --dir refuses a folder of someone else's files and writes nothing
// into it.
func TestDemoRefusesANonEmptyFolder(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errs := cli(t, "demo", "--dir", dir, "--no-open")
	if code == 0 || !strings.Contains(errs, "is not empty and not a curate workspace") {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("demo wrote into the folder: %d entries", len(entries))
	}
}
