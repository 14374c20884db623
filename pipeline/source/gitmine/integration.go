package gitmine

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	gitcmd "curate/internal/git"
)

// fromIntegrationBranches finds the PRs merged into an integration branch
// (a "dev" or "next" branch) that reached the mainline through one merge
// PR ("Merge pull request #N from owner/dev"): their squash and merge
// commits are on that branch's first-parent line, which the mainline's
// first-parent walk steps over. For each mainline merge PR of a branch of
// the repository's owner it follows the merged side's first parents until the mainline (or a line already
// followed), and adds the PR-looking commits met there whose numbers the
// mainline has not. It returns how many it added.
func fromIntegrationBranches(ctx context.Context, opt Options, tip, repo string, res *Result) (int, error) {
	merges := 0
	for _, pr := range res.PRs {
		if pr.Kind == "merge" && pr.Parents == 2 {
			merges++
		}
	}
	if merges == 0 {
		return 0, nil
	}
	graph, err := readGraph(ctx, opt.Path, tip)
	if err != nil {
		return 0, err
	}
	mainline := map[string]bool{}
	for h := tip; h != "" && !mainline[h]; h = graph[h].firstParent() {
		mainline[h] = true
	}
	known := map[int]bool{}
	for _, pr := range res.PRs {
		known[pr.Number] = true
	}
	followed := map[string]bool{}
	var inner []string
	for _, pr := range res.PRs {
		if pr.Kind != "merge" || pr.Parents != 2 || len(graph[pr.HeadCommit].parents) != 2 || !fromOwnBranch(graph[pr.HeadCommit].subject, repo) {
			continue
		}
		for h := graph[pr.HeadCommit].parents[1]; h != "" && !mainline[h] && !followed[h]; h = graph[h].firstParent() {
			followed[h] = true
			n := prNumber(graph[h].subject)
			if n == 0 || known[n] || !inDates(graph[h].time, opt) {
				continue
			}
			known[n] = true
			inner = append(inner, h)
		}
	}
	w := &walk{ctx: ctx, dir: opt.Path, opt: Options{}, marker: newMarker(), delivered: map[string]bool{}}
	added := 0
	w.fn = func(c *Commit) error {
		if pr := ToPR(c, repo); pr != nil {
			res.PRs = append(res.PRs, pr)
			added++
			if opt.OnPR != nil {
				opt.OnPR(len(res.PRs), pr)
			}
		}
		return nil
	}
	for _, h := range inner {
		if err := w.runOne(h); err != nil {
			res.Skipped = append(res.Skipped, Skipped{Commit: h, Reason: err.Error()})
		}
	}
	return added, nil
}

var mergeFromRe = regexp.MustCompile(`^Merge pull request #\d+ from ([^/\s]+)/`)

// fromOwnBranch says whether a merge PR's branch is the repository's own
// (owner/dev), not a contributor's fork, where "#N" numbers the fork's
// PRs ("Merge pull request #1 from owner/master" in a fork's branch).
func fromOwnBranch(subject, repo string) bool {
	m := mergeFromRe.FindStringSubmatch(subject)
	owner, _, _ := strings.Cut(repo, "/")
	return m != nil && strings.EqualFold(m[1], owner)
}

// node is one commit of the graph: its parents, committer time and subject.
type node struct {
	parents []string
	time    int64
	subject string
}

func (n node) firstParent() string {
	if len(n.parents) == 0 {
		return ""
	}
	return n.parents[0]
}

// readGraph lists every commit reachable from tip, headers only.
func readGraph(ctx context.Context, dir, tip string) (map[string]node, error) {
	out, err := gitcmd.Output(ctx, dir, "log", "--no-color", "--format=%H%x00%P%x00%ct%x00%s", tip, "--")
	if err != nil {
		return nil, fmt.Errorf("mine %s: list commits: %w", dir, err)
	}
	graph := map[string]node{}
	for _, line := range strings.Split(string(out), "\n") {
		f := strings.SplitN(line, "\x00", 4)
		if len(f) != 4 || !isHex(f[0]) {
			continue
		}
		t, _ := strconv.ParseInt(f[2], 10, 64)
		graph[f[0]] = node{parents: strings.Fields(f[1]), time: t, subject: f[3]}
	}
	return graph, nil
}

// prNumber is the PR number a merge or squash subject names, else 0.
func prNumber(subject string) int {
	for _, re := range []interface{ FindStringSubmatch(string) []string }{mergeRe, squashRe} {
		if m := re.FindStringSubmatch(subject); m != nil {
			n, _ := strconv.Atoi(m[1])
			return n
		}
	}
	return 0
}

func inDates(unix int64, opt Options) bool {
	t := time.Unix(unix, 0)
	return (opt.Since.IsZero() || !t.Before(opt.Since)) && (opt.Until.IsZero() || !t.After(opt.Until))
}
