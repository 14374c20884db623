package app

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"curate/pipeline"
	"curate/pipeline/stats"
	"curate/pipeline/validate"
	"curate/workspace"
)

// RebuildResult is what a repo rebuild did to each task.
type RebuildResult struct {
	Repo    string           `json:"repo"`
	Tasks   []RebuiltTask    `json:"tasks"`
	Built   int              `json:"built"`
	Changed int              `json:"changed"`
	Refused int              `json:"refused"` // build refusals (no test files, patch conflicts)
	Errors  int              `json:"errors"`  // builds that failed otherwise
	Builds  []BuildResult    `json:"builds"`
	Funnel  stats.RepoFunnel `json:"funnel"`
}

// RebuiltTask is one task of a repo rebuild.
type RebuiltTask struct {
	ID string `json:"id"`
	// Change is "environment" (its environment/ folder, so its image,
	// changed), "task" (other files changed: tests, patches), "none", or
	// the build's status when it was not built ("rejected", "error").
	Change string `json:"change"`
	// Invalidated is how many runs no longer count (made on the old files).
	Invalidated int    `json:"invalidated_runs"`
	Digest      string `json:"digest,omitempty"` // the task's digest now
	OldEnv      string `json:"old_env_digest,omitempty"`
	NewEnv      string `json:"new_env_digest,omitempty"`
}

// rebuildTargets are the tasks a rebuild of repo builds again: those
// built before, or refused by a build (a profile may fix that);
// candidates never built stay for `curate build`.
func rebuildTargets(all []*pipeline.Task, repo string) []*pipeline.Task {
	var out []*pipeline.Task
	for _, t := range all {
		if t.Repo != repo || !t.Mined() || t.Labels.Excluded {
			continue
		}
		if t.TaskDir == "" && !(t.Status == pipeline.StatusRejected && onlyBuildRefusals(t.Reasons)) {
			continue
		}
		out = append(out, t)
	}
	return out
}

// RebuildPlan are the tasks RebuildRepo would build again (rebuild
// --dry-run), changing nothing.
func RebuildPlan(ctx context.Context, ws *workspace.Workspace, repo string) ([]*pipeline.Task, error) {
	all, err := ws.Store.Tasks(ctx)
	if err != nil {
		return nil, err
	}
	out := rebuildTargets(all, repo)
	if len(out) == 0 {
		return nil, fmt.Errorf("repo %q: %w", repo, ErrNoRepo)
	}
	return out, nil
}

// RebuildRepo rebuilds every built (or build-refused) task of repo with
// the current profile, and reports which tasks' environment inputs
// changed. A task whose files changed goes back to built with no failure:
// its old runs no longer count (they name the old digest). A task whose
// files did not change keeps its verdict.
func RebuildRepo(ctx context.Context, ws *workspace.Workspace, repo string, o BuildOptions) (*RebuildResult, error) {
	all, err := ws.Store.Tasks(ctx)
	if err != nil {
		return nil, err
	}
	type before struct {
		digest, env string
		status      pipeline.Status
		failure     *pipeline.Failure
	}
	prev := map[string]before{}
	var ids []string
	for _, t := range rebuildTargets(all, repo) {
		env, _ := EnvDigest(ws.Root, t)
		prev[t.ID] = before{t.Digest, env, t.Status, t.Failure}
		ids = append(ids, t.ID)
	}
	if len(ids) == 0 {
		return nil, fmt.Errorf("repo %q: %w", repo, ErrNoRepo)
	}
	o.Accepted, o.IDs = false, ids
	builds, err := Build(ctx, ws, o)
	res := &RebuildResult{Repo: repo, Tasks: []RebuiltTask{}, Builds: builds}
	if err != nil && len(builds) == 0 {
		return nil, err
	}
	runs, rerr := ws.Store.Runs(ctx, "")
	if rerr != nil {
		return nil, rerr
	}
	runsOf := map[string][]*pipeline.Run{}
	for _, r := range runs {
		runsOf[r.TaskID] = append(runsOf[r.TaskID], r)
	}
	for _, b := range builds {
		p := prev[b.ID]
		rt := RebuiltTask{ID: b.ID, OldEnv: p.env}
		if b.Status != string(pipeline.StatusBuilt) {
			rt.Change = b.Status
			if b.Status == string(pipeline.StatusRejected) {
				res.Refused++
			} else {
				res.Errors++
			}
			res.Tasks = append(res.Tasks, rt)
			continue
		}
		res.Built++
		t, terr := ws.Store.Task(ctx, b.ID)
		if terr != nil {
			return res, terr
		}
		rt.NewEnv, _ = EnvDigest(ws.Root, t)
		rt.Digest = t.Digest
		switch {
		case b.Digest == p.digest:
			rt.Change = "none"
			t.Status, t.Failure = p.status, p.failure // the verdict still holds
		case rt.NewEnv != p.env:
			rt.Change = "environment"
		default:
			rt.Change = "task"
		}
		if rt.Change != "none" {
			res.Changed++
			t.Failure = nil
			for _, r := range runsOf[b.ID] {
				if r.Digest == p.digest && p.digest != "" {
					rt.Invalidated++
				}
			}
		}
		if terr := ws.Store.UpsertTasks(ctx, []*pipeline.Task{t}); terr != nil {
			return res, terr
		}
		res.Tasks = append(res.Tasks, rt)
	}
	tasks, terr := ws.Store.Tasks(ctx)
	if terr != nil {
		return res, terr
	}
	if f := stats.ComputeFunnel(tasks, runs, repo); len(f.Repos) == 1 {
		res.Funnel = f.Repos[0]
	}
	return res, err
}

