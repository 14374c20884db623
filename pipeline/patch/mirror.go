package patch

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"curate/pipeline"
)

// ConflictClass is the failure class of a PR whose fix does not reverse
// at the snapshot by any of the deterministic methods.
const ConflictClass = pipeline.ClassPatchConflict

// Mirror methods, in the order Mirror tries them.
const (
	MethodReverse = "reverse" // git apply -R
	Method3Way    = "3way"    // git apply -3 -R, with the repository's objects
	MethodFuzz    = "fuzz"    // GNU patch -R, hunk by hunk, fuzz 3
	// MethodBase hides a test change that does not reverse: the test
	// files as they were at the PR's base.
	MethodBase = "base"
)

// Mirrored is a PR ported onto a snapshot revision: the patches of the
// Set are rewritten against the snapshot, and Method says how the fix
// was reversed there.
type Mirrored struct {
	*Set
	Snapshot string
	Method   string
	// TestMethod is how the PR's test change was reversed (hide-tests);
	// "" when the PR's tests are all new files or none remain.
	TestMethod string
	// Tests are the PR's test files that exist at the snapshot.
	Tests []string
	// Dropped are the PR's inert files (docs, CI, manifests: see Inert)
	// left out because the whole fix did not reverse at the snapshot.
	Dropped []string
}

// Conflict is a PR whose fix (or test change) does not reverse at the
// snapshot: the files and hunk numbers that failed.
type Conflict struct {
	Snapshot string
	Hunks    map[string][]int // file -> failed hunk numbers (1-based, GNU patch's)
}

func (c *Conflict) Error() string {
	files := make([]string, 0, len(c.Hunks))
	for f := range c.Hunks {
		files = append(files, f)
	}
	sort.Strings(files)
	parts := make([]string, len(files))
	for i, f := range files {
		hs := make([]string, len(c.Hunks[f]))
		for j, h := range c.Hunks[f] {
			hs[j] = fmt.Sprintf("#%d", h)
		}
		if len(hs) == 0 {
			parts[i] = display(f)
		} else {
			parts[i] = display(f) + " hunk " + strings.Join(hs, ",")
		}
	}
	return fmt.Sprintf("%s: the PR does not reverse at snapshot %s: %s", ConflictClass, short(c.Snapshot), strings.Join(parts, "; "))
}

