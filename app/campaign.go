package app

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"sync"
	"time"

	"curate/pipeline"
	"curate/pipeline/source/gitmine"
	"curate/pipeline/validate"
	"curate/workspace"
)

// A campaign takes local clones to a validated pool in one command: each
// repository is mined, its environment checked at its snapshot, its
// candidates built, and then every built task of them validated in one
// batch, so the engines' concurrency is one budget for all repositories.
// Each step reads what the store says is done and does only the rest: a
// campaign killed at any point and started again builds and validates no
// task twice (re-mining keeps built and validated tasks as they are).

// CampaignOptions are the repositories and how to mine them.
type CampaignOptions struct {
	Clones []string
	Mine   gitmine.Options // Since, Until, Limit, Branch (Path and Repo per clone)
	Preset string
	// NoEnvCheck skips the environment checks (every PR then builds at its
	// merge commit under auto).
	NoEnvCheck bool
	Validate   ValidateOptions
	// Event hears of each step's end, per repository.
	Event func(CampaignEvent)
}

// CampaignEvent is one step of one repository: mine, env_check, build or
// validate, with its counts.
type CampaignEvent struct {
	Repo  string `json:"repo"`
	Step  string `json:"step"`
	Mined int    `json:"mined,omitempty"`
	// Rejected are mined PRs the candidate filter turned away (curate
	// funnel says why).
	Rejected int    `json:"rejected,omitempty"`
	Built    int    `json:"built,omitempty"`
	Already  int    `json:"already,omitempty"` // built or validated by an earlier run
	Refused  int    `json:"refused,omitempty"` // the build refused them (see curate list)
	Valid    int    `json:"valid,omitempty"`
	Invalid  int    `json:"invalid,omitempty"`
	Detail   string `json:"detail,omitempty"`
	// Waiting: the step is under way (Detail says what it does or waits
	// for: its tests, the cluster's capacity); not a step's end.
	Waiting bool `json:"waiting,omitempty"`
	// At is when the campaign said it; Seconds, at a step's end, the wall
	// time the step took: for mine, env_check and build the repository's
	// own, for validate the whole batch's (its runs are interleaved). So
	// the --json stream alone times a campaign per repository and phase.
	At      time.Time `json:"at"`
	Seconds float64   `json:"seconds,omitempty"`
}

// RunCampaign runs the campaign; it returns the repositories it covered.
func RunCampaign(ctx context.Context, ws *workspace.Workspace, o CampaignOptions) ([]string, error) {
	emit := func(e CampaignEvent) {
		e.At = time.Now().UTC()
		if o.Event != nil {
			o.Event(e)
		}
	}
	var repos []string
	for _, clone := range o.Clones {
		opt := o.Mine
		opt.Path, opt.Repo = clone, ""
		start := time.Now()
		res, err := MineGit(ctx, ws, opt, MineOptions{Preset: o.Preset})
		if err != nil {
			return repos, fmt.Errorf("mine %s: %w", clone, err)
		}
		repo := repoOfMined(res.Tasks)
		if repo == "" {
			emit(CampaignEvent{Repo: clone, Step: "mine", Detail: "no merged PR found"})
			continue
		}
		rejected := 0
		for _, t := range res.Tasks {
			if t.Status == pipeline.StatusRejected {
				rejected++
			}
		}
		emit(CampaignEvent{Repo: repo, Step: "mine", Mined: len(res.Tasks), Rejected: rejected, Seconds: secondsSince(start)})
		if !slices.Contains(repos, repo) { // two paths to one clone
			repos = append(repos, repo)
		}
	}
	if !o.NoEnvCheck {
		if err := campaignEnvChecks(ctx, ws, repos, o.Validate, emit); err != nil {
			return repos, err
		}
	}
	for _, repo := range repos {
		if err := campaignBuild(ctx, ws, repo, emit); err != nil {
			return repos, err
		}
	}
	return repos, campaignValidate(ctx, ws, repos, o.Validate, emit)
}

