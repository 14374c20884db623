package gitmine

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"time"

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

// firstParentCommit is what grouping needs of one commit.
type firstParentCommit struct {
	hash      string
	parents   []string
	committer string // "name <email> unix-time"
	subject   string
}

// wholePRs widens each squash-looking PR to the rebase-merged run of
// commits it ends, if any, with one `git log` pass (no diffs) and one
// `git diff` per widened PR.
func wholePRs(ctx context.Context, dir, rev string, opt Options, prs []*source.PR) error {
	squash := false
	for _, pr := range prs {
		squash = squash || pr.Kind == "squash"
	}
	if !squash {
		return nil
	}
	history, err := firstParentHistory(ctx, dir, rev, opt)
	if err != nil {
		return err
	}
	pos := make(map[string]int, len(history))
	for i, c := range history {
		pos[c.hash] = i
	}
	for _, pr := range prs {
		i, ok := pos[pr.HeadCommit]
		if pr.Kind != "squash" || !ok {
			continue
		}
		j := i + 1 // history is newest first: older commits follow
		for j < len(history) && len(history[j].parents) == 1 && history[j].committer == history[i].committer &&
			!isPR(history[j].subject) && history[j-1].parents[0] == history[j].hash {
			j++
		}
		if j == i+1 {
			continue
		}
		base := history[j-1].parents[0]
		files, err := diffFiles(ctx, dir, base, pr.HeadCommit)
		if err != nil {
			return err
		}
		pr.BaseCommit, pr.Kind, pr.Commits, pr.Files = base, "rebase", j-i, files
	}
	return nil
}

// firstParentHistory lists rev's first-parent commits, newest first,
// within the mining window.
func firstParentHistory(ctx context.Context, dir, rev string, opt Options) ([]firstParentCommit, error) {
	marker := newMarker()
	args := []string{"log", "--first-parent", "--no-color", "--format=%x1e" + marker + "%x00%H%x00%P%x00%cn <%ce> %ct%x00%s"}
	if !opt.Since.IsZero() {
		args = append(args, "--since="+opt.Since.Format(time.RFC3339))
	}
	if !opt.Until.IsZero() {
		args = append(args, "--until="+opt.Until.Format(time.RFC3339))
	}
	out, err := gitcmd.Output(ctx, dir, append(args, rev, "--")...)
	if err != nil {
		return nil, fmt.Errorf("mine %s: %w", dir, err)
	}
	var list []firstParentCommit
	for _, rec := range bytes.Split(out, []byte("\x1e"+marker+"\x00")) {
		f := strings.SplitN(strings.TrimRight(string(rec), "\n"), "\x00", 4)
		if len(f) != 4 || !isHex(f[0]) {
			continue // the empty text before the first marker
		}
		c := firstParentCommit{hash: f[0], committer: f[2], subject: f[3]}
		if f[1] != "" {
			c.parents = strings.Split(f[1], " ")
		}
		list = append(list, c)
	}
	return list, nil
}

// diffFiles is the numstat of base..head, as the mining log reports files.
func diffFiles(ctx context.Context, dir, base, head string) ([]source.FileChange, error) {
	out, err := gitcmd.Output(ctx, dir, "-c", "core.quotepath=off", "diff", "--numstat", "-z", "-M", "--no-color", "--no-ext-diff", base, head, "--")
	if err != nil {
		return nil, fmt.Errorf("mine %s: %w", dir, err)
	}
	return parseNumstat(out)
}