// Mirror ports the PR s (made from base..head in repo) onto snapshot: the
// bug is the fix reversed at the snapshot (plain reverse apply, then a
// three-way apply with the repository's objects, then GNU patch hunk by
// hunk with fuzz), and the tests are the PR's test files as they stand at
// the snapshot, hidden by reversing the PR's test change there the same
// way. Every patch is checked to round-trip byte for byte (bug then fix
// gives the snapshot's tree back). A PR that does not mirror is a
// *Rejection whose reason starts with "patch_conflict:".
func Mirror(ctx context.Context, repo, snapshot string, s *Set) (*Mirrored, error) {
	snap, err := gitOut(ctx, repo, nil, "rev-parse", "--verify", "--end-of-options", snapshot+"^{commit}")
	if err != nil {
		return nil, fmt.Errorf("snapshot %s: %w", snapshot, err)
	}
	snapshot = strings.TrimSpace(string(snap))
	tmp, done, err := ScratchDir(s.Scratch, "mirror", "", "curate-mirror-")
	if err != nil {
		return nil, err
	}
	defer done()
	w := filepath.Join(tmp, "w")
	// A shared clone borrows the repository's objects (git apply -3 needs
	// the PR's blobs) and leaves the repository itself untouched.
	if _, err := gitOut(ctx, tmp, nil, "clone", "-q", "--shared", "--no-checkout", "--", repo, w); err != nil {
		return nil, err
	}
	g := func(args ...string) ([]byte, error) {
		return gitOut(ctx, w, nil, append([]string{"-c", "core.autocrlf=false", "-c", "user.name=curate", "-c", "user.email=curate@localhost"}, args...)...)
	}
	if _, err := g("checkout", "-q", "--detach", snapshot); err != nil {
		return nil, err
	}
	m := &Mirrored{Set: &Set{Base: s.Base, Head: s.Head, SourceFiles: s.SourceFiles, Scratch: s.Scratch}, Snapshot: snapshot}
	snapTree, err := treeOf(g, snapshot)
	if err != nil {
		return nil, err
	}
	if m.Method, err = reverseApply(ctx, w, g, tmp, "fix.patch", s.Fix); err != nil {
		if m.Method, m.Dropped, err = reverseCode(ctx, repo, w, g, tmp, s, err); err != nil {
			return nil, err
		}
		m.SourceFiles, _ = splitInert(s.SourceFiles)
	}
	bugTree, err := writeTree(g)
	if err != nil {
		return nil, err
	}
	if bugTree == snapTree {
		return nil, &Rejection{Reasons: []string{ConflictClass + ": the fix is already undone at snapshot " + short(snapshot) + " (reverting it changes nothing)"}}
	}
	if m.Fix, err = diff(ctx, w, bugTree, snapTree, s.SourceFiles); err != nil {
		return nil, err
	}
	if m.Bug, err = diff(ctx, w, snapTree, bugTree, s.SourceFiles); err != nil {
		return nil, err
	}

	// The tests: the PR's test files that exist at the snapshot.
	var testPaths, reversible []string
	var reverse [][]byte
	for _, f := range s.TestFiles {
		if _, err := g("cat-file", "-e", snapshot+":"+f.Path); err != nil {
			continue // gone (moved or deleted) since the PR
		}
		m.TestFiles = append(m.TestFiles, TestFile{Path: f.Path, New: f.New})
		m.Tests = append(m.Tests, f.Path)
		testPaths = append(testPaths, f.Path)
		if f.New {
			continue
		}
		one, err := diff(ctx, repo, s.Base, s.Head, []string{f.Path})
		if err != nil {
			return nil, err
		}
		reversible, reverse = append(reversible, f.Path), append(reverse, one)
	}
	hiddenTree := bugTree
	if len(testPaths) > 0 {
		// New test files disappear; changed ones go back to before the PR.
		for _, f := range m.TestFiles {
			if f.New {
				if _, err := g("rm", "-q", "--", ":(literal)"+f.Path); err != nil {
					return nil, err
				}
			}
		}
		if len(reversible) > 0 {
			if m.TestMethod, err = reverseApply(ctx, w, g, tmp, "test.patch", bytes.Join(reverse, nil)); err != nil {
				if m.TestMethod, err = hideAtBase(ctx, repo, w, g, s.Base, reversible, err); err != nil {
					return nil, err
				}
			}
		}
		if hiddenTree, err = writeTree(g); err != nil {
			return nil, err
		}
		if m.HideTests, err = diff(ctx, w, bugTree, hiddenTree, testPaths); err != nil {
			return nil, err
		}
		if m.Test, err = diff(ctx, w, hiddenTree, bugTree, testPaths); err != nil {
			return nil, err
		}
	}
	if err := m.roundTrip(ctx, w, g, tmp, snapTree, bugTree, hiddenTree); err != nil {
		return nil, err
	}
	for name, p := range map[string][]byte{"fix.patch": m.Fix, "bug.patch": m.Bug, "test.patch": m.Test, "hide-tests.patch": m.HideTests} {
		if _, err := Paths(name, p); err != nil {
			return nil, &Rejection{Reasons: []string{err.Error()}}
		}
	}
	return m, nil
}

