package github

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"curate/internal/fixtures"
	"curate/internal/fixtures/fakegithub"
	"curate/pipeline/source"
)

func newMiner(t *testing.T, f *fakegithub.GitHub) (*Miner, *[]string) {
	c, err := NewClient(f.URL, "test-token")
	if err != nil {
		t.Fatal(err)
	}
	var msgs []string
	return &Miner{Client: c, Notify: func(m string) { msgs = append(msgs, m) }}, &msgs
}

func TestMineAgainstFakeGitHub(t *testing.T) {
	f := fakegithub.New(t)
	m, msgs := newMiner(t, f)
	ctx := context.Background()
	repo, err := m.Repository(ctx, "acme", "calc")
	if err != nil {
		t.Fatal(err)
	}
	if repo.DefaultBranch != "main" || !strings.HasPrefix(repo.CloneURL, "file://") {
		t.Fatalf("repo %+v", repo)
	}
	clone := filepath.Join(t.TempDir(), "cache", "acme__calc.git")
	if err := Clone(ctx, repo.CloneURL, clone); err != nil {
		t.Fatal(err)
	}
	var prs []*source.PR
	err = m.Mine(ctx, Options{Owner: "acme", Name: "calc"}, repo, func(pr *source.PR) error {
		prs = append(prs, pr)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(prs) != 2 || prs[0].Number != 2 || prs[1].Number != 1 {
		t.Fatalf("want merged PRs 2 and 1 (unmerged 3 skipped), got %d", len(prs))
	}
	if err := ResolveBases(ctx, clone, prs); err != nil {
		t.Fatal(err)
	}
	p2, p1 := prs[0], prs[1]
	if p2.Commits != 1 || p1.Commits != 2 || p2.Kind != "squash" || p1.Kind != "merge" {
		t.Errorf("commits from the PR pages: #2 %d (%s), #1 %d (%s)", p2.Commits, p2.Kind, p1.Commits, p1.Kind)
	}
	if len(p2.Files) != 5 || !p2.Files[4].Binary || p2.Files[0].Binary {
		t.Errorf("PR 2 files (two pages, one binary): %+v", p2.Files)
	}
	if len(p2.Issues) != 1 || p2.Issues[0].Number != 12 || p2.IssueText != "" {
		t.Errorf("PR 2 issues %v text %q (issue 12 is a 404)", p2.Issues, p2.IssueText)
	}
	if len(p1.Issues) != 1 || p1.Issues[0].Number != 11 || !strings.Contains(p1.IssueText, "Expected 0.5") {
		t.Errorf("PR 1 issues %v text %q (timeline cross-reference)", p1.Issues, p1.IssueText)
	}
	if p1.BaseCommit == "" || p1.Parents != 2 || p1.Kind != "merge" || p2.Parents != 1 || p2.Kind != "squash" {
		t.Errorf("bases: %+v / %+v", p1, p2)
	}
	all := strings.Join(*msgs, "\n")
	if !strings.Contains(all, "secondary rate limit (Retry-After)") || !strings.Contains(all, "GitHub rate limit reached") || !strings.Contains(all, "resuming at") {
		t.Errorf("rate limit waits not reported:\n%s", all)
	}
	// A second clone call refreshes in place.
	if err := Clone(ctx, repo.CloneURL, clone); err != nil {
		t.Fatal(err)
	}
}

func TestMineResumes(t *testing.T) {
	f := fakegithub.New(t)
	m, _ := newMiner(t, f)
	ctx := context.Background()
	repo, err := m.Repository(ctx, "acme", "calc")
	if err != nil {
		t.Fatal(err)
	}
	progress := filepath.Join(t.TempDir(), "acme__calc.progress.json")
	run := func(limit int) []int {
		done, err := LoadProgress(progress)
		if err != nil {
			t.Fatal(err)
		}
		var got []int
		err = m.Mine(ctx, Options{Owner: "acme", Name: "calc", Limit: limit, Done: done}, repo, func(pr *source.PR) error {
			got = append(got, pr.Number)
			done[pr.Number] = true
			return SaveProgress(progress, "acme/calc", done)
		})
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	if got := run(1); len(got) != 1 || got[0] != 2 {
		t.Fatalf("first run: %v", got)
	}
	if got := run(0); len(got) != 1 || got[0] != 1 {
		t.Fatalf("second run should continue with PR 1: %v", got)
	}
	if n := f.Count("files 2"); n != 2 { // two pages, fetched once
		t.Errorf("PR 2 files fetched %d times, want once (2 pages)", n)
	}
	if got := run(0); len(got) != 0 {
		t.Errorf("third run found %v", got)
	}
}

func TestNotFoundAndBadURL(t *testing.T) {
	f := fakegithub.New(t)
	m, _ := newMiner(t, f)
	_, err := m.Repository(context.Background(), "acme", "missing")
	if err == nil || !strings.Contains(err.Error(), "not found (404)") || !strings.Contains(err.Error(), "GITHUB_TOKEN") {
		t.Errorf("404: %v", err)
	}
	if _, err := NewClient("ftp://x", ""); err == nil {
		t.Error("bad api url accepted")
	}
	if _, err := LoadProgress(filepath.Join(t.TempDir(), "none.json")); err != nil {
		t.Error(err)
	}
}

func TestToken(t *testing.T) {
	tok, from := Token(context.Background(), func(k string) string {
		if k == "GITHUB_TOKEN" {
			return " abc "
		}
		return ""
	})
	if tok != "abc" || from != "$GITHUB_TOKEN" {
		t.Errorf("token %q from %q", tok, from)
	}
}

// GitHub's commits count gives a rebase-merged PR all its commits: its base
// is the commit that many steps back, when that change is the PR's files.
// A squash merge of several commits keeps its parent as base.
func TestResolveBasesRebaseAndSquash(t *testing.T) {
	g, err := fixtures.NewGit(t.TempDir(), "acme/widgets")
	if err != nil {
		t.Fatal(err)
	}
	g.Write(map[string]string{"a.py": "A = 1\n", "test_a.py": "t\n"})
	g.Commit("initial")
	base := g.Run("rev-parse", "HEAD")
	g.Branch("pr5")
	g.Write(map[string]string{"a.py": "A = 2\n"})
	g.Commit("Change a")
	g.Write(map[string]string{"b.py": "B = 1\n"})
	g.Commit("Add b")
	g.Write(map[string]string{"test_a.py": "t2\n"})
	g.Commit("Test a")
	g.RebasePR("pr5")
	rebased := g.Run("rev-parse", "HEAD")
	g.Branch("pr6")
	g.Write(map[string]string{"c.py": "C = 1\n"})
	g.Commit("Add c")
	g.Write(map[string]string{"a.py": "A = 3\n"})
	g.Commit("Change a again")
	g.SquashPR(6, "pr6", "Add c and change a", "")
	squashed := g.Run("rev-parse", "HEAD")
	if err := g.Err(); err != nil {
		t.Fatal(err)
	}
	files := func(paths ...string) []source.FileChange {
		var out []source.FileChange
		for _, p := range paths {
			out = append(out, source.FileChange{Path: p})
		}
		return out
	}
	five := &source.PR{Number: 5, HeadCommit: rebased, Commits: 3, Files: files("a.py", "b.py", "test_a.py")}
	six := &source.PR{Number: 6, HeadCommit: squashed, Commits: 2, Files: files("a.py", "c.py")}
	if err := ResolveBases(context.Background(), g.Dir, []*source.PR{five, six}); err != nil {
		t.Fatal(err)
	}
	if five.Kind != "rebase" || five.BaseCommit != base {
		t.Errorf("rebase-merged PR 5: kind %s base %s, want rebase %s", five.Kind, five.BaseCommit, base)
	}
	if six.Kind != "squash" || six.BaseCommit != rebased {
		t.Errorf("squash-merged PR 6: kind %s base %s, want squash %s", six.Kind, six.BaseCommit, rebased)
	}
}

// TestFetchIssueTextsForLocalPRs gives PRs mined from local history their
// linked issues' text from the API: a 404 is remembered, and a second
// fetch asks nothing (the cache answers).
func TestFetchIssueTextsForLocalPRs(t *testing.T) {
	f := fakegithub.New(t)
	m, _ := newMiner(t, f)
	cache := filepath.Join(t.TempDir(), "acme__calc.issues.json")
	prs := func() []*source.PR {
		return []*source.PR{
			{Number: 1, Issues: []source.IssueRef{{Number: 11}}},
			{Number: 2, Issues: []source.IssueRef{{Number: 12}}},
			{Number: 3, Issues: []source.IssueRef{{Repo: "other/repo", Number: 5}}},
		}
	}
	first := prs()
	res, err := m.FetchIssueTexts(context.Background(), "acme", "calc", first, cache)
	if err != nil {
		t.Fatal(err)
	}
	if res.Fetched != 1 || res.Missing != 1 || res.Cached != 0 {
		t.Errorf("first fetch %+v, want 1 fetched, 1 missing", res)
	}
	if !strings.Contains(first[0].IssueText, "Expected 0.5") || first[1].IssueText != "" || first[2].IssueText != "" {
		t.Errorf("texts %q / %q / %q", first[0].IssueText, first[1].IssueText, first[2].IssueText)
	}
	again := prs()
	res, err = m.FetchIssueTexts(context.Background(), "acme", "calc", again, cache)
	if err != nil {
		t.Fatal(err)
	}
	if res.Cached != 2 || res.Fetched != 0 || f.Count("issue 11") != 1 || f.Count("issue 12") != 1 {
		t.Errorf("second fetch %+v; requests for 11: %d, 12: %d (want 1 each: the cache answers)", res, f.Count("issue 11"), f.Count("issue 12"))
	}
	if again[0].IssueText != first[0].IssueText {
		t.Errorf("cached text %q", again[0].IssueText)
	}
}
