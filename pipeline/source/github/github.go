// Package github mines merged pull requests through the GitHub REST API
// (go-github v62): closed PRs, their files, linked issues; it waits out
// rate limits, resumes where a previous run stopped, and keeps a partial
// clone of the repository for patch generation.
package github

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"os/exec"
	"strings"
	"time"

	gh "github.com/google/go-github/v62/github"

	"curate/pipeline/source"
)

// Token finds a token: $GITHUB_TOKEN, else `gh auth token` when gh is
// installed. An empty token means unauthenticated (60 requests an hour).
func Token(ctx context.Context, getenv func(string) string) (token, from string) {
	if t := strings.TrimSpace(getenv("GITHUB_TOKEN")); t != "" {
		return t, "$GITHUB_TOKEN"
	}
	if path, err := exec.LookPath("gh"); err == nil {
		out, err := exec.CommandContext(ctx, path, "auth", "token").Output()
		if t := strings.TrimSpace(string(out)); err == nil && t != "" {
			return t, "gh auth token"
		}
	}
	return "", ""
}

// NewClient makes a go-github client for apiURL ("" = api.github.com).
func NewClient(apiURL, token string) (*gh.Client, error) {
	c := gh.NewClient(&http.Client{Timeout: 60 * time.Second})
	if token != "" {
		c = c.WithAuthToken(token)
	}
	if apiURL != "" {
		u, err := url.Parse(apiURL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return nil, fmt.Errorf("--api-url %q: want http(s)://host/path", apiURL)
		}
		if !strings.HasSuffix(u.Path, "/") {
			u.Path += "/"
		}
		c.BaseURL = u
	}
	return c, nil
}

// Miner lists a repository's merged PRs.
type Miner struct {
	Client *gh.Client
	// Notify receives progress and rate-limit messages ("resuming at ...").
	Notify func(msg string)
	// Sleep waits d (tests make it fast); default time.Sleep honouring ctx.
	Sleep func(ctx context.Context, d time.Duration) error
	// MaxRetries bounds the retries of one request (rate limits, 429,
	// 5xx); 0 = 8.
	MaxRetries int
	// MaxWait caps one wait the server asks for (0 = DefaultMaxWait);
	// longer, the mine stops with a *WaitError.
	MaxWait time.Duration
}

func (m *Miner) notify(format string, args ...any) {
	if m.Notify != nil {
		m.Notify(fmt.Sprintf(format, args...))
	}
}