// roundTrip checks, from a clean checkout of the snapshot, that bug.patch
// gives the bug's tree, hide-tests.patch the agent's, and that undoing
// them (test.patch, fix.patch) gives the snapshot's tree back, byte for
// byte (git's tree hashes cover every byte of every file).
func (m *Mirrored) roundTrip(ctx context.Context, w string, g func(...string) ([]byte, error), tmp, snapTree, bugTree, hiddenTree string) error {
	if _, err := g("reset", "-q", "--hard", m.Snapshot); err != nil {
		return err
	}
	if _, err := g("clean", "-q", "-fdx"); err != nil {
		return err
	}
	steps := []struct {
		name  string
		patch []byte
		want  string
	}{{"bug.patch", m.Bug, bugTree}, {"hide-tests.patch", m.HideTests, hiddenTree}, {"test.patch", m.Test, bugTree}, {"fix.patch", m.Fix, snapTree}}
	for _, st := range steps {
		if len(st.patch) > 0 {
			p := filepath.Join(tmp, "rt-"+st.name)
			if err := os.WriteFile(p, st.patch, 0o644); err != nil {
				return err
			}
			if _, err := gitOut(ctx, w, nil, "apply", "--whitespace=nowarn", p); err != nil {
				return &Rejection{Reasons: []string{fmt.Sprintf("%s: mirrored %s does not apply at snapshot %s: %v", ConflictClass, st.name, short(m.Snapshot), err)}}
			}
		}
		got, err := writeTree(g)
		if err != nil {
			return err
		}
		if got != st.want {
			return &Rejection{Reasons: []string{fmt.Sprintf("%s: mirrored %s does not round-trip at snapshot %s", ConflictClass, st.name, short(m.Snapshot))}}
		}
	}
	return nil
}

// hideAtBase hides the PR's changed test files when their change does
// not reverse at the snapshot (conflict): each goes back to its content at
// the PR's base. The agent sees the older file instead of the snapshot's
// minus the PR's tests; verification restores the snapshot's file
// (test.patch) either way, so what is tested is the same.
func hideAtBase(ctx context.Context, repo, w string, g func(...string) ([]byte, error), base string, paths []string, conflict error) (string, error) {
	if _, ok := IsRejection(conflict); !ok {
		return "", conflict
	}
	for _, p := range paths {
		data, err := gitOut(ctx, repo, nil, "cat-file", "blob", base+":"+p)
		if err != nil {
			return "", conflict // not a blob at the base: keep the conflict
		}
		dst := filepath.Join(w, filepath.FromSlash(p))
		mode := os.FileMode(0o644)
		if fi, err := os.Stat(dst); err == nil {
			mode = fi.Mode().Perm()
		}
		if err := os.WriteFile(dst, data, mode); err != nil {
			return "", err
		}
	}
	return MethodBase, nil
}

// reverseCode retries a fix that conflicted (conflict) without the PR's
// inert files: when only docs, CI or manifest hunks were in the way, the
// code change alone reverses. It returns the method and the files left
// out, or the conflict of the code change alone (the hunks that matter).
// A fix of inert files only says so plainly: no code conflicts there.
func reverseCode(ctx context.Context, repo, w string, g func(...string) ([]byte, error), tmp string, s *Set, conflict error) (string, []string, error) {
	code, inert := splitInert(s.SourceFiles)
	_, ok := IsRejection(conflict)
	if ok && len(code) == 0 && len(inert) > 0 {
		return "", nil, inertConflict(strings.TrimSpace(gitRev(g)), inert)
	}
	if !ok || len(code) == 0 || len(inert) == 0 {
		return "", nil, conflict
	}
	fix, err := diff(ctx, repo, s.Base, s.Head, code)
	if err != nil {
		return "", nil, err
	}
	method, err := reverseApply(ctx, w, g, tmp, "fix-code.patch", fix)
	if err != nil {
		return "", nil, err
	}
	return method, inert, nil
}

// inertConflict is the patch_conflict of a PR whose non-test change is
// inert files only (docs, CI, manifests) that do not reverse at snapshot:
// it names them, the first few when there are many.
func inertConflict(snapshot string, inert []string) error {
	const most = 4
	names := make([]string, 0, most+1)
	for i, f := range inert {
		if i == most {
			names = append(names, fmt.Sprintf("%d more", len(inert)-most))
			break
		}
		names = append(names, display(f))
	}
	return &Rejection{Reasons: []string{fmt.Sprintf("%s: the PR changes no code, only docs, CI or manifests (%s), and that change does not reverse at snapshot %s",
		ConflictClass, strings.Join(names, ", "), short(snapshot))}}
}

