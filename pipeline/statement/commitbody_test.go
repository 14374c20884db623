package statement

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// commitText reads a commit's subject and body from a bundle.
func commitText(t *testing.T, repos, bundle, commit string) (subject, body string) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), bundle)
	if out, err := exec.Command("git", "clone", "-q", "--bare", filepath.Join(repos, bundle+".bundle"), dir).CombinedOutput(); err != nil {
		t.Fatalf("clone: %v\n%s", err, out)
	}
	s, err := exec.Command("git", "-C", dir, "log", "-1", "--format=%s", commit).Output()
	if err != nil {
		t.Fatal(err)
	}
	b, err := exec.Command("git", "-C", dir, "log", "-1", "--format=%b", commit).Output()
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(s)), string(b)
}

// Each rule of the commit-body cleaner on a real squash commit.
func TestCleanCommitOnRealBodies(t *testing.T) {
	repos := sharedRepos(t)
	cases := []struct {
		name, bundle, commit string
		keep, drop           []string
	}{
		{"title repeated, CI fix with its sub-items", "python-attrs+attrs", "862696afb52fb7c0d47d45e05ec4feb844c11001",
			[]string{"Previously, field_transformer received attributes", "Explicit aliases are preserved.", "* Handle default alias detection explicitly"},
			[]string{"* Resolve field aliases before calling field_transformer", "Fix CI failures", "Add changelog entry", "Fix pre-commit", "Fix docs build", "Co-authored-by"}},
		{"bot commits, their footers and reverts", "python-attrs+attrs", "eccd966d80aff5196efc959316961cfa780439f9",
			[]string{"Work around `ty` false positive"},
			[]string{"pre-commit", "This reverts commit", "Add changelog", "* Fix `optional` validator to accept tuples of len > 1", "Silence ty"}},
		{"reverts of the branch's own commits, lone words", "python-attrs+attrs", "112dd1d49848da7a956c78415e0f571e0dc70d90",
			[]string{"* Add attrs.inspect()", "This reflects that the instance is NOT just the parameters"},
			[]string{`Revert "Move back`, "* Docs\n", "* Grammar", "* Consistency", "* Reorder", "Add to changelog"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			title, body := commitText(t, repos, c.bundle, c.commit)
			got := CleanCommit(body, title) + "\n"
			for _, k := range c.keep {
				if !strings.Contains(got, k) {
					t.Errorf("dropped %q:\n%s", k, got)
				}
			}
			for _, d := range c.drop {
				if strings.Contains(got, d) {
					t.Errorf("kept %q:\n%s", d, got)
				}
			}
		})
	}
	// A revert's body is only boilerplate: the statement falls back to
	// the title instead of "This reverts commit 6c4a77b...".
	title, body := commitText(t, repos, "pallets+click", "bb7be1f6a91f3fd1267d1a6d68771273d593f9c7")
	if text, src := Choose(Sources{Title: title, CommitBody: body}); src != SourceTitle || strings.Contains(text, "reverts") {
		t.Errorf("revert body chosen as %s: %q", src, text)
	}
	// Merge subjects a squash lists (real ones from argparse and click).
	merges := "* Merge branch '#88-show-default-value-in-help' of github.com:cekc/argparse into #88-show-default-value-in-help\n\n* Show the default value in help\n\n* Merge branch 'main' into fix-help-name-collision\n"
	if got := CleanCommit(merges, "Show default"); got != "* Show the default value in help" {
		t.Errorf("merge subjects kept: %q", got)
	}
}
