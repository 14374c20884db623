package gitmine

import (
	"context"
	"testing"

	"curate/internal/fixtures"
)

// A JavaScript date library (squash merge aa0f210a, 2019-12-09, "fix: Update
// LocaleData plugin ... (#734)") squashed its PRs into a dev branch that
// one "Merge pull request #768 from iamkun/dev" brought to the mainline:
// the first-parent walk found only #768 and 5 of the 6 peer-benchmark
// PRs of 2019 were never mined. Here #7 and #9 are squashed into dev,
// #10 merges dev, #11 is an ordinary branch whose commits name no PR,
// #12 a contributor's fork whose own PR #1 is not the repository's.
func TestMineIntegrationBranchPRs(t *testing.T) {
	g, err := fixtures.NewGit(t.TempDir(), "acme/dates")
	if err != nil {
		t.Fatal(err)
	}
	g.Write(map[string]string{"src/month.js": "module.exports = 1\n", "test/month.test.js": "test('m', () => {})\n"})
	g.Commit("initial")
	g.Branch("dev")
	g.Write(map[string]string{"src/month.js": "module.exports = 2\n", "test/month.test.js": "test('m2', () => {})\n"})
	g.Commit("fix: month names (#7)")
	sevenBase := g.Run("rev-parse", "HEAD^")
	seven := g.Run("rev-parse", "HEAD")
	g.Write(map[string]string{"src/week.js": "module.exports = 3\n"})
	g.Commit("feat: weekday plugin (#9)")
	g.MergePR(10, "dev", "Release", "")
	g.Branch("feature")
	g.Write(map[string]string{"src/year.js": "module.exports = 4\n"})
	g.Commit("year fix (see #3)")
	g.Write(map[string]string{"src/year.js": "module.exports = 5\n"})
	g.Commit("year fix")
	g.MergePR(11, "feature", "Year", "")
	// A contributor's fork: its "#1" is the fork's PR, not the repository's.
	g.Branch("fork")
	g.Write(map[string]string{"README": "fork\n"})
	g.Commit("Merge pull request #1 from acme/master")
	g.Run("checkout", "-q", "main")
	g.Run("merge", "-q", "--no-ff", "-m", "Merge pull request #12 from someone/fork", "fork")
	if err := g.Err(); err != nil {
		t.Fatal(err)
	}
	res, err := MineAll(context.Background(), Options{Path: g.Dir})
	if err != nil {
		t.Fatal(err)
	}
	got := map[int]string{}
	for _, pr := range res.PRs {
		got[pr.Number] = pr.Kind
		if pr.Number == 7 && (pr.HeadCommit != seven || pr.BaseCommit != sevenBase || len(pr.Files) != 2 || pr.Title != "fix: month names") {
			t.Errorf("PR 7: %+v (want head %s base %s, 2 files)", pr, seven, sevenBase)
		}
	}
	want := map[int]string{7: "squash", 9: "squash", 10: "merge", 11: "merge", 12: "merge"}
	if len(got) != len(want) {
		t.Fatalf("mined %v, want %v", got, want)
	}
	for n, k := range want {
		if got[n] != k {
			t.Errorf("PR %d: kind %q, want %q", n, got[n], k)
		}
	}
	if res.PRs[0].Number != 12 {
		t.Errorf("newest first: got #%d first", res.PRs[0].Number)
	}
}
