package cli

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"curate/app"
)

// TestBuildAtSnapshotRealRepo mines cobra (../shared/repos), builds its
// two newest PRs that change tests and source with --at snapshot and
// with the default (auto, no env check yet: the merge commit), and checks
// that the strategy is recorded and shown, that both mirrored tasks stand
// on one repository image, and that the snapshot is pinned.
func TestBuildAtSnapshotRealRepo(t *testing.T) {
	clone := cloneBundle(t, "spf13+cobra")
	ws := newWorkspace(t)
	code, out, errOut := cli(t, "-w", ws, "mine", "git", clone, "--repo", "spf13/cobra", "--preset", "none", "--json")
	if code != 0 {
		t.Fatal(errOut)
	}
	var mined []struct {
		ID       string             `json:"id"`
		PR       int                `json:"pr"`
		Features map[string]float64 `json:"features"`
	}
	if err := json.Unmarshal([]byte(out), &mined); err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, m := range mined { // newest first
		if m.Features["test_files"] >= 1 && m.Features["files_changed"] >= 1 && (m.PR == 2397 || m.PR == 2356) {
			ids = append(ids, m.ID)
		}
	}
	if len(ids) != 2 {
		t.Fatalf("PRs 2397 and 2356 not mined: %v", ids)
	}
	code, out, errOut = cli(t, append([]string{"-w", ws, "build", "--at", "snapshot", "--json"}, ids...)...)
	if code != 0 {
		t.Fatalf("build: %s", errOut)
	}
	var res []app.BuildResult
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	head, _ := exec.Command("git", "-C", clone, "rev-parse", "HEAD").Output()
	snap := strings.TrimSpace(string(head))
	for _, r := range res {
		if r.Status != "built" || r.Strategy != "snapshot" || r.Snapshot != snap || r.RepoImage == "" {
			t.Fatalf("%+v", r)
		}
	}
	if res[0].RepoImage != res[1].RepoImage {
		t.Errorf("two tasks of one snapshot stand on two repo images: %s %s", res[0].RepoImage, res[1].RepoImage)
	}
	toml, _ := os.ReadFile(filepath.Join(res[0].TaskDir, "task.toml"))
	if !strings.Contains(string(toml), "build_strategy = 'snapshot'") || !strings.Contains(string(toml), snap) {
		t.Errorf("task.toml does not record the strategy:\n%s", toml)
	}
	_, out, _ = cli(t, "-w", ws, "show", ids[0])
	if !strings.Contains(out, "built at               snapshot "+snap[:8]) {
		t.Errorf("show:\n%s", out)
	}
	_, out, _ = cli(t, "-w", ws, "funnel")
	if !strings.Contains(out, "env check") || !strings.Contains(out, "at the snapshot        2") {
		t.Errorf("funnel:\n%s", out)
	}
	// auto, no env check recorded: the merge commit, saying why.
	code, out, errOut = cli(t, "-w", ws, "build", ids[0])
	if code != 0 || !strings.Contains(out, "merge)") || !strings.Contains(out, "no env check") {
		t.Errorf("auto build: %d\n%s%s", code, out, errOut)
	}
	// The snapshot is pinned in the repo's state; once its env check
	// passed there, auto mirrors.
	statePath := filepath.Join(ws, ".curate", "repos", "spf13+cobra.json")
	st, err := os.ReadFile(statePath)
	if err != nil || !strings.Contains(string(st), snap) {
		t.Fatalf("repo state: %v %s", err, st)
	}
	passed := strings.Replace(string(st), "\n}", `,"env_check":{"snapshot":"`+snap+`","passed":9,"total":10,"ok":true,"at":"2026-11-23T12:00:00Z"}}`, 1)
	if err := os.WriteFile(statePath, []byte(passed), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut = cli(t, "-w", ws, "build", ids[0])
	if code != 0 || !strings.Contains(out, "snapshot "+snap[:8]) {
		t.Errorf("auto build after a passed env check: %d\n%s%s", code, out, errOut)
	}
	// curate repo show names the snapshot, the env check and the repo image.
	code, out, errOut = cli(t, "-w", ws, "repo", "show", "spf13/cobra", "--no-images")
	for _, want := range []string{"snapshot       " + snap[:8], "env check      at " + snap[:8] + ": ok 9/10 (90%)", "repo image     curate-repo:"} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("repo show lacks %q: %d\n%s%s", want, code, out, errOut)
		}
	}
	// A failed check is named before any run starts (no engine needed).
	failed := strings.Replace(passed, `"ok":true`, `"ok":false`, 1)
	if err := os.WriteFile(statePath, []byte(failed), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("DOCKER_HOST", "unix:///nonexistent/docker.sock")
	_, _, errOut = cli(t, "-w", ws, "validate", "--mode", "nop", ids[0])
	if !strings.Contains(errOut, "warning: spf13/cobra: the environment check failed at "+snap[:8]+": failed 9/10 (90%)") {
		t.Errorf("validate does not name the failed env check:\n%s", errOut)
	}
	code, _, errOut = cli(t, "-w", ws, "build", "--at", "tip", ids[0])
	if code == 0 || !strings.Contains(errOut, `"tip": want merge, snapshot, snapshot:REV or auto`) {
		t.Errorf("bad --at: %d %s", code, errOut)
	}
}
