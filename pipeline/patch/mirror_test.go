package patch

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// realRepo clones ../shared/repos/<bundle>.bundle (beside the module
// root), or skips when the bundles are absent.
func realRepo(t *testing.T, bundle string) string {
	t.Helper()
	src, _ := filepath.Abs(filepath.Join("..", "..", "..", "shared", "repos", bundle+".bundle"))
	if _, err := os.Stat(src); err != nil {
		t.Skipf("no %s: real-repository tests need ../shared/repos beside the project", src)
	}
	dir := filepath.Join(t.TempDir(), bundle)
	if out, err := exec.Command("git", "clone", "-q", src, dir).CombinedOutput(); err != nil {
		t.Fatalf("clone %s: %v\n%s", src, err, out)
	}
	return dir
}

// prCommits lists the newest first-parent commits of the default branch
// that change a test file and a source file (what mining keeps).
func prCommits(t *testing.T, repo string, n int) []string {
	t.Helper()
	out, err := exec.Command("git", "-C", repo, "log", "--first-parent", "--format=%H", "-n", "400", "HEAD").Output()
	if err != nil {
		t.Fatal(err)
	}
	var picked []string
	for _, c := range strings.Fields(string(out)) {
		files, err := exec.Command("git", "-C", repo, "diff", "--name-only", c+"^1", c).Output()
		if err != nil {
			continue
		}
		var test, src bool
		for _, f := range strings.Fields(string(files)) {
			if isTest(f) {
				test = true
			} else if strings.HasSuffix(f, ".go") || strings.HasSuffix(f, ".py") {
				src = true
			}
		}
		if test && src {
			picked = append(picked, c)
		}
		if len(picked) == n {
			break
		}
	}
	return picked
}

// TestMirrorRealRepos ports real merged PRs of cobra and click onto their
// default branch tip and checks, outside Mirror's own check, that the
// mirrored bug.patch then fix.patch gives the snapshot back byte for byte,
// that bug.patch really changes the snapshot, and that a PR that does not
// mirror is named as a patch_conflict with its files.
func TestMirrorRealRepos(t *testing.T) {
	ctx := context.Background()
	for _, bundle := range []string{"spf13+cobra", "pallets+click"} {
		t.Run(bundle, func(t *testing.T) {
			repo := realRepo(t, bundle)
			head := revParse(t, repo, "HEAD")
			commits := prCommits(t, repo, 8)
			if len(commits) < 4 {
				t.Fatalf("only %d PR commits", len(commits))
			}
			mirrored := 0
			for _, c := range commits {
				set, err := Make(ctx, repo, c+"^1", c, isTest, 0)
				if err != nil {
					continue
				}
				m, err := Mirror(ctx, repo, "HEAD", set)
				if reasons, ok := IsRejection(err); ok {
					if !strings.HasPrefix(reasons[0], ConflictClass+":") {
						t.Errorf("%s: rejection is not a %s: %v", c[:8], ConflictClass, reasons)
					}
					continue
				} else if err != nil {
					t.Fatalf("%s: %v", c[:8], err)
				}
				mirrored++
				if m.Snapshot != head {
					t.Errorf("snapshot = %s, want %s", m.Snapshot, head)
				}
				tree := extract(t, repo, head)
				want := snapshot(t, tree)
				applyFile(t, tree, m.Bug)
				if bytes.Equal(flatten(snapshot(t, tree)), flatten(want)) {
					t.Errorf("%s: bug.patch changes nothing at the snapshot", c[:8])
				}
				if len(m.HideTests) > 0 {
					applyFile(t, tree, m.HideTests)
					applyFile(t, tree, m.Test)
				}
				applyFile(t, tree, m.Fix)
				got := snapshot(t, tree)
				if len(got) != len(want) {
					t.Errorf("%s: %d files after bug+fix, want %d", c[:8], len(got), len(want))
				}
				for p, data := range want {
					if !bytes.Equal(got[p], data) {
						t.Errorf("%s: %s differs after bug.patch then fix.patch (method %s)", c[:8], p, m.Method)
					}
				}
			}
			t.Logf("%s: %d of %d PRs mirror onto %s", bundle, mirrored, len(commits), head[:8])
			if mirrored == 0 {
				t.Errorf("no PR mirrors")
			}
		})
	}
}

func flatten(m map[string][]byte) []byte {
	var b bytes.Buffer
	for k, v := range m {
		b.WriteString(k)
		b.Write(v)
	}
	return b.Bytes()
}