func onlyBuildRefusals(reasons []string) bool {
	for _, r := range reasons {
		if !strings.HasPrefix(r, "build: ") {
			return false
		}
	}
	return len(reasons) > 0
}

// RerunTarget is a task `validate --repo R --failed` reruns, and why.
type RerunTarget struct {
	Task *pipeline.Task
	Why  string // "failed: CLASS" or "changed since its runs"
}

// RepoRerunTargets are repo's built tasks whose last validation failed
// (any class but no_fail_to_pass, a true negative) or whose files changed
// since they were validated (their runs name another digest). Tasks never
// validated are not reruns: validate them with --repo alone.
func RepoRerunTargets(tasks []*pipeline.Task, runs []*pipeline.Run, repo string) []RerunTarget {
	byTask := map[string][]*pipeline.Run{}
	for _, r := range runs {
		byTask[r.TaskID] = append(byTask[r.TaskID], r)
	}
	var out []RerunTarget
	for _, t := range tasks {
		if t.Repo != repo || !t.Mined() || t.TaskDir == "" || t.Labels.Excluded {
			continue
		}
		switch {
		case t.Status == pipeline.StatusInvalid && (t.Failure == nil || t.Failure.Class != pipeline.ClassNoFailToPass):
			class := pipeline.ClassUnclassified
			if t.Failure != nil {
				class = t.Failure.Class
			}
			out = append(out, RerunTarget{Task: t, Why: "failed: " + class})
		case len(byTask[t.ID]) > 0 && len(pipeline.LatestRuns(byTask[t.ID], t.Digest)) == 0:
			out = append(out, RerunTarget{Task: t, Why: "changed since its runs"})
		}
	}
	return out
}

// RepoTasks are repo's mined tasks that have a task dir, for `validate
// --repo R`: every one, or with failed only the RepoRerunTargets.
func RepoTasks(ctx context.Context, ws *workspace.Workspace, repo string, failed bool) ([]RerunTarget, error) {
	tasks, err := ws.Store.Tasks(ctx)
	if err != nil {
		return nil, err
	}
	known := false
	for _, t := range tasks {
		if t.Repo == repo && t.Mined() {
			known = true
			break
		}
	}
	if !known {
		return nil, fmt.Errorf("repo %q: %w", repo, ErrNoRepo)
	}
	if failed {
		runs, err := ws.Store.Runs(ctx, "")
		if err != nil {
			return nil, err
		}
		return RepoRerunTargets(tasks, runs, repo), nil
	}
	var out []RerunTarget
	for _, t := range tasks {
		if t.Repo == repo && t.Mined() && t.TaskDir != "" && !t.Labels.Excluded {
			out = append(out, RerunTarget{Task: t, Why: string(t.Status)})
		}
	}
	return out, nil
}

// RepoOf checks an OWNER/NAME argument.
func RepoOf(arg string) (string, error) {
	parts := strings.Split(arg, "/")
	if len(parts) != 2 || parts[0] == "" || parts[1] == "" || strings.ContainsAny(arg, " \t\n") {
		return "", fmt.Errorf("%q: want OWNER/NAME, such as acme/calc", arg)
	}
	return arg, nil
}

// RebuildAndTargets is the workbench's rebuild key: RebuildRepo, then the
// tasks `validate --repo R --failed` would rerun.
func RebuildAndTargets(ctx context.Context, ws *workspace.Workspace, repo string, o BuildOptions) (*RebuildResult, []*pipeline.Task, error) {
	res, err := RebuildRepo(ctx, ws, repo, o)
	if err != nil {
		return res, nil, err
	}
	targets, err := RepoTasks(ctx, ws, repo, true)
	if err != nil {
		return res, nil, err
	}
	tasks := make([]*pipeline.Task, len(targets))
	for i, t := range targets {
		tasks[i] = t.Task
	}
	return res, tasks, nil
}

// RebuildRepoJob is the jobs list's "rebuild a repo" (RebuildRepoFunc):
// RebuildRepo, then validate what failed or changed (nop, oracle, gold)
// on the workspace's engines, with progress, and one line saying what
// changed.
func RebuildRepoJob(ws *workspace.Workspace, o ValidateOptions) RebuildRepoFunc {
	return func(ctx context.Context, repo string, progress ProgressFunc) (string, error) {
		res, tasks, err := RebuildAndTargets(ctx, ws, repo, BuildOptions{Progress: progress})
		if err != nil {
			return "", err
		}
		line := fmt.Sprintf("rebuilt %s: %d built, %d changed, %d refused, %d error(s)", repo, res.Built, res.Changed, res.Refused, res.Errors)
		modes, _ := validate.ParseModes("nop,oracle,gold")
		jobs, _ := validate.Jobs(ws.Root, tasks, modes)
		if len(jobs) == 0 {
			return line + "; nothing failed or changed to rerun", nil
		}
		var mu sync.Mutex
		done := 0
		vo := o
		vo.OnDone = func(r *pipeline.Run) {
			mu.Lock()
			done++
			n := done
			mu.Unlock()
			progress.report("validate", n, len(jobs), r.TaskID+" "+r.Mode)
		}
		progress.report("validate", 0, len(jobs), "")
		if _, err := Validate(ctx, ws, jobs, vo); err != nil {
			return line, err
		}
		valid := 0
		all, err := ws.Store.Tasks(ctx)
		if err != nil {
			return line, err
		}
		rerun := map[string]bool{}
		for _, t := range tasks {
			rerun[t.ID] = true
		}
		for _, t := range all {
			if rerun[t.ID] && t.Status == pipeline.StatusValid {
				valid++
			}
		}
		return fmt.Sprintf("%s; reran %d: %d now valid", line, len(tasks), valid), nil
	}
}
