package app

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"curate/pipeline"
	"curate/pipeline/filter"
	"curate/pipeline/source"
	"curate/pipeline/source/github"
	"curate/pipeline/source/gitmine"
	"curate/workspace"
)

// MineFilter loads the profile's [filter] and resolves the preset and the
// linked-issue rule: flags, then curate.toml [filter], then the profile.
func MineFilter(ws *workspace.Workspace, o MineOptions) (*filter.Config, filter.Options, error) {
	p, err := LoadProfile(ws)
	if err != nil {
		return nil, filter.Options{}, err
	}
	if err := p.Filter.Validate(); err != nil {
		return nil, filter.Options{}, fmt.Errorf("profile %s: %w", p.Name, err)
	}
	opt := filter.Options{Preset: o.Preset, RequireIssue: ws.Config.Filter.RequireIssue}
	if opt.Preset == "" {
		opt.Preset = ws.Config.Filter.Preset
	}
	if opt.Preset == "" {
		opt.Preset = "taskgen"
	}
	switch opt.Preset {
	case "taskgen", "swesmith", "none":
	default:
		return nil, opt, fmt.Errorf("--preset %q: want taskgen, swesmith or none", opt.Preset)
	}
	if o.NoRequireIssue {
		no := false
		opt.RequireIssue = &no
	}
	return &p.Filter, opt, nil
}

// SaveCandidates filters prs and upserts them. A task already built (or
// validated) from the same commits keeps its status, dir and digest: a
// re-mine never throws away a build.
func SaveCandidates(ctx context.Context, ws *workspace.Workspace, prs []*source.PR, fc *filter.Config, fopt filter.Options, kind, path string) ([]*pipeline.Task, error) {
	existing, err := ws.Store.Tasks(ctx)
	if err != nil {
		return nil, err
	}
	byID := map[string]*pipeline.Task{}
	for _, t := range existing {
		byID[t.ID] = t
	}
	tasks := make([]*pipeline.Task, 0, len(prs))
	for _, pr := range prs {
		reasons, err := fc.Evaluate(pr, fopt)
		if err != nil {
			return nil, err
		}
		t := pr.Task(kind, path, reasons)
		t.Extra["preset"] = fopt.Preset
		if old := byID[t.ID]; old != nil && old.HeadCommit == t.HeadCommit && old.TaskDir != "" {
			switch old.Status {
			case pipeline.StatusBuilt, pipeline.StatusValid, pipeline.StatusInvalid:
				t.Status, t.TaskDir, t.Digest = old.Status, old.TaskDir, old.Digest
			}
		}
		tasks = append(tasks, t)
	}
	if err := ScoreWith(ws, tasks...); err != nil {
		return nil, err
	}
	if err := ws.Store.UpsertTasks(ctx, tasks); err != nil {
		return nil, err
	}
	return tasks, nil
}

// MineOptions choose the candidate filter of a mine.
type MineOptions struct {
	Preset         string // taskgen, swesmith or none; "" = [filter] preset, else taskgen
	NoRequireIssue bool   // taskgen: accept PRs without a linked issue
	// Progress hears of every PR found (nil: nobody).
	Progress ProgressFunc
	// IssuesFrom "github" fetches a local mine's linked issues' text
	// through the GitHub API (IssuesAPIURL, "" = api.github.com), cached.
	IssuesFrom, IssuesAPIURL string
	// Notify hears of the token used and of rate-limit waits.
	Notify func(msg string)
}

// GitMined is what a local mine saved, and the commits it could not read.
type GitMined struct {
	Tasks   []*pipeline.Task
	Preset  string
	Skipped []gitmine.Skipped
	// PullRefs is how many refs/pull/<N>/head the clone has;
	// FromPullRefs how many PRs only they revealed (by patch id).
	PullRefs, FromPullRefs int
}

// MineGit mines the merged PRs of a local clone into candidates. A commit
// git cannot read is skipped (and returned), not fatal.
func MineGit(ctx context.Context, ws *workspace.Workspace, opt gitmine.Options, o MineOptions) (*GitMined, error) {
	fc, fopt, err := MineFilter(ws, o)
	if err != nil {
		return nil, err
	}
	if opt.OnPR == nil && o.Progress != nil {
		opt.OnPR = func(n int, pr *source.PR) { o.Progress.report("log", n, opt.Limit, pr.Repo+"#"+fmt.Sprint(pr.Number)) }
	}
	timer := startProcessTimer()
	measured := map[*source.PR]bool{}
	res, err := mineCandidates(ctx, opt, func(pr *source.PR) (bool, error) {
		if fopt.Preset == "swesmith" && fc.SWESmith.MaxFileLines > 0 && !measured[pr] {
			if err := gitmine.MeasureLines(ctx, opt.Path, []*source.PR{pr}); err != nil {
				return false, err
			}
			measured[pr] = true
		}
		return isCandidate(fc, fopt, pr), nil
	})
	if err != nil {
		return nil, err
	}
	switch o.IssuesFrom {
	case "":
	case "github":
		if err := fetchIssueTexts(ctx, ws, res.PRs, o); err != nil {
			return nil, err
		}
	default:
		return nil, fmt.Errorf("--issues %q: want github", o.IssuesFrom)
	}
	tasks, err := SaveCandidates(ctx, ws, res.PRs, fc, fopt, "git", opt.Path)
	if err == nil && len(res.PRs) > 0 {
		err = timer.save(ctx, ws, pipeline.TimeMine, res.PRs[0].Repo)
	}
	return &GitMined{Tasks: tasks, Preset: fopt.Preset, Skipped: res.Skipped, PullRefs: res.PullRefs, FromPullRefs: res.FromPullRefs}, err
}

