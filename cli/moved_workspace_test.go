package cli

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"curate/pipeline/validate"
	"curate/workspace"
)

// A workspace moved (or renamed) after its tasks were imported keeps
// working: list, show, validate's job list and a harbor export all find
// the task dirs at the new place. Opened through a symbolic link, it
// works on the resolved path.
func TestMovedWorkspaceKeepsItsTasks(t *testing.T) {
	src := t.TempDir()
	for _, id := range []string{"mv-one", "mv-two"} {
		dir := filepath.Join(src, id)
		os.MkdirAll(filepath.Join(dir, "tests"), 0o755)
		os.WriteFile(filepath.Join(dir, "task.toml"), []byte("[task]\nname = \"acme/"+id+"\"\n"), 0o644)
		os.WriteFile(filepath.Join(dir, "instruction.md"), []byte("Do "+id+"\n"), 0o644)
		os.WriteFile(filepath.Join(dir, "tests", "test.sh"), []byte("exit 0\n"), 0o755)
	}
	ws := newWorkspace(t)
	if _, errs, code := curate(t, "-w", ws, "import", "harbor", src); code != 0 {
		t.Fatal(errs)
	}
	if _, errs, code := curate(t, "-w", ws, "select", "--name", "mv", "--allow-infeasible"); code != 0 {
		t.Fatal(errs)
	}
	moved := filepath.Join(t.TempDir(), "renamed")
	if err := os.Rename(ws, moved); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(moved, link); err != nil {
		t.Fatal(err)
	}
	for _, root := range []string{moved, link} {
		out, errs, code := curate(t, "-w", root, "show", "mv-one", "--json")
		var shown struct {
			TaskDir string `json:"task_dir"`
		}
		if code != 0 || json.Unmarshal([]byte(out), &shown) != nil || shown.TaskDir != filepath.Join(moved, "tasks", "mv-one") {
			t.Fatalf("show via %s: task dir %q (exit %d: %s), want it under %s", root, shown.TaskDir, code, errs, moved)
		}
		w, err := workspace.Open(context.Background(), root)
		if err != nil {
			t.Fatal(err)
		}
		if w.Root != moved {
			t.Errorf("opened via %s: root %s, want the resolved %s", root, w.Root, moved)
		}
		tasks, _ := w.Store.Tasks(context.Background())
		jobs, skips := validate.Jobs(w.Root, tasks, []string{"nop"})
		w.Close()
		if len(jobs) != 2 || len(skips) != 0 {
			t.Errorf("validate via %s: %d jobs, skips %+v", root, len(jobs), skips)
		}
		out, errs, code = curate(t, "-w", root, "list")
		if code != 0 || !strings.Contains(out, "mv-two") {
			t.Errorf("list via %s: %s %s", root, out, errs)
		}
		dest := filepath.Join(t.TempDir(), "dataset")
		if _, errs, code := curate(t, "-w", root, "export", "--format", "harbor", "--allow-unvalidated", "--out", dest); code != 0 {
			t.Fatalf("export via %s: %s", root, errs)
		}
		// Exit 0 says no selected task dir was missing; one is there.
		if dirs, _ := filepath.Glob(filepath.Join(dest, "mv-*", "task.toml")); len(dirs) == 0 {
			t.Errorf("export via %s wrote no task dir", root)
		}
	}
}
