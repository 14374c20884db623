package patch

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	gitcmd "curate/internal/git"
)

// DefaultMaxFileBytes caps one changed file: a PR carrying a larger file
// is rejected rather than copied into a task.
const DefaultMaxFileBytes = 10 << 20

// Rejection is a PR that cannot become a task, with every reason.
type Rejection struct{ Reasons []string }

func (r *Rejection) Error() string { return strings.Join(r.Reasons, "; ") }

// IsRejection returns the reasons when err is a Rejection.
func IsRejection(err error) ([]string, bool) {
	var r *Rejection
	if errors.As(err, &r) {
		return r.Reasons, true
	}
	return nil, false
}

// TestFile is one test file the PR changed.
type TestFile struct {
	Path    string
	New     bool // not in the base commit
	Deleted bool // not in the head commit
}

// Set is a PR's patches (formats.md §3): Fix = base->head over source
// files, Bug = its reverse, Test = base->head over test files, HideTests =
// its reverse (restores base test files in the agent's image).
type Set struct {
	Base, Head  string
	Fix, Bug    []byte
	Test        []byte
	HideTests   []byte
	SourceFiles []string
	TestFiles   []TestFile
	// Scratch is where Check and Mirror work (the workspace's .curate/tmp);
	// "" = the system's temporary folder.
	Scratch string
}

// Make computes the patches of base..head in repo. isTest splits test
// from source files. It returns a *Rejection when the PR cannot be a task.
func Make(ctx context.Context, repo, base, head string, isTest func(string) bool, maxFileBytes int64) (*Set, error) {
	if maxFileBytes <= 0 {
		maxFileBytes = DefaultMaxFileBytes
	}
	raw, err := gitOut(ctx, repo, nil, "diff", "--raw", "-z", "--no-renames", "--no-abbrev", base, head, "--")
	if err != nil {
		return nil, err
	}
	changes, err := parseRaw(raw)
	if err != nil {
		return nil, fmt.Errorf("diff %s..%s: %w", short(base), short(head), err)
	}
	s := &Set{Base: base, Head: head}
	var reasons []string
	var blobs []string
	for _, c := range changes {
		if err := CheckPath(c.path); err != nil {
			reasons = append(reasons, err.Error())
			continue
		}
		switch {
		case c.newMode == "160000" || c.oldMode == "160000":
			reasons = append(reasons, fmt.Sprintf("changes submodule %s", display(c.path)))
		case c.newMode == "120000" || c.oldMode == "120000":
			reasons = append(reasons, fmt.Sprintf("changes symlink %s", display(c.path)))
		}
		if c.newSHA != zeroSHA {
			blobs = append(blobs, c.newSHA)
		}
		if isTest(c.path) {
			s.TestFiles = append(s.TestFiles, TestFile{Path: c.path, New: c.status == 'A', Deleted: c.status == 'D'})
		} else {
			s.SourceFiles = append(s.SourceFiles, c.path)
		}
	}
	sizes, err := blobSizes(ctx, repo, blobs)
	if err != nil {
		return nil, err
	}
	for _, c := range changes {
		if n := sizes[c.newSHA]; n > maxFileBytes {
			reasons = append(reasons, fmt.Sprintf("file %s is %.1f MB, over the %.1f MB cap", display(c.path), float64(n)/(1<<20), float64(maxFileBytes)/(1<<20)))
		}
	}
	if len(s.SourceFiles) == 0 {
		reasons = append(reasons, "no source files changed: nothing for the agent to fix")
	}
	if len(reasons) > 0 {
		return nil, &Rejection{Reasons: reasons}
	}
	testPaths := make([]string, len(s.TestFiles))
	for i, f := range s.TestFiles {
		testPaths[i] = f.Path
	}
	if s.Fix, err = diff(ctx, repo, base, head, s.SourceFiles); err != nil {
		return nil, err
	}
	if s.Bug, err = diff(ctx, repo, head, base, s.SourceFiles); err != nil {
		return nil, err
	}
	if len(testPaths) > 0 {
		if s.Test, err = diff(ctx, repo, base, head, testPaths); err != nil {
			return nil, err
		}
		if s.HideTests, err = diff(ctx, repo, head, base, testPaths); err != nil {
			return nil, err
		}
	}
	for name, p := range map[string][]byte{"fix.patch": s.Fix, "bug.patch": s.Bug, "test.patch": s.Test, "hide-tests.patch": s.HideTests} {
		if _, err := Paths(name, p); err != nil {
			return nil, &Rejection{Reasons: []string{err.Error()}}
		}
	}
	return s, nil
}

// Archive writes `git archive` of head as a tar file.
func Archive(ctx context.Context, repo, head, dest string) error {
	if err := writeTar(ctx, repo, dest, "archive", "--format=tar", head); err != nil {
		return fmt.Errorf("archive %s: %w", short(head), err)
	}
	return nil
}

