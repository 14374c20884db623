package gitmine

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"regexp"
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
}

var (
	mergeRe  = regexp.MustCompile(`^Merge pull request #(\d{1,9}) from \S`)
	squashRe = regexp.MustCompile(`\(#(\d{1,9})\)\s*$`)
)

// Mine runs one `git log --first-parent -m --numstat -z` over the branch
// and returns its merged PRs, newest first.
func Mine(ctx context.Context, opt Options) ([]*source.PR, error) {
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
	var prs []*source.PR
	err = Log(ctx, opt.Path, tip, opt, func(c *Commit) error {
		if pr := ToPR(c, repo); pr != nil {
			prs = append(prs, pr)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return prs, nil
}

// LogArgs are the git log arguments Mine uses, for the benchmark's
// side-by-side baseline.
func LogArgs(marker, rev string, opt Options) []string {
	args := []string{"log", "--first-parent", "-m", "--numstat", "-z", "--no-color", "--no-ext-diff", "-M",
		"--format=" + logFormat(marker),
		"-E", "--grep=^Merge pull request #[0-9]+ from ", "--grep=\\(#[0-9]+\\)[[:space:]]*$"}
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
func Log(ctx context.Context, dir, rev string, opt Options, fn func(*Commit) error) error {
	marker := newMarker()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	cmd := gitcmd.Command(ctx, dir, nil, append([]string{"-c", "core.quotepath=off"}, LogArgs(marker, rev, opt)...)...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("run git log: %w", err)
	}
	found := 0
	stop := fmt.Errorf("limit reached")
	perr := ParseLog(out, marker, func(c *Commit) error {
		if opt.Limit > 0 && found >= opt.Limit {
			return stop
		}
		if isPR(c.Subject) {
			found++
		}
		return fn(c)
	})
	if perr == stop {
		cancel()
		_ = cmd.Wait()
		return nil
	}
	werr := cmd.Wait()
	if perr != nil {
		return fmt.Errorf("mine %s: %w", dir, perr)
	}
	if werr != nil {
		return fmt.Errorf("mine %s: git log: %s", dir, strings.TrimSpace(stderr.String()))
	}
	return nil
}

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
	if pr.Number <= 0 || pr.BaseCommit == "" {
		return nil
	}
	pr.Issues = source.LinkedIssues(c.Subject+"\n"+c.Body, repo, pr.Number)
	return pr
}