// TestMirrorConflict: a fix whose lines were rewritten since the PR does
// not reverse by any method and is a patch_conflict naming the file and
// its hunk.
func TestMirrorConflict(t *testing.T) {
	ctx := context.Background()
	repo := t.TempDir()
	run := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", repo, "-c", "user.name=t", "-c", "user.email=t@t"}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	write := func(p, s string) {
		os.MkdirAll(filepath.Dir(filepath.Join(repo, p)), 0o755)
		if err := os.WriteFile(filepath.Join(repo, p), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	run("init", "-q")
	write("calc.py", "def add(a, b):\n    return a - b\n")
	write("test_calc.py", "from calc import add\n")
	run("add", "-A")
	run("commit", "-qm", "base")
	write("calc.py", "def add(a, b):\n    return a + b\n")
	write("test_calc.py", "from calc import add\n\ndef test_add():\n    assert add(1, 2) == 3\n")
	run("add", "-A")
	run("commit", "-qm", "fix")
	pr := revParse(t, repo, "HEAD")
	write("calc.py", "def add(x, y):\n    \"\"\"Sum.\"\"\"\n    total = x + y\n    return total\n")
	run("add", "-A")
	run("commit", "-qm", "rewrite")
	set, err := Make(ctx, repo, pr+"^1", pr, isTest, 0)
	if err != nil {
		t.Fatal(err)
	}
	_, err = Mirror(ctx, repo, "HEAD", set)
	reasons, ok := IsRejection(err)
	if !ok || len(reasons) != 1 || !strings.HasPrefix(reasons[0], "patch_conflict:") || !strings.Contains(reasons[0], "calc.py hunk #1") {
		t.Fatalf("err = %v, want a patch_conflict naming calc.py hunk #1", err)
	}
	// The same PR mirrors onto its own merge commit (plain reverse).
	m, err := Mirror(ctx, repo, pr, set)
	if err != nil {
		t.Fatal(err)
	}
	if m.Method != MethodReverse || !bytes.Equal(m.Bug, set.Bug) || !bytes.Equal(m.HideTests, set.HideTests) {
		t.Errorf("at the merge commit: method %s, bug equal %v, hide equal %v", m.Method, bytes.Equal(m.Bug, set.Bug), bytes.Equal(m.HideTests, set.HideTests))
	}
}

// TestMirrorInertOnlyConflict: a PR whose only non-test change is a CI
// workflow, rewritten since, is a patch_conflict that says no code
// conflicts and names the workflow, not its hunk.
func TestMirrorInertOnlyConflict(t *testing.T) {
	ctx := context.Background()
	repo := t.TempDir()
	run := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", repo, "-c", "user.name=t", "-c", "user.email=t@t"}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	write := func(p, s string) {
		os.MkdirAll(filepath.Dir(filepath.Join(repo, p)), 0o755)
		if err := os.WriteFile(filepath.Join(repo, p), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	const ci = ".github/workflows/ci.yml"
	run("init", "-q")
	write("calc.py", "def add(a, b):\n    return a + b\n")
	write(ci, "on: push\njobs:\n  test:\n    runs-on: ubuntu-20.04\n    steps:\n      - run: pytest\n")
	write("test_calc.py", "from calc import add\n")
	run("add", "-A")
	run("commit", "-qm", "base")
	write(ci, "on: push\njobs:\n  test:\n    runs-on: ubuntu-22.04\n    steps:\n      - run: pytest\n")
	write("test_calc.py", "from calc import add\n\ndef test_add():\n    assert add(1, 2) == 3\n")
	run("add", "-A")
	run("commit", "-qm", "ci and a test")
	pr := revParse(t, repo, "HEAD")
	write(ci, "on: [push, pull_request]\njobs:\n  tests:\n    runs-on: ubuntu-24.04\n    steps:\n      - uses: actions/checkout@v4\n      - run: python -m pytest\n")
	run("add", "-A")
	run("commit", "-qm", "rewrite ci")
	set, err := Make(ctx, repo, pr+"^1", pr, isTest, 0)
	if err != nil {
		t.Fatal(err)
	}
	_, err = Mirror(ctx, repo, "HEAD", set)
	reasons, ok := IsRejection(err)
	want := "patch_conflict: the PR changes no code, only docs, CI or manifests (" + ci + "), and that change does not reverse at snapshot " + revParse(t, repo, "HEAD")[:12]
	if !ok || len(reasons) != 1 || reasons[0] != want {
		t.Fatalf("err = %v\nwant %s", err, want)
	}
}

// TestMirrorLeavesOutInertFiles: cobra's "More linting" PR (#2099) changes
// .golangci.yml, whose lines moved since, and Go code that still reverses.
// Mirrored onto the bundle's tip it reverses without the lint config
// (Dropped names it) and round-trips; a PR whose Go code conflicts
// (#2231, completions.go) stays a patch_conflict naming that file.
func TestMirrorLeavesOutInertFiles(t *testing.T) {
	ctx := context.Background()
	repo := realRepo(t, "spf13+cobra")
	pr := func(n string) *Set {
		t.Helper()
		set, _ := prSet(t, repo, "(#"+n+")")
		return set
	}
	m, err := Mirror(ctx, repo, "HEAD", pr("2099"))
	if err != nil {
		t.Fatalf("#2099: %v", err)
	}
	if strings.Join(m.Dropped, ",") != ".golangci.yml" {
		t.Errorf("#2099 dropped %q, want .golangci.yml", m.Dropped)
	}
	if files, _ := Paths("bug.patch", m.Bug); len(files) == 0 || strings.Contains(strings.Join(files, " "), ".golangci.yml") {
		t.Errorf("#2099 bug.patch files = %v: want Go files only", files)
	}
	head := revParse(t, repo, "HEAD")
	tree := extract(t, repo, head)
	want := snapshot(t, tree)
	applyFile(t, tree, m.Bug)
	applyFile(t, tree, m.Fix)
	got := snapshot(t, tree)
	for p, data := range want {
		if !bytes.Equal(got[p], data) {
			t.Errorf("#2099: %s differs after bug.patch then fix.patch", p)
		}
	}
	_, err = Mirror(ctx, repo, "HEAD", pr("2231"))
	if reasons, ok := IsRejection(err); !ok || !strings.Contains(reasons[0], "completions.go hunk") {
		t.Errorf("#2231: err = %v, want a patch_conflict naming completions.go", err)
	}
}

func TestInert(t *testing.T) {
	for p, want := range map[string]bool{
		"README.md": true, "docs/index.rst": true, ".github/workflows/main.yml": true, ".golangci.yml": true,
		"CHANGES.txt": true, "CHANGELOG": true, "go.mod": true, "go.sum": true, "package.json": true, "js/package.json": true,
		"pyproject.toml": true, "Cargo.toml": true, "pom.xml": true, "tox.ini": true, "noxfile.py": true,
		"doc/man_docs.go": false, "docs/conf.py": false, "index.js": false, "src/click/core.py": false, "history.go": false,
		"changes.py": false, "index.d.ts": false, "src/lib.rs": false, "requirements/tests.in": false,
	} {
		if got := Inert(p); got != want {
			t.Errorf("Inert(%q) = %v, want %v", p, got, want)
		}
	}
}

// TestMirrorHidesTestsAtBase: attrs PR #1201 changed tests/test_slots.py,
// which moved on since, so its test change does not reverse at the
// bundle's tip. The agent then sees the file as it was at the PR's base,
// and bug, hide-tests, test and fix still round-trip to the snapshot.
func TestMirrorHidesTestsAtBase(t *testing.T) {
	ctx := context.Background()
	repo := realRepo(t, "python-attrs+attrs")
	set, commit := prSet(t, repo, "(#1201)")
	m, err := Mirror(ctx, repo, "HEAD", set)
	if err != nil {
		t.Fatal(err)
	}
	if m.TestMethod != MethodBase {
		t.Errorf("test method = %q, want %q", m.TestMethod, MethodBase)
	}
	tree := extract(t, repo, revParse(t, repo, "HEAD"))
	want := snapshot(t, tree)
	applyFile(t, tree, m.Bug)
	applyFile(t, tree, m.HideTests)
	baseFile, _ := exec.Command("git", "-C", repo, "show", commit+"^1:tests/test_slots.py").Output()
	if got := snapshot(t, tree)["tests/test_slots.py"]; !bytes.Equal(got, baseFile) {
		t.Errorf("hidden tests/test_slots.py is not the PR base's")
	}
	applyFile(t, tree, m.Test)
	applyFile(t, tree, m.Fix)
	got := snapshot(t, tree)
	for p, data := range want {
		if !bytes.Equal(got[p], data) {
			t.Errorf("%s differs after the round trip", p)
		}
	}
}

// TestMirrorNeverAppliesTheFixForward: more-itertools PR #1158 added
// seekable.__getitem__; at the bundle's tip GNU patch took its first hunk
// for an unreversed patch and, under --batch, applied it forward, so the
// "bug" gained a second __getitem__ and the task read as a true negative.
// Now the hunk is a conflict (auto builds the PR at its merge commit).
func TestMirrorNeverAppliesTheFixForward(t *testing.T) {
	ctx := context.Background()
	repo := realRepo(t, "more-itertools+more-itertools")
	set, _ := prSet(t, repo, "pull request #1158 ")
	m, err := Mirror(ctx, repo, "HEAD", set)
	if err == nil {
		if strings.Contains(string(m.Bug), "+    def __getitem__") {
			t.Fatalf("the mirrored bug adds what the fix added (method %s):\n%s", m.Method, m.Bug)
		}
		return
	}
	if reasons, ok := IsRejection(err); !ok || !strings.Contains(reasons[0], "more_itertools/more.py hunk #1") {
		t.Errorf("err = %v, want a patch_conflict naming more_itertools/more.py hunk #1", err)
	}
}

// prSet makes the patch set of the first first-parent commit whose message
// matches grep (a PR's merge or squash commit).
func prSet(t *testing.T, repo, grep string) (*Set, string) {
	t.Helper()
	out, err := exec.Command("git", "-C", repo, "log", "--first-parent", "--format=%H", "--grep", grep, "HEAD").Output()
	c := strings.Fields(string(out))
	if err != nil || len(c) == 0 {
		t.Fatalf("no commit matching %q: %v", grep, err)
	}
	set, err := Make(context.Background(), repo, c[0]+"^1", c[0], isTest, 0)
	if err != nil {
		t.Fatal(err)
	}
	return set, c[0]
}
