package gitmine

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	gitcmd "curate/internal/git"
	"curate/pipeline/source"
)

// Options say what to mine.
type Options struct {
	Path   string
	Branch string // default HEAD
	Since  time.Time
	Until  time.Time
	Limit  int    // at most this many PRs (0 = all)
	Repo   string // owner/name; default from origin
	// OnPR hears of each PR found, with how many so far (progress).
	OnPR func(n int, pr *source.PR)
}

var (
	mergeRe  = regexp.MustCompile(`^Merge pull request #(\d{1,9}) from \S`)
	squashRe = regexp.MustCompile(`\(#(\d{1,9})\)\s*$`)
)

// Skipped is a commit mining could not read (a blob-less partial clone
// used offline, a damaged clone): its id and git's reason.
type Skipped struct {
	Commit string `json:"commit"`
	Reason string `json:"reason"`
}

// Result is what MineAll found and what it had to skip.
type Result struct {
	PRs     []*source.PR
	Skipped []Skipped
	// FromPullRefs counts the PRs found through refs/pull/<N>/head by
	// patch id, whose mainline commits name no PR.
	FromPullRefs int
	// PullRefs counts the refs/pull/<N>/head refs the clone has.
	PullRefs int
}

// Mine is MineAll's PRs, for callers that do not report skipped commits.
func Mine(ctx context.Context, opt Options) ([]*source.PR, error) {
	res, err := MineAll(ctx, opt)
	if err != nil {
		return nil, err
	}
	return res.PRs, nil
}

