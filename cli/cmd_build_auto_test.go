package cli

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"curate/pipeline"
	"curate/workspace"
)

// TestBuildAutoFallsBackToMerge: with jshttp/cookie's env check passed at
// its snapshot, auto builds at the merge commit, saying why, both a PR
// whose fix does not reverse there (#269, src/index.ts) and one whose
// test files are gone at the snapshot (#210); neither is refused.
func TestBuildAutoFallsBackToMerge(t *testing.T) {
	clone := cloneBundle(t, "jshttp+cookie")
	head, _ := exec.Command("git", "-C", clone, "rev-parse", "HEAD").Output()
	snap := strings.TrimSpace(string(head))
	ws := newWorkspace(t)
	if code, _, errOut := cli(t, "-w", ws, "mine", "git", clone, "--repo", "jshttp/cookie", "--preset", "none"); code != 0 {
		t.Fatal(errOut)
	}
	state, _ := json.Marshal(map[string]any{"repo": "jshttp/cookie", "snapshot": snap, "snapshot_from": "the default branch tip",
		"env_check": map[string]any{"snapshot": snap, "passed": 9, "total": 10, "ok": true, "at": "2026-11-25T09:00:00Z"}})
	if err := os.MkdirAll(filepath.Join(ws, ".curate", "repos"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ws, ".curate", "repos", "jshttp+cookie.json"), state, 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := cli(t, "-w", ws, "build", "jshttp__cookie-269", "jshttp__cookie-210")
	if code != 0 {
		t.Fatalf("build: %d\n%s%s", code, out, errOut)
	}
	for _, want := range []string{
		"auto: the PR does not reverse at snapshot " + snap[:12] + ": src/index.ts hunk",
		"auto: no test files at the snapshot commit: nothing to verify with: built at the merge commit",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("build output lacks %q:\n%s", want, out)
		}
	}
	if strings.Count(out, "merge)") != 2 || strings.Contains(out, "rejected") {
		t.Errorf("want both built at the merge commit:\n%s", out)
	}
}

// TestRebuildKeepsTheVerdictOfTheSameFiles: building a validated task
// again with nothing changed makes the same files; the verdict its runs
// gave stays (it read "not validated" before).
func TestRebuildKeepsTheVerdictOfTheSameFiles(t *testing.T) {
	clone := cloneBundle(t, "jshttp+cookie")
	ws := newWorkspace(t)
	if code, _, errOut := cli(t, "-w", ws, "mine", "git", clone, "--repo", "jshttp/cookie", "--preset", "none"); code != 0 {
		t.Fatal(errOut)
	}
	if code, _, errOut := cli(t, "-w", ws, "build", "jshttp__cookie-269"); code != 0 {
		t.Fatal(errOut)
	}
	w, err := workspace.Open(context.Background(), ws)
	if err != nil {
		t.Fatal(err)
	}
	task, err := w.Store.Task(context.Background(), "jshttp__cookie-269")
	if err != nil {
		t.Fatal(err)
	}
	task.Status = pipeline.StatusValid // as a validation on these files left it
	if err := w.Store.UpsertTasks(context.Background(), []*pipeline.Task{task}); err != nil {
		t.Fatal(err)
	}
	w.Close()
	if code, _, errOut := cli(t, "-w", ws, "build", "jshttp__cookie-269"); code != 0 {
		t.Fatal(errOut)
	}
	_, out, _ := cli(t, "-w", ws, "show", "jshttp__cookie-269", "--json")
	if !strings.Contains(out, `"status": "valid"`) {
		t.Errorf("the verdict was lost on a rebuild of the same files:\n%s", out)
	}
}

// cloneBundle clones ../shared/repos/<name>.bundle, or skips when the
// bundles are absent.
func cloneBundle(t *testing.T, name string) string {
	t.Helper()
	bundle, _ := filepath.Abs(filepath.Join("..", "..", "shared", "repos", name+".bundle"))
	if _, err := os.Stat(bundle); err != nil {
		t.Skipf("no %s: real-repository tests need ../shared/repos beside the project", bundle)
	}
	clone := filepath.Join(t.TempDir(), name)
	if out, err := exec.Command("git", "clone", "-q", bundle, clone).CombinedOutput(); err != nil {
		t.Fatalf("clone: %v\n%s", err, out)
	}
	return clone
}
