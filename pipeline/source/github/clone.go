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
	run := func(args ...string) error { return gitcmd.Run(ctx, "", nil, args...) }
	if _, err := os.Stat(filepath.Join(dir, "HEAD")); err == nil {
		return run("-C", dir, "fetch", "-q", "--filter=blob:none", "origin", "+refs/heads/*:refs/heads/*", "+refs/pull/*/merge:refs/pull/*/merge")
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return err
	}
	tmp := dir + ".partial"
	os.RemoveAll(tmp)
	if err := run("clone", "-q", "--bare", "--filter=blob:none", cloneURL, tmp); err != nil {
		os.RemoveAll(tmp)
		return fmt.Errorf("clone %s: %w", cloneURL, err)
	}
	return os.Rename(tmp, dir)
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
	}
	return nil
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
