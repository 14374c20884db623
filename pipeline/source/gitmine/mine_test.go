package gitmine

import (
	"context"
	"errors"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"curate/internal/fixtures"
	"curate/pipeline/source"
)

func mineFixture(t *testing.T) (string, map[int]*source.PR) {
	t.Helper()
	dir, err := fixtures.GitHistory(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	prs, err := Mine(context.Background(), Options{Path: dir})
	if err != nil {
		t.Fatal(err)
	}
	byNum := map[int]*source.PR{}
	for _, pr := range prs {
		if byNum[pr.Number] != nil {
			t.Fatalf("PR %d mined twice", pr.Number)
		}
		byNum[pr.Number] = pr
	}
	return dir, byNum
}

func TestMineFixtureHistory(t *testing.T) {
	_, prs := mineFixture(t)
	if len(prs) != len(fixtures.HistoryPRs) {
		t.Fatalf("mined %d PRs, want %d: %v", len(prs), len(fixtures.HistoryPRs), prs)
	}
	files := func(pr *source.PR) map[string]source.FileChange {
		m := map[string]source.FileChange{}
		for _, f := range pr.Files {
			m[f.Path] = f
		}
		return m
	}
	pr1 := prs[1]
	if pr1.Kind != "merge" || pr1.Title != "Reject negative sizes" || pr1.Body != "Fixes #10" || pr1.Repo != "acme/widgets" {
		t.Errorf("PR 1 = %+v", pr1)
	}
	if len(pr1.Issues) != 1 || pr1.Issues[0].Number != 10 {
		t.Errorf("PR 1 issues %v", pr1.Issues)
	}
	if f := files(pr1)["widgets/core.py"]; f.Added != 2 || f.Removed != 0 {
		t.Errorf("PR 1 core.py %+v", f)
	}
	if len(pr1.Files) != 4 || pr1.Parents != 2 {
		t.Errorf("PR 1 files %v parents %d", pr1.Files, pr1.Parents)
	}
	pr2 := prs[2]
	if pr2.Kind != "squash" || pr2.Title != "Round areas to 6 places" || len(pr2.Issues) != 1 || pr2.Issues[0].Number != 11 {
		t.Errorf("PR 2 = %+v", pr2)
	}
	if pr2.Parents != 1 || pr2.BaseCommit == "" || pr2.HeadCommit == "" {
		t.Errorf("PR 2 commits %+v", pr2)
	}
	if f := files(prs[3])["widgets/legacy.py"]; f.OldPath != "widgets/old_name.py" {
		t.Errorf("PR 3 rename not seen: %+v", prs[3].Files)
	}
	if f := files(prs[4])["assets/logo.png"]; !f.Binary {
		t.Errorf("PR 4 binary not flagged: %+v", prs[4].Files)
	}
	if prs[7].Parents != 3 {
		t.Errorf("octopus PR 7 parents %d", prs[7].Parents)
	}
	if _, ok := files(prs[8])["widgets/caf\xe9.py"]; !ok {
		t.Errorf("PR 8 non-UTF-8 name lost: %+v", prs[8].Files)
	}
}

func TestMineLimitAndDates(t *testing.T) {
	dir, err := fixtures.GitHistory(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	prs, err := Mine(context.Background(), Options{Path: dir, Limit: 2})
	if err != nil || len(prs) != 2 || prs[0].Number != 8 {
		t.Fatalf("limit 2: %v %v", prs, err)
	}
	since, _ := ParseDate("--since", "2030-01-01")
	prs, err = Mine(context.Background(), Options{Path: dir, Since: since})
	if err != nil || len(prs) != 0 {
		t.Fatalf("since 2030: %v %v", prs, err)
	}
}

func TestMineBadInput(t *testing.T) {
	ctx := context.Background()
	plain := t.TempDir()
	if _, err := Mine(ctx, Options{Path: plain}); !errors.Is(err, ErrNotRepo) {
		t.Errorf("plain dir: %v", err)
	}
	empty := t.TempDir()
	if out, err := exec.Command("git", "init", "-q", empty).CombinedOutput(); err != nil {
		t.Fatal(string(out))
	}
	if _, err := Mine(ctx, Options{Path: empty}); !errors.Is(err, ErrEmpty) {
		t.Errorf("empty repo: %v", err)
	}
	dir, err := fixtures.GitHistory(filepath.Join(t.TempDir(), "src"))
	if err != nil {
		t.Fatal(err)
	}
	shallow := filepath.Join(t.TempDir(), "shallow")
	if out, err := exec.Command("git", "clone", "-q", "--depth", "2", "file://"+dir, shallow).CombinedOutput(); err != nil {
		t.Fatal(string(out))
	}
	_, err = Mine(ctx, Options{Path: shallow})
	if !errors.Is(err, ErrShallow) || !strings.Contains(err.Error(), "git fetch --unshallow") {
		t.Errorf("shallow clone: %v", err)
	}
	if _, err := Mine(ctx, Options{Path: dir, Branch: "nope"}); err == nil || !strings.Contains(err.Error(), `"nope"`) {
		t.Errorf("missing branch: %v", err)
	}
	if _, err := Mine(ctx, Options{Path: filepath.Join(dir, "README.md")}); !errors.Is(err, ErrNotRepo) {
		t.Errorf("file: %v", err)
	}
	if _, err := Mine(ctx, Options{Path: filepath.Join(dir, "nope")}); err == nil || !strings.Contains(err.Error(), "nope does not exist") {
		t.Errorf("missing path: %v", err)
	}
	if _, err := ParseDate("--since", "yesterday"); err == nil || !strings.Contains(err.Error(), "invalid --since") {
		t.Errorf("bad date: %v", err)
	}
	noOrigin := t.TempDir()
	g, _ := fixtures.NewGit(noOrigin, "")
	g.Commit("x")
	if _, err := Mine(ctx, Options{Path: noOrigin}); err == nil || !strings.Contains(err.Error(), "--repo") {
		t.Errorf("no origin: %v", err)
	}
}

func TestMeasureLines(t *testing.T) {
	dir, prs := mineFixture(t)
	list := []*source.PR{prs[1], prs[4]}
	if err := MeasureLines(context.Background(), dir, list); err != nil {
		t.Fatal(err)
	}
	for _, f := range prs[1].Files {
		if f.Path == "widgets/core.py" && f.Lines != 4 {
			t.Errorf("core.py lines %d, want 4", f.Lines)
		}
	}
}

func TestRepoFromRemote(t *testing.T) {
	for in, want := range map[string]string{
		"https://github.com/acme/widgets.git":    "acme/widgets",
		"https://github.com/acme/widgets":        "acme/widgets",
		"git@github.com:acme/widgets.git":        "acme/widgets",
		"ssh://git@github.com/acme/wid.gets.git": "acme/wid.gets",
		"https://user@example.org/a/b/":          "a/b",
		"/local/path/repo":                       "",
		"https://github.com/only":                "",
	} {
		if got := RepoFromRemote(in); got != want {
			t.Errorf("RepoFromRemote(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestParseLogErrors(t *testing.T) {
	for _, in := range []string{
		"garbage",
		"\x1eM\x00zz\x00\x00",
		"\x1eM\x00abcdef0\x00\x00notatime\x00a\x00s\x00b\x00",
		"\x1eM\x00abcdef0\x00\x00123\x00a\x00s\x00b\x00\n1\t2\n",
		"\x1eM\x00abcdef0\x00\x00123\x00a\x00s\x00b\x00\n1\t2\t\x00old\x00",
	} {
		if err := ParseLog(strings.NewReader(in), "M", func(*Commit) error { return nil }); err == nil {
			t.Errorf("ParseLog(%q): no error", in)
		}
	}
}

func FuzzParseLog(f *testing.F) {
	f.Add([]byte("\x1eM\x00abcdef0\x00\x00123\x00a\x00s\x00b\x00\n1\t2\tx.go\x00-\t-\tbin\x00"))
	f.Add([]byte("\x1eM\x00abcdef0\x00abcdef1 abcdef2\x00123\x00a\x00s\x00b\x00\n1\t2\t\x00old\x00new\x00"))
	f.Add([]byte(""))
	f.Fuzz(func(t *testing.T, data []byte) {
		_ = ParseLog(strings.NewReader(string(data)), "M", func(c *Commit) error {
			if c.Hash == "" {
				t.Fatal("empty hash accepted")
			}
			for _, f := range c.Files {
				if f.Path == "" || f.Added < 0 || f.Removed < 0 {
					t.Fatalf("bad file %+v", f)
				}
			}
			return nil
		})
	})
}

// A C library's history imported from CVS (held-out set 19) has a 2004
// subject ending in a SourceForge patch number, "(#1047014)": it was
// mined as a squash-merged PR and built. GitHub had no pull requests
// before 2008; the same subject a year after GitHub opened is one.
func TestSquashSubjectBeforeGitHubIsNoPR(t *testing.T) {
	c := &Commit{Hash: "b", Parents: []string{"a"}, Subject: "Fix a leak in the parser (#1047014)",
		Time: time.Date(2004, 10, 12, 9, 0, 0, 0, time.UTC).Unix()}
	if pr := ToPR(c, "o/r"); pr != nil {
		t.Errorf("a 2004 commit mined as PR %d", pr.Number)
	}
	c.Time = time.Date(2009, 3, 1, 0, 0, 0, 0, time.UTC).Unix()
	if pr := ToPR(c, "o/r"); pr == nil || pr.Number != 1047014 || pr.Kind != "squash" {
		t.Errorf("a 2009 squash subject: %+v", pr)
	}
}
