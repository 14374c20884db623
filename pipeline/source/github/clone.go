package github

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"curate/internal/atomicfile"
	gitcmd "curate/internal/git"
	"curate/pipeline/source"
)

// Clone makes or refreshes a partial (blob-less) bare clone of cloneURL
// at dir, so patches can be generated without fetching every blob up front.
func Clone(ctx context.Context, cloneURL, dir string) error {
	if cloneURL == "" {
		return fmt.Errorf("the API gave no clone URL")
	}
	if !cloneScheme(cloneURL) {
		return fmt.Errorf("the API gave clone URL %q: want http(s), ssh or file://", cloneURL)
	}
	run := func(args ...string) error { return gitcmd.Run(ctx, "", nil, args...) }
	if _, err := os.Stat(filepath.Join(dir, "HEAD")); err == nil {
		return run("-C", dir, "fetch", "-q", "--filter=blob:none", "origin", "+refs/heads/*:refs/heads/*", "+refs/pull/*/merge:refs/pull/*/merge")
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return err
	}
	tmp := dir + ".partial"
	os.RemoveAll(tmp)
	if err := run("clone", "-q", "--bare", "--filter=blob:none", "--", cloneURL, tmp); err != nil {
		os.RemoveAll(tmp)
		return fmt.Errorf("clone %s: %w", cloneURL, err)
	}
	return os.Rename(tmp, dir)
}

// cloneScheme reports a clone URL git takes as a repository address and
// never as an option (the "--" before it is the second guard), over a
// transport curate's git allows (git:// would run core.gitProxy).
func cloneScheme(u string) bool {
	for _, p := range []string{"https://", "http://", "ssh://", "file://"} {
		if strings.HasPrefix(u, p) {
			return true
		}
	}
	return false
}

// ResolveBases sets each PR's base to the first parent of its merge
// commit, with one git process; a PR whose commit the clone lacks keeps
// an empty base (the filter rejects it with a reason).
func ResolveBases(ctx context.Context, dir string, prs []*source.PR) error {
	var args []string
	for _, pr := range prs {
		if isHex(pr.HeadCommit) {
			args = append(args, pr.HeadCommit)
		}
	}
	if len(args) == 0 {
		return nil
	}
	parents := map[string][]string{}
	// cat-file --batch-check tells which exist; rev-list would die on one missing.
	out, err := gitcmd.OutputWith(ctx, dir, strings.NewReader(strings.Join(args, "\n")+"\n"), nil, "cat-file", "--batch-check=%(objectname) %(objecttype)")
	if err != nil {
		return fmt.Errorf("in %s: %w", dir, err)
	}
	var present []string
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		if len(f) == 2 && f[1] == "commit" {
			present = append(present, f[0])
		}
	}
	if len(present) > 0 {
		out, err = gitcmd.Output(ctx, dir, append([]string{"rev-list", "--no-walk", "--parents"}, present...)...)
		if err != nil {
			return fmt.Errorf("in %s: %w", dir, err)
		}
		for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
			f := strings.Fields(line)
			if len(f) > 0 {
				parents[f[0]] = f[1:]
			}
		}
	}
	for _, pr := range prs {
		ps := parents[pr.HeadCommit]
		pr.Parents = len(ps)
		if len(ps) > 0 {
			pr.BaseCommit = ps[0]
			if len(ps) == 1 {
				pr.Kind = "squash"
			} else {
				pr.Kind = "merge"
			}
		}
		if pr.Kind == "squash" && pr.Commits > 1 {
			if err := rebaseBase(ctx, dir, pr); err != nil {
				return err
			}
		}
	}
	return nil
}

// rebaseBase tells a squash merge from a rebase merge of a PR with several
// commits: both leave a merge commit with one parent. A squash commit
// changes all the PR's files against its parent; a rebase merge's last
// commit changes only its own, and the PR's files are the change from the
// commit Commits steps back on the first-parent line. The PR keeps its
// squash base when neither matches (say, history rewritten since).
func rebaseBase(ctx context.Context, dir string, pr *source.PR) error {
	want := map[string]bool{}
	for _, f := range pr.Files {
		want[f.Path] = true
		if f.OldPath != "" {
			want[f.OldPath] = true
		}
	}
	if same, err := changesFiles(ctx, dir, pr.BaseCommit, pr.HeadCommit, want); err != nil || same {
		return err
	}
	out, err := gitcmd.Output(ctx, dir, "rev-parse", "--verify", "-q", fmt.Sprintf("%s~%d^{commit}", pr.HeadCommit, pr.Commits))
	if err != nil {
		return nil // history shorter than the PR: keep the squash base
	}
	base := strings.TrimSpace(string(out))
	if same, err := changesFiles(ctx, dir, base, pr.HeadCommit, want); err != nil || !same {
		return err
	}
	pr.BaseCommit, pr.Kind = base, "rebase"
	return nil
}

// changesFiles reports whether base..head changes exactly the files in
// want (renames as both paths: trees only, so a blob-less clone needs no
// fetch).
func changesFiles(ctx context.Context, dir, base, head string, want map[string]bool) (bool, error) {
	out, err := gitcmd.Output(ctx, dir, "diff", "--name-only", "--no-renames", "-z", base, head, "--")
	if err != nil {
		return false, fmt.Errorf("%s: %w", dir, err)
	}
	got := 0
	for _, p := range strings.Split(strings.TrimRight(string(out), "\x00"), "\x00") {
		if p == "" {
			continue
		}
		if !want[p] {
			return false, nil
		}
		got++
	}
	return got == len(want), nil
}

func isHex(s string) bool {
	if len(s) != 40 && len(s) != 64 {
		return false
	}
	return strings.Trim(s, "0123456789abcdef") == ""
}

// Progress is what a run finished, so the next run continues from there.
type Progress struct {
	Repo string `json:"repo"`
	Done []int  `json:"done"`
}

// LoadProgress reads path; a missing file is an empty progress.
func LoadProgress(path string) (map[int]bool, error) {
	done := map[int]bool{}
	data, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return done, nil
	}
	if err != nil {
		return nil, err
	}
	var p Progress
	if err := json.Unmarshal(data, &p); err != nil {
		return nil, fmt.Errorf("%s: %w (delete it to start over)", path, err)
	}
	for _, n := range p.Done {
		done[n] = true
	}
	return done, nil
}

// SaveProgress writes path atomically.
func SaveProgress(path, repo string, done map[int]bool) error {
	p := Progress{Repo: repo}
	for n := range done {
		p.Done = append(p.Done, n)
	}
	sort.Ints(p.Done)
	data, err := json.MarshalIndent(p, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return atomicfile.WriteFile(path, data, 0o644)
}
