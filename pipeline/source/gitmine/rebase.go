package gitmine

import (
	"bytes"
	"context"
	"fmt"
	"strings"

	gitcmd "curate/internal/git"
	"curate/pipeline/source"
)

// What local history can tell about a rebase-merged PR.
//
// A merge commit holds its whole PR (base = first parent), and so does a
// squash commit. A rebase merge replays the PR's commits one by one onto
// the branch: the first-parent history then shows several plain commits
// and nothing names the PR on most of them. GitHub's "Rebase and merge"
// adds no "(#N)" to any subject, so such a PR is invisible to local mining
// unless its last commit's subject ends in "(#N)" (written by its author
// or a merge bot). When one does, its earlier commits are the run of
// first-parent commits just before it that were committed in the same
// rebase: the same committer name, email and committer time (a rebase
// stamps every commit it writes at once), one parent each, and no PR
// number of their own. The PR's base is the first parent of the earliest
// commit of that run. A squash merge has no such run (the commit before it
// is another PR's or was committed at another time), so it keeps its one
// commit. Mining through GitHub knows the PR's commit count and does not
// need this (see github.ResolveBases).

// commitInfo is what grouping needs of one commit.
type commitInfo struct {
	parents   []string
	committer string // "name <email> unix-time"
	subject   string
}

// wholePRs widens each squash-looking PR to the rebase-merged run of
// commits it ends, if any. It reads only the commits next to the PRs
// (one `git log --no-walk` per step back, usually one in all) and runs
// one `git diff` per widened PR.
func wholePRs(ctx context.Context, dir string, prs []*source.PR) error {
	type walk struct {
		pr   *source.PR
		cur  string // the oldest commit of the run so far
		n    int    // commits in the run
		done bool
	}
	info := map[string]*commitInfo{}
	var walks []*walk
	var want []string
	for _, pr := range prs {
		if pr.Kind == "squash" && pr.BaseCommit != "" {
			walks = append(walks, &walk{pr: pr, cur: pr.HeadCommit, n: 1})
			want = append(want, pr.HeadCommit, pr.BaseCommit)
		}
	}
	for len(want) > 0 {
		if err := readCommits(ctx, dir, want, info); err != nil {
			return err
		}
		want = want[:0]
		for _, w := range walks {
			for !w.done {
				head, cur := info[w.pr.HeadCommit], info[w.cur]
				if head == nil || cur == nil || len(cur.parents) != 1 {
					w.done = true
					break
				}
				prev := info[cur.parents[0]]
				if prev == nil {
					want = append(want, cur.parents[0])
					break
				}
				if len(prev.parents) != 1 || prev.committer != head.committer || isPR(prev.subject) {
					w.done = true
					break
				}
				w.cur, w.n = cur.parents[0], w.n+1
			}
		}
	}
	for _, w := range walks {
		if w.n == 1 {
			continue
		}
		base := info[w.cur].parents[0]
		files, err := diffFiles(ctx, dir, base, w.pr.HeadCommit)
		if err != nil {
			return err
		}
		w.pr.BaseCommit, w.pr.Kind, w.pr.Commits, w.pr.Files = base, "rebase", w.n, files
	}
	return nil
}

// readCommits adds the given commits' parents, committer and subject to
// info, with one git process.
func readCommits(ctx context.Context, dir string, hashes []string, info map[string]*commitInfo) error {
	marker := newMarker()
	out, err := gitcmd.OutputWith(ctx, dir, strings.NewReader(strings.Join(hashes, "\n")+"\n"), nil,
		"log", "--no-walk=unsorted", "--stdin", "--no-color", "--format=%x1e"+marker+"%x00%H%x00%P%x00%cn <%ce> %ct%x00%s")
	if err != nil {
		return fmt.Errorf("mine %s: %w", dir, err)
	}
	for _, rec := range bytes.Split(out, []byte("\x1e"+marker+"\x00")) {
		f := strings.SplitN(strings.TrimRight(string(rec), "\n"), "\x00", 4)
		if len(f) != 4 || !isHex(f[0]) {
			continue // the empty text before the first marker
		}
		c := &commitInfo{committer: f[2], subject: f[3]}
		if f[1] != "" {
			c.parents = strings.Split(f[1], " ")
		}
		info[f[0]] = c
	}
	return nil
}

// diffFiles is the numstat of base..head, as the mining log reports files.
func diffFiles(ctx context.Context, dir, base, head string) ([]source.FileChange, error) {
	out, err := gitcmd.Output(ctx, dir, "-c", "core.quotepath=off", "diff", "--numstat", "-z", "-M", "--no-color", "--no-ext-diff", base, head, "--")
	if err != nil {
		return nil, fmt.Errorf("mine %s: %w", dir, err)
	}
	return parseNumstat(out)
}