func (m *Miner) sleep(ctx context.Context, d time.Duration) error {
	if m.Sleep != nil {
		return m.Sleep(ctx, d)
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// Repo is what the miner needs to know about the repository.
type Repo struct {
	FullName      string
	DefaultBranch string
	CloneURL      string
}

// Repository fetches the repository's default branch and clone URL.
func (m *Miner) Repository(ctx context.Context, owner, name string) (*Repo, error) {
	var r *gh.Repository
	_, err := m.call(ctx, "get repository "+owner+"/"+name, func() (resp *gh.Response, err error) {
		r, resp, err = m.Client.Repositories.Get(ctx, owner, name)
		return resp, err
	})
	if err != nil {
		return nil, err
	}
	return &Repo{FullName: r.GetFullName(), DefaultBranch: r.GetDefaultBranch(), CloneURL: r.GetCloneURL()}, nil
}

// Options say which PRs to mine.
type Options struct {
	Owner, Name string
	Since       time.Time
	Limit       int          // at most this many new merged PRs (0 = all)
	Done        map[int]bool // PRs a previous run finished: not fetched again
}

// Mine lists closed PRs newest-updated first and calls fn for each merged
// one not in opt.Done, with files and linked issues filled in (commits
// are resolved later against the clone). It stops at opt.Since or
// opt.Limit.
func (m *Miner) Mine(ctx context.Context, opt Options, repo *Repo, fn func(*source.PR) error) error {
	full := opt.Owner + "/" + opt.Name
	list := &gh.PullRequestListOptions{State: "closed", Sort: "updated", Direction: "desc", ListOptions: gh.ListOptions{PerPage: 100}}
	found := 0
	pages := newPager(m, "pull requests of "+full)
	for {
		var page []*gh.PullRequest
		resp, err := m.call(ctx, fmt.Sprintf("list pull requests of %s (page %d)", full, max(list.Page, 1)), func() (resp *gh.Response, err error) {
			page, resp, err = m.Client.PullRequests.List(ctx, opt.Owner, opt.Name, list)
			return resp, err
		})
		if err != nil {
			return err
		}
		for _, p := range page {
			if !opt.Since.IsZero() && p.GetUpdatedAt().Time.Before(opt.Since) {
				return nil
			}
			if p.MergedAt == nil || opt.Done[p.GetNumber()] {
				continue
			}
			if !opt.Since.IsZero() && p.GetMergedAt().Time.Before(opt.Since) {
				continue
			}
			if opt.Limit > 0 && found >= opt.Limit {
				return nil
			}
			pr, err := m.pr(ctx, opt, repo, p)
			if err != nil {
				return err
			}
			found++
			if err := fn(pr); err != nil {
				return err
			}
		}
		if list.Page = pages.next(resp, len(page)); list.Page == 0 {
			return nil
		}
	}
}

func (m *Miner) pr(ctx context.Context, opt Options, repo *Repo, p *gh.PullRequest) (*source.PR, error) {
	n := p.GetNumber()
	full := opt.Owner + "/" + opt.Name
	if n < 1 {
		return nil, fmt.Errorf("%s: the server listed a pull request numbered %d; want 1 or more", full, n)
	}
	pr := &source.PR{
		Repo: full, Number: n, Title: p.GetTitle(), Body: p.GetBody(), Author: p.GetUser().GetLogin(),
		HeadCommit: p.GetMergeCommitSHA(), MergedAt: p.GetMergedAt().Time.UTC(), Kind: "github",
		BaseRef: p.GetBase().GetRef(), DefaultBranch: repo.DefaultBranch, Commits: p.GetCommits(),
	}
	if p.Commits == nil { // the list endpoint leaves it out; the PR's own page has it
		var full *gh.PullRequest
		_, err := m.call(ctx, fmt.Sprintf("pull request %s/%s#%d", opt.Owner, opt.Name, n), func() (resp *gh.Response, err error) {
			full, resp, err = m.Client.PullRequests.Get(ctx, opt.Owner, opt.Name, n)
			return resp, err
		})
		if err != nil {
			return nil, err
		}
		pr.Commits = full.GetCommits()
	}
	lo := &gh.ListOptions{PerPage: 100}
	filePages := newPager(m, fmt.Sprintf("files of %s#%d", full, n))
	for {
		var files []*gh.CommitFile
		resp, err := m.call(ctx, fmt.Sprintf("files of %s#%d", full, n), func() (resp *gh.Response, err error) {
			files, resp, err = m.Client.PullRequests.ListFiles(ctx, opt.Owner, opt.Name, n, lo)
			return resp, err
		})
		if err != nil {
			return nil, err
		}
		for _, f := range files {
			fc := source.FileChange{Path: f.GetFilename(), OldPath: f.GetPreviousFilename(), Added: f.GetAdditions(), Removed: f.GetDeletions()}
			// GitHub sends no patch text for binary files.
			fc.Binary = f.Patch == nil && f.GetChanges() == 0 && f.GetStatus() != "renamed"
			pr.Files = append(pr.Files, fc)
		}
		if lo.Page = filePages.next(resp, len(files)); lo.Page == 0 {
			break
		}
	}
	issues := map[source.IssueRef]bool{}
	for _, r := range source.LinkedIssues(pr.Title+"\n"+pr.Body, full, n) {
		issues[r] = true
	}
	tl := &gh.ListOptions{PerPage: 100}
	timelinePages := newPager(m, fmt.Sprintf("timeline of %s#%d", full, n))
	for {
		var events []*gh.Timeline
		resp, err := m.call(ctx, fmt.Sprintf("timeline of %s#%d", full, n), func() (resp *gh.Response, err error) {
			events, resp, err = m.Client.Issues.ListIssueTimeline(ctx, opt.Owner, opt.Name, n, tl)
			return resp, err
		})
		if err != nil {
			return nil, err
		}
		for _, e := range events {
			if e.GetEvent() != "cross-referenced" || e.Source == nil || e.Source.Issue == nil {
				continue
			}
			is := e.Source.Issue
			if is.PullRequestLinks != nil || is.GetNumber() <= 0 {
				continue // a PR mentioning this one, not an issue
			}
			r := source.IssueRef{Number: is.GetNumber()}
			if rr := is.GetRepository().GetFullName(); rr != "" && !strings.EqualFold(rr, full) {
				r.Repo = rr
			}
			if r.Repo == "" && r.Number == n {
				continue
			}
			issues[r] = true
		}
		if tl.Page = timelinePages.next(resp, len(events)); tl.Page == 0 {
			break
		}
	}
	for r := range issues {
		pr.Issues = append(pr.Issues, r)
	}
	sortIssues(pr.Issues)
	// The first linked issue of this repository gives the task its text.
	for _, r := range pr.Issues {
		if r.Repo != "" {
			continue
		}
		var is *gh.Issue
		_, err := m.call(ctx, fmt.Sprintf("issue %s#%d", full, r.Number), func() (resp *gh.Response, err error) {
			is, resp, err = m.Client.Issues.Get(ctx, opt.Owner, opt.Name, r.Number)
			return resp, err
		})
		if err != nil {
			m.notify("%s#%d: linked issue #%d unreadable (%v); using the PR text", full, n, r.Number, err)
			continue
		}
		pr.IssueText = strings.TrimSpace(is.GetTitle() + "\n\n" + is.GetBody())
		break
	}
	return pr, nil
}

func sortIssues(rs []source.IssueRef) {
	for i := 1; i < len(rs); i++ {
		for j := i; j > 0 && less(rs[j], rs[j-1]); j-- {
			rs[j], rs[j-1] = rs[j-1], rs[j]
		}
	}
}

func less(a, b source.IssueRef) bool {
	if a.Repo != b.Repo {
		return a.Repo < b.Repo
	}
	return a.Number < b.Number
}
