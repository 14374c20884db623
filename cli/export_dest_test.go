package cli

import (
	"context"
	"crypto/sha256"
	"curate/pipeline"
	"curate/workspace"
	"fmt"
	"io"
	"io/fs"
	"log"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"curate/app"
	"curate/pipeline/selection"
)

// treeSums maps every file under root to its sha256 (and every folder
// and link to its kind), so a test can tell that nothing changed.
func treeSums(t *testing.T, root string) map[string]string {
	t.Helper()
	sums := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			target, _ := os.Readlink(p)
			sums[rel] = "link " + target
		case d.IsDir():
			sums[rel] = "dir"
		default:
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			sums[rel] = fmt.Sprintf("%x", sha256.Sum256(data))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return sums
}

func sameTree(t *testing.T, what string, before, after map[string]string) {
	t.Helper()
	for p, s := range before {
		if after[p] != s {
			t.Errorf("%s: %s changed or went (%q -> %q)", what, p, s, after[p])
		}
	}
	for p := range after {
		if _, ok := before[p]; !ok {
			t.Errorf("%s: %s appeared", what, p)
		}
	}
}

// An export pointed at the workspace, its tasks/ or .curate/ (by path or
// as `--out .` from inside), or a folder holding it, is refused with one
// line, and every file of the workspace is byte-identical afterwards.
func TestExportRefusesTheWorkspace(t *testing.T) {
	ws := demoWorkspace(t)
	if _, errs, code := curate(t, "-w", ws, "select", "--name", "s", "--allow-infeasible"); code != 0 {
		t.Fatal(errs)
	}
	// Settle the database files (WAL checkpoint on close) before hashing.
	if _, errs, code := curate(t, "-w", ws, "list"); code != 0 {
		t.Fatal(errs)
	}
	parent := filepath.Dir(ws)
	before := treeSums(t, parent)
	cases := []struct{ cwd, out, want string }{
		{"", ws, "is the workspace itself"},
		{"", filepath.Join(ws, "tasks"), "inside the workspace's tasks/"},
		{"", filepath.Join(ws, "tasks", "new"), "inside the workspace's tasks/"},
		{"", filepath.Join(ws, ".curate"), "inside the workspace's .curate/"},
		{"", parent, "holds the workspace"},
		{"", ws + "/sub/..", "is the workspace itself"},
		{ws, ".", "is the workspace itself"},
		{filepath.Join(ws, "tasks"), ".", "inside the workspace's tasks/"},
		{filepath.Join(ws, ".curate"), ".", "inside the workspace's .curate/"},
	}
	for _, c := range cases {
		for _, format := range []string{"harbor", "manifest"} {
			if c.cwd != "" {
				t.Chdir(c.cwd)
			}
			_, errs, code := curate(t, "-w", ws, "export", "--format", format, "--allow-unvalidated", "--out", c.out)
			if code == 0 || !strings.Contains(errs, c.want) || strings.Count(strings.TrimSpace(errs), "\n") > 0 {
				t.Errorf("export %s --out %s (in %s): exit %d, stderr %q; want one line saying %q", format, c.out, c.cwd, code, errs, c.want)
			}
		}
	}
	sameTree(t, "workspace", before, treeSums(t, parent))
}

// The workbench's Export screen writes through the same check: the
// workspace root (its default "." when curate runs there) is refused and
// nothing in the workspace changes.
func TestWorkbenchExportRefusesTheWorkspace(t *testing.T) {
	root, env, ws := demoEnv(t)
	ctx := context.Background()
	before := treeSums(t, filepath.Join(root, "tasks"))
	svc := workbenchServices(env, ws, log.New(io.Discard, "", 0), "")
	t.Chdir(root)
	if _, err := svc.Export(ctx, "wb", selection.Config{}, &selection.Result{}, app.ExportRequest{Formats: []string{"harbor"}, Dest: "."}); err == nil || !strings.Contains(err.Error(), "is the workspace itself") {
		t.Fatalf("err = %v", err)
	}
	if _, err := os.Stat(filepath.Join(root, "curate.toml")); err != nil {
		t.Fatal(err)
	}
	sameTree(t, "tasks", before, treeSums(t, filepath.Join(root, "tasks")))
}

// The Export screen applies `curate export`'s refusal of tasks that are not
// validated valid (the demo's tasks are built, never validated here):
// nothing is written.
func TestWorkbenchExportRefusesUnvalidatedTasks(t *testing.T) {
	_, env, ws := demoEnv(t)
	ctx := context.Background()
	tasks, err := ws.Store.Tasks(ctx)
	if err != nil || len(tasks) == 0 {
		t.Fatalf("tasks: %d, %v", len(tasks), err)
	}
	var pick *pipeline.Task
	for _, t := range tasks {
		if t.Status != pipeline.StatusValid {
			pick = t
			break
		}
	}
	if pick == nil {
		t.Fatal("the demo has no task that is not valid")
	}
	svc := workbenchServices(env, ws, log.New(io.Discard, "", 0), "")
	out := filepath.Join(t.TempDir(), "out")
	res, err := svc.Export(ctx, "wb", selection.Config{}, &selection.Result{Picks: []selection.Pick{{Task: pick}}}, app.ExportRequest{Formats: []string{"harbor"}, Dest: out})
	if err != nil || len(res.Failed()) != 1 || !strings.Contains(res.Failed()[0].Reason(), "not validated valid") {
		t.Fatalf("res = %+v, err = %v", res, err)
	}
	if res.Saved {
		t.Error("a solve with nothing written was saved")
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Fatalf("the refused export wrote %s: %v", out, err)
	}
}

// demoEnv is a demo workspace opened as the workbench opens it.
func demoEnv(t *testing.T) (string, *Env, *workspace.Workspace) {
	t.Helper()
	root := demoWorkspace(t)
	env := &Env{WorkspaceFlag: root, Out: io.Discard, Err: io.Discard}
	t.Cleanup(func() { env.Close() })
	ws, err := env.Workspace(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return root, env, ws
}
