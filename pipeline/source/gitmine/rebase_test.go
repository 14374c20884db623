package gitmine

import (
	"context"
	"sort"
	"testing"

	"curate/internal/fixtures"
)

// A rebase-merged PR whose last commit names it keeps all its commits: its
// base is the parent of its first commit. A squash merge right after
// another PR's commit, and a run of plain commits without a PR number,
// are left as they are.
func TestMineRebaseMergedPRKeepsAllCommits(t *testing.T) {
	g, err := fixtures.NewGit(t.TempDir(), "acme/widgets")
	if err != nil {
		t.Fatal(err)
	}
	g.Write(map[string]string{"widgets/a.py": "A = 1\n", "tests/test_a.py": "def test_a(): pass\n"})
	g.Commit("initial")
	g.Branch("pr5")
	g.Write(map[string]string{"widgets/a.py": "A = 2\n"})
	g.Commit("Change a")
	g.Write(map[string]string{"widgets/b.py": "B = 1\n"})
	g.Commit("Add b")
	g.Write(map[string]string{"tests/test_a.py": "def test_a(): assert True\n"})
	g.Commit("Test a and b (#5)")
	g.Run("checkout", "-q", "main")
	g.Write(map[string]string{"README": "x\n"})
	g.Commit("Direct commit on main")
	base := g.Run("rev-parse", "HEAD")
	g.RebasePR("pr5")
	head := g.Run("rev-parse", "HEAD")
	g.Branch("pr6")
	g.Write(map[string]string{"widgets/a.py": "A = 3\n", "tests/test_a.py": "def test_a(): assert 1\n"})
	g.Commit("Fix a")
	g.SquashPR(6, "pr6", "Fix a again", "")
	if err := g.Err(); err != nil {
		t.Fatal(err)
	}

	prs, err := Mine(context.Background(), Options{Path: g.Dir})
	if err != nil || len(prs) != 2 {
		t.Fatalf("mined %v, %v", prs, err)
	}
	six, five := prs[0], prs[1]
	if six.Number != 6 || six.Kind != "squash" || six.BaseCommit != head || six.Commits != 0 {
		t.Errorf("squash PR 6: %+v (base want %s)", six, head)
	}
	if five.Number != 5 || five.Kind != "rebase" || five.Commits != 3 || five.BaseCommit != base || five.HeadCommit != head {
		t.Fatalf("rebase PR 5: kind %s, %d commits, base %s (want %s)", five.Kind, five.Commits, five.BaseCommit, base)
	}
	var paths []string
	for _, f := range five.Files {
		paths = append(paths, f.Path)
	}
	sort.Strings(paths)
	if len(paths) != 3 || paths[0] != "tests/test_a.py" || paths[1] != "widgets/a.py" || paths[2] != "widgets/b.py" {
		t.Errorf("PR 5 files %v: want all three commits' files", paths)
	}
	if five.Title != "Test a and b" {
		t.Errorf("PR 5 title %q", five.Title)
	}
}