// campaignEnvChecks checks the environments of repos that have no check
// recorded at their snapshot, as many at once as the campaign's budget
// (--concurrency, else the engine's own) lets the engine run.
func campaignEnvChecks(ctx context.Context, ws *workspace.Workspace, repos []string, vo ValidateOptions, emit func(CampaignEvent)) error {
	var todo []string
	for _, repo := range repos {
		need, err := campaignNeedsCheck(ctx, ws, repo, emit)
		if err != nil {
			return err
		}
		if need {
			todo = append(todo, repo)
		}
	}
	if len(todo) == 0 {
		return nil
	}
	host := ""
	if len(vo.Hosts) > 0 {
		host = vo.Hosts[0]
	}
	var mu sync.Mutex // checks end, and wait, at once
	started := map[string]time.Time{}
	say := func(e CampaignEvent) {
		mu.Lock()
		defer mu.Unlock()
		emit(e)
	}
	// The checks run on the campaign's engine: with --engine kubernetes
	// Jobs on the cluster, like the validation runs.
	_, err := CheckEnvironments(ctx, ws, EnvCheckOptions{Repos: todo, Host: host, Engine: vo.Engine, Concurrency: vo.Concurrency,
		Started: func(repo string) {
			mu.Lock()
			started[repo] = time.Now()
			mu.Unlock()
			say(CampaignEvent{Repo: repo, Step: "env_check", Detail: "checking: the repository's tests at its snapshot", Waiting: true})
		},
		Waiting: func(repo, why string) {
			if why != "" {
				say(CampaignEvent{Repo: repo, Step: "env_check", Detail: "waiting for the cluster: " + why, Waiting: true})
			}
		},
		Checked: func(s *RepoState) {
			mu.Lock()
			took := secondsSince(started[s.Repo])
			mu.Unlock()
			say(CampaignEvent{Repo: s.Repo, Step: "env_check", Detail: s.EnvCheck.String(), Seconds: took})
		}})
	if err != nil {
		return fmt.Errorf("env check: %w", err)
	}
	return nil
}

// campaignNeedsCheck says whether repo's environment must be checked: no
// check recorded at its snapshot covers its mined PRs, and it has a
// candidate to build. It says why not.
func campaignNeedsCheck(ctx context.Context, ws *workspace.Workspace, repo string, emit func(CampaignEvent)) (bool, error) {
	st, err := RepoStateOf(ws, repo)
	if err != nil {
		return false, err
	}
	tasks, err := ws.Store.Tasks(ctx)
	if err != nil {
		return false, err
	}
	if c := st.EnvCheck; c != nil && st.Snapshot != "" && c.Snapshot == st.Snapshot {
		newer := minedSince(tasks, repo, c)
		if newer == 0 {
			emit(CampaignEvent{Repo: repo, Step: "env_check", Detail: "recorded: " + c.String()})
			return false, nil
		}
		emit(CampaignEvent{Repo: repo, Step: "env_check", Detail: fmt.Sprintf("checked again: %d PRs mined since the recorded check, whose tests it did not run", newer)})
	}
	if !hasCandidates(tasks, repo) {
		// The check only decides where candidates build: with none it
		// would cost minutes (a Java suite, twenty) for nothing.
		emit(CampaignEvent{Repo: repo, Step: "env_check", Detail: "skipped: no candidate to build (every PR mined was rejected by the filter: curate funnel)"})
		return false, nil
	}
	return true, nil
}

// hasCandidates says whether repo has a mined task the filter passed
// that is not built yet.
func hasCandidates(tasks []*pipeline.Task, repo string) bool {
	for _, t := range tasks {
		if t.Repo == repo && t.Mined() && !t.Labels.Excluded && t.Status == pipeline.StatusCandidate {
			return true
		}
	}
	return false
}

// minedSince counts repo's tasks mined after a check that ran only the
// test files of the PRs mined then (scope "touched"): the check says
// nothing of theirs. A check of every test file covers them.
func minedSince(tasks []*pipeline.Task, repo string, c *EnvCheck) int {
	if c.Scope == "all" {
		return 0
	}
	n := 0
	for _, t := range tasks {
		if t.Repo == repo && t.CreatedAt.After(c.At) {
			n++
		}
	}
	return n
}

