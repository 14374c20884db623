package python

import (
	"curate/pipeline/envgen"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// gitTree is a bundle's tree at a revision, as the build reads it.
func gitTree(t *testing.T, bundle, rev string) *envgen.Tree {
	t.Helper()
	path := filepath.Join("..", "..", "..", "..", "shared", "repos", bundle)
	if _, err := os.Stat(path); err != nil {
		t.Skipf("no %s in ../shared/repos", bundle)
	}
	dir := t.TempDir()
	if out, err := exec.Command("git", "clone", "-q", "--bare", path, dir).CombinedOutput(); err != nil {
		t.Fatalf("git clone: %v\n%s", err, out)
	}
	out, err := exec.Command("git", "-C", dir, "ls-tree", "-r", "--name-only", rev).Output()
	if err != nil {
		t.Fatal(err)
	}
	tree := envgen.NewTree("pallets/click", "", strings.Fields(string(out)), func(p string) ([]byte, error) {
		return exec.Command("git", "-C", dir, "show", rev+":"+p).Output()
	})
	date, err := exec.Command("git", "-C", dir, "log", "-1", "--format=%cI", rev).Output()
	if err != nil {
		t.Fatal(err)
	}
	tree.Date, err = time.Parse(time.RFC3339, strings.TrimSpace(string(date)))
	if err != nil {
		t.Fatal(err)
	}
	return tree
}

// pallets/click at 5b713bfa (2020-07-31) sets filterwarnings = error in
// setup.cfg [tool:pytest] and names no Python minor in its classifiers; the
// image runs Python 3.9 (released after the revision), whose deprecations
// the suite never met: they are capped to warnings. At the bundle's head
// (filterwarnings = ["error"] in pyproject.toml, a revision newer than
// the image's Python 3.11), they stay errors.
func TestWarningsCapOnNewerInterpreter(t *testing.T) {
	old := gitTree(t, "pallets+click.bundle", "5b713bfaa868b98b3720d56ee6221a9d243a30fb")
	p, err := envgen.LanguageFor("python").Plan(old, envgen.Tests{Files: []string{"tests/test_basic.py"}})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(p.Test.Command, "-W default::DeprecationWarning -W default::PendingDeprecationWarning 'tests/test_basic.py'") ||
		!strings.Contains(strings.Join(p.Notes, "\n"), "setup.cfg turns warnings into errors and the revision (2020-07-31) is older than Python 3.9") {
		t.Errorf("no cap: command %q, notes %q", p.Test.Command, p.Notes)
	}
	head := gitTree(t, "pallets+click.bundle", "HEAD")
	p, err = envgen.LanguageFor("python").Plan(head, envgen.Tests{Files: []string{"tests/test_basic.py"}})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(p.Test.Command, "default::DeprecationWarning") {
		t.Errorf("capped at the head, which declares the image's Python: %q", p.Test.Command)
	}
}