// MineAll runs one `git log --first-parent -m --numstat -z` over the branch
// and returns its merged PRs, newest first. A commit git cannot read is
// skipped and reported, and the walk goes on past it.
func MineAll(ctx context.Context, opt Options) (*Result, error) {
	tip, err := CheckRepo(ctx, opt.Path, opt.Branch)
	if err != nil {
		return nil, err
	}
	repo := opt.Repo
	if repo == "" {
		if repo, err = OriginRepo(ctx, opt.Path); err != nil {
			return nil, err
		}
	}
	if !source.ValidRepo(repo) {
		return nil, fmt.Errorf("repository %q: want OWNER/NAME", repo)
	}
	res := &Result{}
	res.Skipped, err = Log(ctx, opt.Path, tip, opt, func(c *Commit) error {
		if pr := ToPR(c, repo); pr != nil {
			res.PRs = append(res.PRs, pr)
			if opt.OnPR != nil {
				opt.OnPR(len(res.PRs), pr)
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if err := wholePRs(ctx, opt.Path, res.PRs); err != nil {
		return nil, err
	}
	if res.FromPullRefs, err = fromPullRefs(ctx, opt, tip, repo, res); err != nil {
		return nil, err
	}
	inner, err := fromIntegrationBranches(ctx, opt, tip, repo, res)
	if err != nil {
		return nil, err
	}
	if res.FromPullRefs > 0 || inner > 0 {
		sort.SliceStable(res.PRs, func(i, j int) bool { return res.PRs[i].MergedAt.After(res.PRs[j].MergedAt) })
		if opt.Limit > 0 && len(res.PRs) > opt.Limit {
			res.PRs = res.PRs[:opt.Limit]
		}
	}
	return res, nil
}

// LogArgs are the git log arguments Mine uses, for the benchmark's
// side-by-side baseline.
func LogArgs(marker, rev string, opt Options) []string {
	args := []string{"log", "--first-parent", "-m", "--numstat", "-z", "--no-color", "--no-ext-diff", "-M",
		"--format=" + logFormat(marker)}
	return append(args, selectArgs(rev, opt)...)
}

// selectArgs choose the commits: PR-looking subjects on rev's first-parent
// history, within the dates.
func selectArgs(rev string, opt Options) []string {
	args := []string{"-E", "--grep=^Merge pull request #[0-9]+ from ", "--grep=\\(#[0-9]+\\)[[:space:]]*$"}
	if !opt.Since.IsZero() {
		args = append(args, "--since="+opt.Since.Format(time.RFC3339))
	}
	if !opt.Until.IsZero() {
		args = append(args, "--until="+opt.Until.Format(time.RFC3339))
	}
	return append(args, rev, "--")
}

// Log streams the PR-looking commits of rev's first-parent history to fn.
// --grep pre-selects them inside git; ToPR makes the final decision on
// the subject. Limit stops after that many PRs.
//
// When git stops on a commit it cannot read, Log lists the commits the
// walk still has to visit (headers need no file contents), reads the
// suspect commit on its own (skipped, with git's reason, if that fails
// too) and resumes the walk after it; so one unreadable object costs one
// commit, not the mine.
func Log(ctx context.Context, dir, rev string, opt Options, fn func(*Commit) error) ([]Skipped, error) {
	w := &walk{ctx: ctx, dir: dir, opt: opt, fn: fn, marker: newMarker(), delivered: map[string]bool{}}
	err := w.run(rev)
	if err == nil || w.stopped {
		return nil, nil
	}
	var readErr *gitReadError
	if !errors.As(err, &readErr) {
		return nil, err
	}
	todo, lerr := w.remaining(rev)
	if lerr != nil {
		return nil, err // history itself cannot be walked: report the first error
	}
	var skipped []Skipped
	resume := false // after a readable commit, stream again from the next
	for i := 0; i < len(todo) && !w.stopped; {
		if w.delivered[todo[i]] {
			i++
			continue
		}
		if resume {
			err := w.run(todo[i])
			if err == nil || w.stopped {
				break
			}
			if !errors.As(err, &readErr) {
				return skipped, err
			}
			// The first commit not delivered is the suspect: read it on
			// its own, then commit by commit (one git process each) until
			// one reads again, since a partial clone used offline fails
			// on every older commit.
			resume = false
			continue
		}
		if err := w.runOne(todo[i]); err != nil {
			if !errors.As(err, &readErr) {
				return skipped, err
			}
			skipped = append(skipped, Skipped{Commit: todo[i], Reason: readErr.reason})
		} else {
			resume = true
		}
		i++
	}
	return skipped, nil
}

// walk is one Log call's state across resumed git runs.
type walk struct {
	ctx       context.Context
	dir       string
	opt       Options
	fn        func(*Commit) error
	marker    string
	found     int
	stopped   bool // the limit was reached
	delivered map[string]bool
}

// gitReadError is git failing part way, most often on an object it cannot
// read; what it printed before is already delivered.
type gitReadError struct{ reason string }

func (e *gitReadError) Error() string { return "git log: " + e.reason }

// run streams `git log` from rev.
func (w *walk) run(rev string) error { return w.stream(LogArgs(w.marker, rev, w.opt)) }

// runOne reads a single commit the same way.
func (w *walk) runOne(commit string) error {
	args := []string{"log", "-1", "--first-parent", "-m", "--numstat", "-z", "--no-color", "--no-ext-diff", "-M",
		"--format=" + logFormat(w.marker), commit, "--"}
	return w.stream(args)
}

// remaining lists the commits a walk from rev visits, without their diffs.
func (w *walk) remaining(rev string) ([]string, error) {
	out, err := git(w.ctx, w.dir, append([]string{"log", "--first-parent", "--format=%H"}, selectArgs(rev, w.opt)...)...)
	if err != nil {
		return nil, err
	}
	var todo []string
	for _, h := range strings.Fields(out) {
		if !w.delivered[h] {
			todo = append(todo, h)
		}
	}
	return todo, nil
}

var errLimit = errors.New("limit reached")

// stream runs git with args and hands each complete commit to fn. The
// newest parsed commit is held back until the next one arrives or git
// exits cleanly, because git may die half way through printing it.
func (w *walk) stream(args []string) error {
	ctx, cancel := context.WithCancel(w.ctx)
	defer cancel()
	cmd := gitcmd.Command(ctx, w.dir, nil, append([]string{"-c", "core.quotepath=off"}, args...)...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("run git log: %w", err)
	}
	var held *Commit
	deliver := func(c *Commit) error {
		if w.opt.Limit > 0 && w.found >= w.opt.Limit {
			w.stopped = true
			return errLimit
		}
		if isPR(c.Subject) {
			w.found++
		}
		w.delivered[c.Hash] = true
		return w.fn(c)
	}
	perr := ParseLog(out, w.marker, func(c *Commit) error {
		prev := held
		held = c
		if prev != nil {
			return deliver(prev)
		}
		return nil
	})
	if perr == errLimit {
		cancel()
		_ = cmd.Wait()
		return nil
	}
	werr := cmd.Wait()
	if werr != nil && ctx.Err() == nil && w.ctx.Err() == nil {
		return &gitReadError{reason: oneLine(stderr.String(), werr)}
	}
	if perr != nil {
		return fmt.Errorf("mine %s: %w", w.dir, perr)
	}
	if werr != nil {
		return fmt.Errorf("mine %s: git log: %w", w.dir, werr)
	}
	if held != nil {
		if err := deliver(held); err != nil && err != errLimit {
			return err
		}
	}
	return nil
}

// oneLine is git's last "fatal:" line (the reason), else its last line.
func oneLine(stderr string, err error) string {
	lines := strings.Split(strings.TrimSpace(stderr), "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		if strings.HasPrefix(lines[i], "fatal: ") || strings.HasPrefix(lines[i], "error: ") {
			return strings.TrimSpace(lines[i])
		}
	}
	if l := strings.TrimSpace(lines[len(lines)-1]); l != "" {
		return l
	}
	return err.Error()
}

// githubOpened is when GitHub's pull requests first existed (its beta,
// early 2008): a "(#N)" in an older subject is another tracker's number
// (a SourceForge patch "(#1047014)" in a 2004 C library's history).
var githubOpened = time.Date(2008, 1, 1, 0, 0, 0, 0, time.UTC)

func isPR(subject string) bool { return mergeRe.MatchString(subject) || squashRe.MatchString(subject) }

func newMarker() string {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return "curate-" + hex.EncodeToString(b)
}

// ToPR turns a commit into a PR when its subject is a GitHub merge
// ("Merge pull request #N from ...") or squash ("Title (#N)") subject.
func ToPR(c *Commit, repo string) *source.PR {
	pr := &source.PR{Repo: repo, HeadCommit: c.Hash, Author: c.Author, Parents: len(c.Parents),
		MergedAt: time.Unix(c.Time, 0).UTC(), Files: c.Files}
	if len(c.Parents) > 0 {
		pr.BaseCommit = c.Parents[0]
	}
	if m := mergeRe.FindStringSubmatch(c.Subject); m != nil {
		pr.Number, _ = strconv.Atoi(m[1])
		pr.Kind = "merge"
		title, body, _ := strings.Cut(c.Body, "\n")
		pr.Title = strings.TrimSpace(title)
		pr.Body = strings.TrimSpace(body)
		if pr.Title == "" {
			pr.Title = c.Subject
		}
	} else if m := squashRe.FindStringSubmatch(c.Subject); m != nil {
		pr.Number, _ = strconv.Atoi(m[1])
		pr.Kind = "squash"
		pr.Title = strings.TrimSpace(c.Subject[:len(c.Subject)-len(m[0])])
		pr.Body = strings.TrimSpace(c.Body)
	} else {
		return nil
	}
	if pr.Number <= 0 || pr.BaseCommit == "" || pr.MergedAt.Before(githubOpened) {
		return nil
	}
	pr.Issues = source.LinkedIssues(c.Subject+"\n"+c.Body, repo, pr.Number)
	return pr
}