// GitHubMine is one `mine github`.
type GitHubMine struct {
	MineOptions
	Repo   string    // OWNER/NAME
	APIURL string    // "" = api.github.com
	Since  time.Time // only PRs merged on or after
	Limit  int       // stop after N candidates; 0 = all
	// MaxWait caps one wait the server asks for (0 = an hour); longer,
	// the mine stops, keeping what it mined.
	MaxWait time.Duration
	// Notify receives progress and warnings (token, clone, rate limits).
	Notify func(msg string)
}

// GitHubMined is what a GitHub mine saved.
type GitHubMined struct {
	Tasks        []*pipeline.Task
	Preset       string
	Skipped      int    // PRs mined by an earlier run
	ProgressPath string // delete it to start over
}

// MineGitHub mines merged PRs through the GitHub API into candidates. It
// keeps a partial clone in the cache for building and records progress
// after every PR, so a second run continues where the first stopped.
func MineGitHub(ctx context.Context, ws *workspace.Workspace, o GitHubMine) (*GitHubMined, error) {
	timer := startProcessTimer()
	notify := o.Notify
	if notify == nil {
		notify = func(string) {}
	}
	fc, fopt, err := MineFilter(ws, o.MineOptions)
	if err != nil {
		return nil, err
	}
	token, from := github.Token(ctx, os.Getenv)
	if token == "" {
		notify("warning: no GitHub token ($GITHUB_TOKEN or `gh auth login`): unauthenticated, 60 requests an hour")
	} else {
		notify("using the GitHub token from " + from)
	}
	client, err := github.NewClient(o.APIURL, token)
	if err != nil {
		return nil, err
	}
	m := &github.Miner{Client: client, Notify: notify, MaxWait: o.MaxWait}
	owner, name, _ := strings.Cut(o.Repo, "/")
	repo, err := m.Repository(ctx, owner, name)
	if err != nil {
		return nil, err
	}
	key := owner + "__" + name
	clone := filepath.Join(ws.CachePath(), "github", key+".git")
	notify("fetching a partial clone into " + clone)
	if err := github.Clone(ctx, repo.CloneURL, clone); err != nil {
		return nil, err
	}
	res := &GitHubMined{Preset: fopt.Preset, ProgressPath: filepath.Join(ws.CachePath(), "github", key+".progress.json")}
	done, err := github.LoadProgress(res.ProgressPath)
	if err != nil {
		return nil, err
	}
	res.Skipped = len(done)
	candidates := 0
	// Limit counts candidates (see mineCandidates): the listing runs on
	// until the callback has saved enough.
	err = m.Mine(ctx, github.Options{Owner: owner, Name: name, Since: o.Since, Done: done}, repo, func(pr *source.PR) error {
		if err := github.ResolveBases(ctx, clone, []*source.PR{pr}); err != nil {
			return err
		}
		if fopt.Preset == "swesmith" && fc.SWESmith.MaxFileLines > 0 && pr.BaseCommit != "" {
			if err := gitmine.MeasureLines(ctx, clone, []*source.PR{pr}); err != nil {
				return err
			}
		}
		saved, err := SaveCandidates(ctx, ws, []*source.PR{pr}, fc, fopt, "github", clone)
		if err != nil {
			return err
		}
		res.Tasks = append(res.Tasks, saved...)
		for _, t := range saved {
			if t.Status != pipeline.StatusRejected {
				candidates++
			}
		}
		o.Progress.report("mine", candidates, o.Limit, fmt.Sprintf("%s#%d", o.Repo, pr.Number))
		done[pr.Number] = true
		if err := github.SaveProgress(res.ProgressPath, o.Repo, done); err != nil {
			return err
		}
		if o.Limit > 0 && candidates >= o.Limit {
			return errEnough
		}
		return nil
	})
	if errors.Is(err, errEnough) {
		err = nil
	}
	if err != nil {
		if len(res.Tasks) > 0 {
			notify(fmt.Sprintf("stopped after %d PRs; run the same command again to continue", len(res.Tasks)))
		}
		return nil, err
	}
	return res, timer.save(ctx, ws, pipeline.TimeMine, o.Repo)
}

// fetchIssueTexts gives local PRs their linked issues' text from the
// GitHub API, cached per repository in the workspace cache (a stopped
// fetch resumes; a second mine asks only for new issues).
func fetchIssueTexts(ctx context.Context, ws *workspace.Workspace, prs []*source.PR, o MineOptions) error {
	notify := o.Notify
	if notify == nil {
		notify = func(string) {}
	}
	if len(prs) == 0 {
		return nil
	}
	repo := prs[0].Repo
	owner, name, _ := strings.Cut(repo, "/")
	token, from := github.Token(ctx, os.Getenv)
	if token == "" {
		notify("warning: no GitHub token ($GITHUB_TOKEN or `gh auth login`): unauthenticated, 60 requests an hour")
	} else {
		notify("fetching linked issues with the GitHub token from " + from)
	}
	client, err := github.NewClient(o.IssuesAPIURL, token)
	if err != nil {
		return err
	}
	m := &github.Miner{Client: client, Notify: notify}
	cache := filepath.Join(ws.CachePath(), "github", owner+"__"+name+".issues.json")
	res, err := m.FetchIssueTexts(ctx, owner, name, prs, cache)
	if err != nil {
		return fmt.Errorf("linked issues of %s (%d fetched so far, cached in %s; run again to continue): %w", repo, res.Fetched, cache, err)
	}
	notify(fmt.Sprintf("linked issues: %d fetched, %d from the cache, %d missing (404)", res.Fetched, res.Cached, res.Missing))
	return nil
}