// reverseApply reverses patch in the work tree w, trying each method in
// turn and restoring the tree between tries. It returns the method that
// worked, or a *Rejection naming the files and hunks that conflict.
func reverseApply(ctx context.Context, w string, g func(...string) ([]byte, error), tmp, name string, patch []byte) (string, error) {
	p := filepath.Join(tmp, name)
	if err := os.WriteFile(p, patch, 0o644); err != nil {
		return "", err
	}
	head, err := writeTree(g)
	if err != nil {
		return "", err
	}
	restore := func() error {
		if _, err := g("read-tree", "--reset", "-u", head); err != nil {
			return err
		}
		_, err := g("clean", "-q", "-fdx")
		return err
	}
	if _, err := g("apply", "-R", "--index", "--whitespace=nowarn", p); err == nil {
		return MethodReverse, nil
	}
	if err := restore(); err != nil {
		return "", err
	}
	if _, err := g("apply", "-3", "-R", "--whitespace=nowarn", p); err == nil {
		return Method3Way, nil
	}
	if err := restore(); err != nil {
		return "", err
	}
	// -f, not --batch: --batch takes a hunk that looks already reversed
	// for an unreversed patch and applies it forward ("Unreversed patch
	// detected! Ignoring -R."), which mirrors the fix instead of the bug
	// (a real PR's task gained a second __getitem__; see docs/dev/yield.md).
	cmd := exec.CommandContext(ctx, "patch", "-p1", "-R", "-f", "--fuzz=3", "--no-backup-if-mismatch", "--reject-file=-", "-i", p)
	cmd.Dir = w
	out, err := cmd.CombinedOutput()
	if err == nil {
		if _, err := g("add", "-A"); err != nil {
			return "", err
		}
		return MethodFuzz, nil
	}
	if err := restore(); err != nil {
		return "", err
	}
	c := &Conflict{Snapshot: strings.TrimSpace(gitRev(g)), Hunks: parseFailedHunks(string(out))}
	if len(c.Hunks) == 0 {
		// patch refused before any hunk (binary diff, missing file): name the patch's files.
		files, _ := Paths(name, patch)
		for _, f := range files {
			c.Hunks[f] = nil
		}
		if len(files) == 0 {
			c.Hunks = map[string][]int{name: nil}
		}
	}
	return "", &Rejection{Reasons: []string{c.Error()}}
}

var (
	patchingFile = regexp.MustCompile(`^patching file '?(.*?)'?$`)
	failedHunk   = regexp.MustCompile(`^Hunk #(\d+) FAILED`)
	missingFile  = regexp.MustCompile(`^(?:can't find file to patch|No file to patch)`)
)

// parseFailedHunks reads GNU patch's report: the files it patched and the
// hunks that failed in each.
func parseFailedHunks(out string) map[string][]int {
	hunks := map[string][]int{}
	file := ""
	for _, l := range strings.Split(out, "\n") {
		l = strings.TrimSpace(l)
		if mm := patchingFile.FindStringSubmatch(l); mm != nil {
			file = mm[1]
			continue
		}
		if mm := failedHunk.FindStringSubmatch(l); mm != nil && file != "" {
			var n int
			fmt.Sscan(mm[1], &n)
			hunks[file] = append(hunks[file], n)
		}
		if missingFile.MatchString(l) && file != "" {
			hunks[file] = hunks[file][:0:0]
		}
	}
	return hunks
}

func writeTree(g func(...string) ([]byte, error)) (string, error) {
	if _, err := g("add", "-A"); err != nil {
		return "", err
	}
	out, err := g("write-tree")
	return strings.TrimSpace(string(out)), err
}

func treeOf(g func(...string) ([]byte, error), rev string) (string, error) {
	out, err := g("rev-parse", rev+"^{tree}")
	return strings.TrimSpace(string(out)), err
}

func gitRev(g func(...string) ([]byte, error)) string {
	out, _ := g("rev-parse", "HEAD")
	return string(out)
}
