package gitmine

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	gitcmd "curate/internal/git"
	"curate/pipeline/source"
)

// PRs that local history hides.
//
// Rebase and squash merges whose subjects carry no "(#N)" name no PR: the
// first-parent history shows plain commits. A clone that has the forge's PR
// refs (`git fetch origin '+refs/pull/*/head:refs/pull/*/head'`, the way
// GitHub documents to get them) still knows each PR's head. Its changes,
// compared by `git patch-id --stable` (which ignores line numbers and
// whitespace), find the mainline commits they became: the PR's whole diff
// equal to one commit's is a squash merge; each of its commits equal to
// one of a run of consecutive mainline commits is a rebase merge.

// maxPRCommits bounds the commits read of one PR ref (a ref pointing at
// a long-lived branch would otherwise read its whole history).
const maxPRCommits = 250

// mainlineCommit is a first-parent commit no mined PR holds.
type mainlineCommit struct {
	hash, parent, author, subject, body string
	time                                int64
	index                               int // position on the first-parent walk, newest 0
}

// fromPullRefs adds the PRs of refs/pull/<N>/head that mining did not find
// by subject, and says how many it added.
func fromPullRefs(ctx context.Context, opt Options, tip, repo string, res *Result) (int, error) {
	refs, err := pullRefs(ctx, opt.Path)
	if err != nil || len(refs) == 0 {
		return 0, err
	}
	res.PullRefs = len(refs)
	known := map[int]bool{}
	covered := map[string]bool{}
	for _, pr := range res.PRs {
		known[pr.Number] = true
		covered[pr.HeadCommit] = true
	}
	byPatch, commits, err := mainlinePatchIDs(ctx, opt, tip, covered)
	if err != nil || len(byPatch) == 0 {
		return 0, err
	}
	nums := make([]int, 0, len(refs))
	for n := range refs {
		if !known[n] {
			nums = append(nums, n)
		}
	}
	sort.Ints(nums)
	used := map[string]bool{}
	added := 0
	for _, n := range nums {
		base, head, kind, count, err := matchPullRef(ctx, opt.Path, tip, refs[n], byPatch, commits)
		if err != nil {
			return added, err
		}
		if head == "" || used[head] {
			continue
		}
		used[head] = true
		c := commits[head]
		files, err := diffFiles(ctx, opt.Path, base, head)
		if err != nil {
			return added, err
		}
		pr := &source.PR{Repo: repo, Number: n, Title: c.subject, Body: c.body, Author: c.author,
			BaseCommit: base, HeadCommit: head, MergedAt: time.Unix(c.time, 0).UTC(), Kind: kind,
			Commits: count, Parents: 1, Files: files}
		pr.Issues = source.LinkedIssues(c.subject+"\n"+c.body, repo, n)
		res.PRs = append(res.PRs, pr)
		added++
		if opt.OnPR != nil {
			opt.OnPR(len(res.PRs), pr)
		}
	}
	return added, nil
}

// pullRefs maps PR numbers to the heads of refs/pull/<N>/head.
func pullRefs(ctx context.Context, dir string) (map[int]string, error) {
	out, err := gitcmd.Output(ctx, dir, "for-each-ref", "--format=%(refname) %(objectname)", "refs/pull/")
	if err != nil {
		return nil, fmt.Errorf("mine %s: %w", dir, err)
	}
	refs := map[int]string{}
	for _, line := range strings.Split(string(out), "\n") {
		name, hash, ok := strings.Cut(line, " ")
		rest, ok2 := strings.CutPrefix(name, "refs/pull/")
		num, tail, ok3 := strings.Cut(rest, "/")
		if !ok || !ok2 || !ok3 || tail != "head" || !isHex(hash) {
			continue
		}
		if n, err := strconv.Atoi(num); err == nil && n > 0 {
			refs[n] = hash
		}
	}
	return refs, nil
}

