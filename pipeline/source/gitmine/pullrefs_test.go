package gitmine

import (
	"context"
	"testing"

	"curate/internal/fixtures"
)

// GitHub's "Rebase and merge" and a squash merge whose subject was edited
// leave no "(#N)" on the branch: local history names neither PR. With the
// PR refs fetched (refs/pull/<N>/head), patch ids find them: PR 5's two
// commits are a consecutive run on main (rebase), PR 6's whole diff is one
// commit (squash). PR 7 was never merged and PR 8 is found by its subject,
// once.
func TestMinePullRefsFindUnnamedPRs(t *testing.T) {
	g, err := fixtures.NewGit(t.TempDir(), "acme/widgets")
	if err != nil {
		t.Fatal(err)
	}
	g.Write(map[string]string{"widgets/a.py": "A = 1\n", "tests/test_a.py": "def test_a(): pass\n"})
	g.Commit("initial")

	g.Branch("pr5")
	g.Write(map[string]string{"widgets/a.py": "A = 2\n"})
	g.Commit("Change a")
	g.Write(map[string]string{"tests/test_a.py": "def test_a(): assert True\n"})
	g.Commit("Test a")
	pr5 := g.Run("rev-parse", "HEAD")
	g.Branch("pr6")
	g.Write(map[string]string{"widgets/b.py": "B = 1\n"})
	g.Commit("Add b")
	g.Write(map[string]string{"widgets/b.py": "B = 2\n", "tests/test_b.py": "def test_b(): pass\n"})
	g.Commit("Test b")
	pr6 := g.Run("rev-parse", "HEAD")
	g.Branch("pr7")
	g.Write(map[string]string{"widgets/c.py": "C = 1\n"})
	g.Commit("Never merged")
	pr7 := g.Run("rev-parse", "HEAD")
	g.Branch("pr8")
	g.Write(map[string]string{"widgets/d.py": "D = 1\n", "tests/test_d.py": "def test_d(): pass\n"})
	g.Commit("Add d")
	pr8 := g.Run("rev-parse", "HEAD")

	g.Run("checkout", "-q", "main")
	g.Write(map[string]string{"README": "x\n"})
	g.Commit("Direct commit on main")
	base5 := g.Run("rev-parse", "HEAD")
	g.RebasePR("pr5")
	head5 := g.Run("rev-parse", "HEAD")
	g.Run("merge", "-q", "--squash", "pr6")
	g.Run("commit", "-q", "-m", "Support b\n\nThe b module, with its test.")
	head6 := g.Run("rev-parse", "HEAD")
	g.SquashPR(8, "pr8", "Add d", "")
	for n, h := range map[string]string{"5": pr5, "6": pr6, "7": pr7, "8": pr8} {
		g.Run("update-ref", "refs/pull/"+n+"/head", h)
	}
	g.Run("update-ref", "refs/pull/9/merge", pr7) // not a head ref: ignored
	if err := g.Err(); err != nil {
		t.Fatal(err)
	}

	res, err := MineAll(context.Background(), Options{Path: g.Dir})
	if err != nil {
		t.Fatal(err)
	}
	if res.FromPullRefs != 2 {
		t.Errorf("found %d PRs through refs/pull, want 2", res.FromPullRefs)
	}
	got := map[int]string{}
	for _, pr := range res.PRs {
		got[pr.Number] = pr.Kind
		switch pr.Number {
		case 5:
			if pr.BaseCommit != base5 || pr.HeadCommit != head5 || pr.Commits != 2 || len(pr.Files) != 2 {
				t.Errorf("PR 5: base %s head %s commits %d files %v (want base %s head %s)", pr.BaseCommit, pr.HeadCommit, pr.Commits, pr.Files, base5, head5)
			}
		case 6:
			if pr.BaseCommit != head5 || pr.HeadCommit != head6 || pr.Title != "Support b" || pr.Body != "The b module, with its test." {
				t.Errorf("PR 6: %+v", pr)
			}
		}
	}
	want := map[int]string{5: "rebase", 6: "squash", 8: "squash"}
	if len(got) != len(want) {
		t.Fatalf("mined %v, want %v", got, want)
	}
	for n, k := range want {
		if got[n] != k {
			t.Errorf("PR %d: kind %q, want %q", n, got[n], k)
		}
	}
	if res.PRs[0].Number != 8 {
		t.Errorf("newest first: got #%d first", res.PRs[0].Number)
	}
}

// A clone without PR refs mines as before, with nothing found by patch id.
func TestMineWithoutPullRefs(t *testing.T) {
	g, err := fixtures.GitHistory(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	res, err := MineAll(context.Background(), Options{Path: g})
	if err != nil || res.FromPullRefs != 0 || len(res.PRs) == 0 {
		t.Fatalf("%d PRs, %d from refs, %v", len(res.PRs), res.FromPullRefs, err)
	}
}