// Check extracts the head tree from archive into a scratch dir and
// verifies that bug.patch applies to head and fix.patch to the result,
// and that hide-tests.patch applies to head (git apply --check). A
// failure is a *Rejection.
func (s *Set) Check(ctx context.Context, archive string) error {
	tmp, done, err := ScratchDir(s.Scratch, "apply", "", "curate-apply-")
	if err != nil {
		return err
	}
	defer done()
	tree := filepath.Join(tmp, "tree")
	if err := os.Mkdir(tree, 0o755); err != nil {
		return err
	}
	if out, err := exec.CommandContext(ctx, "tar", "-xf", archive, "-C", tree).CombinedOutput(); err != nil {
		return fmt.Errorf("extract %s: %v: %s", archive, err, out)
	}
	write := func(name string, data []byte) (string, error) {
		p := filepath.Join(tmp, name)
		return p, os.WriteFile(p, data, 0o644)
	}
	bug, err := write("bug.patch", s.Bug)
	if err != nil {
		return err
	}
	fix, err := write("fix.patch", s.Fix)
	if err != nil {
		return err
	}
	if err := Apply(ctx, tree, bug, true); err != nil {
		return &Rejection{Reasons: []string{"bug.patch does not apply to the head commit: " + err.Error()}}
	}
	if len(s.HideTests) > 0 {
		hide, err := write("hide.patch", s.HideTests)
		if err != nil {
			return err
		}
		if err := Apply(ctx, tree, hide, true); err != nil {
			return &Rejection{Reasons: []string{"test files do not revert to the base commit: " + err.Error()}}
		}
	}
	if err := Apply(ctx, tree, bug, false); err != nil {
		return &Rejection{Reasons: []string{"bug.patch does not apply to the head commit: " + err.Error()}}
	}
	if err := Apply(ctx, tree, fix, true); err != nil {
		return &Rejection{Reasons: []string{"fix.patch does not apply after bug.patch: " + err.Error()}}
	}
	return nil
}

// Apply runs `git apply [--check]` of patchFile in dir, as the work tree
// of an empty repository made for it: git then reads dir's .gitattributes,
// as a checkout does. A file the project checks out with CRLF (eol=crlf:
// Visual Studio project files) is CRLF in the archive while the PR's diff
// has LF; outside a repository git apply compares raw bytes and refused
// such a PR ("patch does not apply") though git itself applies it.
func Apply(ctx context.Context, dir, patchFile string, checkOnly bool) error {
	gitDir, err := os.MkdirTemp(filepath.Dir(dir), "curate-attrs-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(gitDir)
	if _, err := gitOut(ctx, dir, nil, "init", "-q", "--bare", gitDir); err != nil {
		return err
	}
	args := []string{"apply", "--whitespace=nowarn"}
	if checkOnly {
		args = append(args, "--check")
	}
	_, err = gitOut(ctx, dir, []string{"GIT_DIR=" + gitDir, "GIT_WORK_TREE=" + dir}, append(args, patchFile)...)
	return err
}

const zeroSHA = "0000000000000000000000000000000000000000"

type rawChange struct {
	oldMode, newMode, oldSHA, newSHA string
	status                           byte
	path                             string
}

// parseRaw reads `git diff --raw -z --no-renames` output.
func parseRaw(b []byte) ([]rawChange, error) {
	var out []rawChange
	for len(b) > 0 {
		i := bytes.IndexByte(b, 0)
		if i < 0 {
			return nil, fmt.Errorf("truncated raw diff")
		}
		meta := strings.Fields(strings.TrimPrefix(string(b[:i]), ":"))
		b = b[i+1:]
		j := bytes.IndexByte(b, 0)
		if j < 0 || len(meta) != 5 || meta[4] == "" {
			return nil, fmt.Errorf("bad raw diff entry %q", meta)
		}
		out = append(out, rawChange{oldMode: meta[0], newMode: meta[1], oldSHA: meta[2], newSHA: meta[3], status: meta[4][0], path: string(b[:j])})
		b = b[j+1:]
	}
	return out, nil
}

func blobSizes(ctx context.Context, repo string, shas []string) (map[string]int64, error) {
	out := map[string]int64{}
	if len(shas) == 0 {
		return out, nil
	}
	res, err := gitcmd.OutputWith(ctx, repo, strings.NewReader(strings.Join(shas, "\n")+"\n"), nil, "cat-file", "--batch-check")
	if err != nil {
		return nil, err
	}
	for _, line := range strings.Split(strings.TrimSpace(string(res)), "\n") {
		f := strings.Fields(line)
		if len(f) == 3 {
			n, _ := strconv.ParseInt(f[2], 10, 64)
			out[f[0]] = n
		}
	}
	return out, nil
}

func diff(ctx context.Context, repo, from, to string, paths []string) ([]byte, error) {
	args := []string{"-c", "core.quotepath=off", "-c", "diff.noprefix=false", "-c", "diff.mnemonicprefix=false",
		"diff", "--binary", "--full-index", "--no-renames", "--no-color", "--no-ext-diff", "--no-textconv",
		"--src-prefix=a/", "--dst-prefix=b/", from, to, "--"}
	for _, p := range paths {
		args = append(args, ":(literal)"+p)
	}
	return gitOut(ctx, repo, nil, args...)
}

func gitOut(ctx context.Context, dir string, env []string, args ...string) ([]byte, error) {
	return gitcmd.OutputWith(ctx, dir, nil, env, args...)
}

func short(sha string) string {
	if len(sha) > 12 {
		return sha[:12]
	}
	return sha
}

func display(p string) string { return strconv.Quote(p)[1 : len(strconv.Quote(p))-1] }
