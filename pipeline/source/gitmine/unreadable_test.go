package gitmine

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"curate/internal/fixtures"
)

func gitOut(t *testing.T, dir string, args ...string) string {
	t.Helper()
	out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// A blob-less partial clone used offline: the commits whose diffs it has
// are mined, every other one is skipped with its id and git's reason.
func TestMinePartialCloneOffline(t *testing.T) {
	tmp := t.TempDir()
	src, err := fixtures.GitHistory(filepath.Join(tmp, "src"))
	if err != nil {
		t.Fatal(err)
	}
	gitOut(t, src, "config", "uploadpack.allowFilter", "true")
	clone := filepath.Join(tmp, "partial")
	gitOut(t, tmp, "clone", "-q", "--filter=blob:none", "--no-checkout", "file://"+src, clone)
	// Online, read the diffs of the newest four first-parent commits; then
	// the remote goes away.
	gitOut(t, clone, "log", "--first-parent", "-m", "--numstat", "-n", "4")
	if err := os.Rename(src, src+".gone"); err != nil {
		t.Fatal(err)
	}
	all := strings.Fields(gitOut(t, src+".gone", "log", "--first-parent", "--format=%H", "-E",
		"--grep=^Merge pull request #[0-9]+ from ", "--grep=\\(#[0-9]+\\)[[:space:]]*$"))

	res, err := MineAll(context.Background(), Options{Path: clone, Repo: "acme/widgets"})
	if err != nil {
		t.Fatalf("the mine stopped: %v", err)
	}
	if len(res.PRs) == 0 || len(res.Skipped) == 0 {
		t.Fatalf("mined %d, skipped %d: want some of each", len(res.PRs), len(res.Skipped))
	}
	if len(res.PRs)+len(res.Skipped) != len(all) {
		t.Fatalf("mined %d + skipped %d != %d PR commits", len(res.PRs), len(res.Skipped), len(all))
	}
	if res.PRs[0].Number != 8 {
		t.Errorf("newest PR %d, want 8", res.PRs[0].Number)
	}
	skipped := map[string]bool{}
	for _, s := range res.Skipped {
		skipped[s.Commit] = true
		if !strings.Contains(s.Reason, "promisor remote") && !strings.Contains(s.Reason, "unable to read") {
			t.Errorf("reason %q does not say why", s.Reason)
		}
	}
	for _, pr := range res.PRs {
		if skipped[pr.HeadCommit] {
			t.Errorf("PR %d both mined and skipped", pr.Number)
		}
	}
	// Limit still counts mined PRs across resumed walks.
	res, err = MineAll(context.Background(), Options{Path: clone, Repo: "acme/widgets", Limit: 2})
	if err != nil || len(res.PRs) != 2 {
		t.Fatalf("limit 2: %d PRs, %v", len(res.PRs), err)
	}
}

// A damaged clone missing one object: the one commit whose diff needs it
// is skipped, older and newer ones are mined.
func TestMineSkipsCommitWithMissingObject(t *testing.T) {
	dir, err := fixtures.GitHistory(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	var commit string
	for _, line := range strings.Split(gitOut(t, dir, "log", "--first-parent", "--format=%H %s"), "\n") {
		if strings.HasSuffix(line, "Round areas to 6 places (#2)") {
			commit = strings.Fields(line)[0]
		}
	}
	blob := gitOut(t, dir, "rev-parse", commit+":widgets/core.py")
	obj := filepath.Join(dir, ".git", "objects", blob[:2], blob[2:])
	if err := os.Remove(obj); err != nil {
		t.Fatalf("the fixture's objects should be loose: %v", err)
	}
	res, err := MineAll(context.Background(), Options{Path: dir})
	if err != nil {
		t.Fatalf("the mine stopped: %v", err)
	}
	got := map[int]bool{}
	for _, pr := range res.PRs {
		got[pr.Number] = true
	}
	if len(res.Skipped) == 0 || res.Skipped[0].Commit != commit || !strings.Contains(res.Skipped[0].Reason, blob[:7]) {
		t.Fatalf("skipped %+v, want %s (missing %s)", res.Skipped, commit, blob)
	}
	if got[2] || !got[1] || !got[8] {
		t.Fatalf("mined PRs %v: want 1 and 8, not 2", got)
	}
}