// mainlinePatchIDs reads the patch id of every non-merge first-parent
// commit in the mining window that no mined PR already holds.
func mainlinePatchIDs(ctx context.Context, opt Options, tip string, covered map[string]bool) (map[string]string, map[string]*mainlineCommit, error) {
	marker := newMarker()
	args := []string{"log", "--first-parent", "--no-merges", "--no-color", "--format=%x1e" + marker + "%x00%H%x00%P%x00%an%x00%ct%x00%s%x00%b"}
	if !opt.Since.IsZero() {
		args = append(args, "--since="+opt.Since.Format(time.RFC3339))
	}
	if !opt.Until.IsZero() {
		args = append(args, "--until="+opt.Until.Format(time.RFC3339))
	}
	out, err := gitcmd.Output(ctx, opt.Path, append(args, tip, "--")...)
	if err != nil {
		return nil, nil, fmt.Errorf("mine %s: %w", opt.Path, err)
	}
	commits := map[string]*mainlineCommit{}
	var hashes []string
	for _, rec := range bytes.Split(out, []byte("\x1e"+marker+"\x00")) {
		f := strings.SplitN(string(rec), "\x00", 6)
		if len(f) != 6 || !isHex(f[0]) || covered[f[0]] || isPR(f[4]) {
			continue
		}
		parent, _, _ := strings.Cut(f[1], " ")
		t, _ := strconv.ParseInt(f[3], 10, 64)
		commits[f[0]] = &mainlineCommit{hash: f[0], parent: parent, author: f[2], time: t, subject: f[4],
			body: strings.TrimSpace(f[5]), index: len(hashes)}
		hashes = append(hashes, f[0])
	}
	// A rebase run is checked by parent links, so the indices only order.
	if len(hashes) == 0 {
		return nil, commits, nil
	}
	ids, err := patchIDs(ctx, opt.Path, strings.NewReader(strings.Join(hashes, "\n")+"\n"), "log", "--no-walk=unsorted", "--stdin", "-p", "--no-color", "--no-ext-diff", "--format=commit %H")
	if err != nil {
		return nil, nil, err
	}
	byPatch := map[string]string{}
	for commit, id := range ids {
		if _, dup := byPatch[id]; !dup {
			byPatch[id] = commit
		}
	}
	return byPatch, commits, nil
}

// matchPullRef finds the mainline commits a PR head became: base and head
// of the merged change, its kind and commit count ("" head: not merged in
// the window, or not recognisably).
func matchPullRef(ctx context.Context, dir, tip, prHead string, byPatch map[string]string, commits map[string]*mainlineCommit) (base, head, kind string, count int, err error) {
	mb, err := gitcmd.Output(ctx, dir, "merge-base", tip, prHead)
	if err != nil {
		return "", "", "", 0, nil // unrelated history: not this branch's PR
	}
	forkPoint := strings.TrimSpace(string(mb))
	if forkPoint == prHead {
		return "", "", "", 0, nil // its commits are the branch's own (fast-forward): nothing to tell apart
	}
	list, err := gitcmd.Output(ctx, dir, "rev-list", "--no-merges", "--max-count="+strconv.Itoa(maxPRCommits+1), forkPoint+".."+prHead, "--")
	if err != nil {
		return "", "", "", 0, fmt.Errorf("mine %s: %w", dir, err)
	}
	own := strings.Fields(string(list))
	if len(own) == 0 || len(own) > maxPRCommits {
		return "", "", "", 0, nil
	}
	// Squash: the whole change is one mainline commit.
	whole, err := patchIDs(ctx, dir, nil, "diff", "--no-color", "--no-ext-diff", forkPoint, prHead, "--")
	if err != nil {
		return "", "", "", 0, err
	}
	for _, id := range whole {
		if c := commits[byPatch[id]]; c != nil {
			return c.parent, c.hash, "squash", len(own), nil
		}
	}
	if len(own) == 1 {
		return "", "", "", 0, nil
	}
	// Rebase: each commit is one of a consecutive run.
	ids, err := patchIDs(ctx, dir, strings.NewReader(strings.Join(own, "\n")+"\n"), "log", "--no-walk=unsorted", "--stdin", "-p", "--no-color", "--no-ext-diff", "--format=commit %H")
	if err != nil {
		return "", "", "", 0, err
	}
	var run []*mainlineCommit
	for _, h := range own {
		c := commits[byPatch[ids[h]]]
		if ids[h] == "" || c == nil {
			return "", "", "", 0, nil
		}
		run = append(run, c)
	}
	sort.Slice(run, func(i, j int) bool { return run[i].index < run[j].index })
	for i := 1; i < len(run); i++ {
		if run[i].index != run[i-1].index+1 || run[i-1].parent != run[i].hash {
			return "", "", "", 0, nil
		}
	}
	return run[len(run)-1].parent, run[0].hash, "rebase", len(run), nil
}

// patchIDs runs git (a diff or a log -p with "commit %H" headers) into
// `git patch-id --stable` and maps each commit to its patch id; a plain
// diff's id is under the zero commit id patch-id prints.
func patchIDs(ctx context.Context, dir string, stdin *strings.Reader, args ...string) (map[string]string, error) {
	var diff []byte
	var err error
	if stdin != nil {
		diff, err = gitcmd.OutputWith(ctx, dir, stdin, nil, args...)
	} else {
		diff, err = gitcmd.Output(ctx, dir, args...)
	}
	if err != nil {
		return nil, fmt.Errorf("mine %s: %w", dir, err)
	}
	out, err := gitcmd.OutputWith(ctx, dir, bytes.NewReader(diff), nil, "patch-id", "--stable")
	if err != nil {
		return nil, fmt.Errorf("mine %s: %w", dir, err)
	}
	ids := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		if id, commit, ok := strings.Cut(sc.Text(), " "); ok {
			ids[commit] = id
		}
	}
	return ids, nil
}
