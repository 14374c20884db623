package app

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"curate/workspace"
)

func openTestWorkspace(t *testing.T) *workspace.Workspace {
	t.Helper()
	root, err := workspace.InitProfile(filepath.Join(t.TempDir(), "ws"), "ccb")
	if err != nil {
		t.Fatal(err)
	}
	ws, err := workspace.Open(context.Background(), root)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	return ws
}

func writeTaskDir(t *testing.T, dir, taskTOML string) {
	t.Helper()
	os.MkdirAll(filepath.Join(dir, "tests"), 0o755)
	os.WriteFile(filepath.Join(dir, "task.toml"), []byte(taskTOML), 0o644)
	os.WriteFile(filepath.Join(dir, "instruction.md"), []byte("Fix it.\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "tests", "test.sh"), []byte("exit 0\n"), 0o755)
}

// A SWE-bench row whose id names a Harbor task is refused (the task keeps
// its source and dir); with Rename it comes in as ID-2.
func TestImportNeverReplacesAnotherSourcesTask(t *testing.T) {
	ctx := context.Background()
	ws := openTestWorkspace(t)
	src := filepath.Join(t.TempDir(), "astropy__astropy-14508")
	writeTaskDir(t, src, "[task]\nname = \"x/astropy\"\n")
	if sum, err := ImportHarbor(ctx, ws, []string{src}, ImportOptions{}); err != nil || len(sum.Imported) != 1 {
		t.Fatalf("harbor import: %+v %v", sum, err)
	}
	before, _ := ws.Store.Task(ctx, "astropy__astropy-14508")
	rows := "../testdata/import/swebench/verified.jsonl"
	sum, err := ImportSWEbench(ctx, ws, []string{rows}, ImportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	refused := false
	for _, f := range sum.Failed {
		refused = refused || strings.Contains(f.Reason, `"astropy__astropy-14508" is already a task from harbor`)
	}
	if !refused || contains(sum.Updated, "astropy__astropy-14508") {
		t.Fatalf("summary %+v: want the colliding row refused", sum)
	}
	after, _ := ws.Store.Task(ctx, "astropy__astropy-14508")
	if after.Source != "harbor" || after.TaskDir != before.TaskDir || after.Digest != before.Digest {
		t.Errorf("the harbor task changed: %+v", after)
	}
	sum, err = ImportSWEbench(ctx, ws, []string{rows}, ImportOptions{Rename: true})
	if err != nil || !contains(sum.Imported, "astropy__astropy-14508-2") {
		t.Fatalf("rename: %+v %v", sum, err)
	}
	if t2, err := ws.Store.Task(ctx, "astropy__astropy-14508-2"); err != nil || t2.Source != "swebench" {
		t.Errorf("renamed row: %+v %v", t2, err)
	}
	sum, err = ImportSWEbench(ctx, ws, []string{rows}, ImportOptions{Rename: true})
	if err != nil || contains(sum.Imported, "astropy__astropy-14508-3") || !contains(sum.Unchanged, "astropy__astropy-14508-2") {
		t.Errorf("a second --rename import: %+v %v; want ID-2 unchanged", sum, err)
	}
}

func contains(xs []string, x string) bool {
	for _, v := range xs {
		if v == x {
			return true
		}
	}
	return false
}

// One folder, one id: `validate PATH` first and `import harbor` first name
// it alike, from task.toml's id or the folder's name.
func TestOneFolderOneID(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct{ toml, want string }{
		{"[task]\nname = \"rel/t1\"\n", "t1"},
		{"[task]\nid = \"my-id\"\n", "my-id"},
	} {
		dir := filepath.Join(t.TempDir(), "t1")
		writeTaskDir(t, dir, c.toml)
		a := openTestWorkspace(t)
		got, err := ResolveTasks(ctx, a, []string{dir}, false, "")
		if err != nil || len(got) != 1 {
			t.Fatalf("validate PATH: %v %v", got, err)
		}
		b := openTestWorkspace(t)
		sum, err := ImportHarbor(ctx, b, []string{dir}, ImportOptions{})
		if err != nil || len(sum.Imported) != 1 {
			t.Fatalf("import: %+v %v", sum, err)
		}
		if got[0].ID != c.want || sum.Imported[0] != c.want {
			t.Errorf("%q: validate PATH names it %s, import harbor %s; want %s", c.toml, got[0].ID, sum.Imported[0], c.want)
		}
		// The same folder met again by validate after import stays one task.
		again, err := ResolveTasks(ctx, b, []string{dir}, false, "")
		if err != nil || len(again) != 1 || again[0].ID != c.want {
			t.Errorf("validate PATH after import: %v %v", again, err)
		}
	}
}