// campaignBuild builds repo's candidates that passed the filter and are
// not built yet.
func campaignBuild(ctx context.Context, ws *workspace.Workspace, repo string, emit func(CampaignEvent)) error {
	tasks, err := ws.Store.Tasks(ctx)
	if err != nil {
		return err
	}
	var ids []string
	already := 0
	for _, t := range tasks {
		switch {
		case t.Repo != repo || !t.Mined() || t.Labels.Excluded:
		case t.Status == pipeline.StatusCandidate:
			ids = append(ids, t.ID)
		case t.Status == pipeline.StatusBuilt || t.Status == pipeline.StatusValid || t.Status == pipeline.StatusInvalid:
			already++
		}
	}
	e := CampaignEvent{Repo: repo, Step: "build", Already: already}
	if len(ids) > 0 {
		start := time.Now()
		results, err := Build(ctx, ws, BuildOptions{IDs: ids})
		e.Seconds = secondsSince(start)
		if err != nil {
			return fmt.Errorf("build %s: %w", repo, err)
		}
		for _, r := range results {
			if r.Status == string(pipeline.StatusBuilt) {
				e.Built++
			} else {
				e.Refused++
			}
		}
	}
	emit(e)
	return nil
}

// campaignValidate validates every built task of the repos not validated
// on its current files, in one batch.
func campaignValidate(ctx context.Context, ws *workspace.Workspace, repos []string, vo ValidateOptions, emit func(CampaignEvent)) error {
	tasks, err := ws.Store.Tasks(ctx)
	if err != nil {
		return err
	}
	var todo []*pipeline.Task
	for _, t := range tasks {
		if slices.Contains(repos, t.Repo) && t.Status == pipeline.StatusBuilt && !t.Labels.Excluded {
			todo = append(todo, t)
		}
	}
	sort.Slice(todo, func(i, j int) bool { return todo[i].ID < todo[j].ID })
	done, err := finishedModes(ctx, ws)
	if err != nil {
		return err
	}
	var jobs []validate.Job
	for _, t := range todo {
		var modes []string
		for _, m := range DefaultModes(t) {
			if !done[t.ID+"\x00"+t.Digest+"\x00"+m] {
				modes = append(modes, m)
			}
		}
		if len(modes) == 0 {
			continue // every mode has its verdict; the store will say so
		}
		js, _ := ValidationJobs(ws.Root, []*pipeline.Task{t}, modes)
		jobs = append(jobs, js...)
	}
	took := 0.0
	if len(jobs) > 0 {
		start := time.Now()
		if _, err := Validate(ctx, ws, jobs, vo); err != nil {
			return err
		}
		took = secondsSince(start)
		if tasks, err = ws.Store.Tasks(ctx); err != nil {
			return err
		}
	}
	for _, repo := range repos {
		e := CampaignEvent{Repo: repo, Step: "validate", Seconds: took}
		for _, t := range tasks {
			if t.Repo != repo {
				continue
			}
			switch t.Status {
			case pipeline.StatusValid:
				e.Valid++
			case pipeline.StatusInvalid:
				e.Invalid++
			}
		}
		emit(e)
	}
	return nil
}

// finishedModes are the task/digest/mode triples with a run that ended
// with a verdict: a campaign stopped mid-task does not run them again.
func finishedModes(ctx context.Context, ws *workspace.Workspace) (map[string]bool, error) {
	runs, err := ws.Store.Runs(ctx, "")
	if err != nil {
		return nil, err
	}
	out := map[string]bool{}
	for _, r := range runs {
		switch r.Outcome {
		case pipeline.OutcomeRunning, pipeline.OutcomePending, pipeline.OutcomeInterrupted, pipeline.OutcomeCancelled, pipeline.OutcomeInfraError:
			continue
		}
		out[r.TaskID+"\x00"+r.Digest+"\x00"+r.Mode] = true
	}
	return out, nil
}

// secondsSince is the wall seconds from start, to the millisecond.
func secondsSince(start time.Time) float64 {
	return time.Since(start).Round(time.Millisecond).Seconds()
}

// repoOfMined is the repository a mine's tasks belong to.
func repoOfMined(tasks []*pipeline.Task) string {
	for _, t := range tasks {
		if t.Repo != "" {
			return t.Repo
		}
	}
	return ""
}
