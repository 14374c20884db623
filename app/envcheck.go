package app

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"sort"
	"time"

	"curate/pipeline"
	"curate/pipeline/envgen"
	"curate/pipeline/patch"
	"curate/pipeline/stats"
	"curate/pipeline/validate"
	"curate/workspace"
)

// EnvCheckOptions say which repositories to check and where.
type EnvCheckOptions struct {
	Repos []string // "" or none = every repository with mined candidates
	Host  string   // Docker engine; "" = the environment's
	// Engine names a registered engine other than Docker ("kubernetes"):
	// each check is one of its runs there; "" or "docker" = Host.
	Engine string
	At     string // snapshot revision (snapshot:REV) to pin first; "" = the recorded one
	Log    io.Writer
	// Waiting hears that a repository's check waits for the engine's
	// capacity (a cluster's quota or full nodes: why), "" once it runs.
	Waiting func(repo, why string)
	// Concurrency is checks at once; 0: the engine's own budget, as its
	// validation runs have ([kubernetes] parallelism, [docker] concurrency).
	Concurrency int
	// Started hears that a repository's check starts; Checked, of its
	// recorded check as it ends.
	Started func(repo string)
	Checked func(*RepoState)
}

// CheckEnvironments builds each repository's environment image at its
// snapshot and runs the whole test suite in it, recording how many tests
// pass (RepoState.EnvCheck). The image comes from the repo's first mined
// PR that mirrors onto the snapshot: its Dockerfile above the task-layer
// marker is the repository's environment, shared by every mirrored task.
func CheckEnvironments(ctx context.Context, ws *workspace.Workspace, o EnvCheckOptions) ([]*RepoState, error) {
	strategy, rev, err := ParseAt(o.At)
	if err == nil && strategy != pipeline.AtSnapshot && strategy != "" {
		// The check is of the snapshot environment; merge builds have none.
		err = fmt.Errorf("env check --at %s: the check runs at a snapshot; want --at snapshot or snapshot:REV", o.At)
	}
	if err != nil {
		return nil, fmt.Errorf("--at %w", err)
	}
	all, err := ws.Store.Tasks(ctx)
	if err != nil {
		return nil, err
	}
	byRepo := map[string][]*pipeline.Task{}
	for _, t := range all {
		if t.Mined() && t.SourcePath != "" && (len(o.Repos) == 0 || slices.Contains(o.Repos, t.Repo)) {
			byRepo[t.Repo] = append(byRepo[t.Repo], t)
		}
	}
	for _, r := range o.Repos {
		if len(byRepo[r]) == 0 {
			return nil, fmt.Errorf("%s: no mined candidates (mine it first: `curate mine git PATH`)", r)
		}
	}
	repos := make([]string, 0, len(byRepo))
	for r := range byRepo {
		repos = append(repos, r)
	}
	sort.Strings(repos)
	if len(repos) == 0 {
		return nil, nil // nothing mined: no engine to open
	}
	runner, size, closeRunner, err := openEnvChecker(ctx, ws, o.Engine, o.Host, o.Log)
	if err != nil {
		return nil, err
	}
	defer closeRunner()
	n := o.Concurrency
	if n <= 0 {
		n = size
	}
	log := o.Log
	if log != nil && n > 1 {
		log = &lockedWriter{w: log}
	}
	return checkConcurrently(ctx, repos, n, func(ctx context.Context, repo string) (*RepoState, error) {
		if o.Started != nil {
			o.Started(repo)
		}
		// The check's image build and suite run are metered and stored
		// even when the check fails: the machine spent them.
		meter := &validate.Meter{}
		waiting := func(why string) {
			if o.Waiting != nil {
				o.Waiting(repo, why)
			}
		}
		st, err := checkRepo(validate.WithMeter(ctx, meter), ws, runner, repo, rev, byRepo[repo], log, waiting)
		times := meter.Times()
		for i := range times {
			times[i].Repo, times[i].At = repo, time.Now()
		}
		if serr := ws.Store.SavePhaseTimes(context.WithoutCancel(ctx), times); serr != nil && err == nil {
			err = serr
		}
		if err == nil && o.Checked != nil {
			o.Checked(st)
		}
		return st, err
	})
}

// checkRepo runs one repository's check and records it; a check that
// cannot run (no PR mirrors, the image does not build) is recorded as
// failed with its reason, not returned as an error; a cancelled one is
// not recorded.
func checkRepo(ctx context.Context, ws *workspace.Workspace, runner envChecker, repo, rev string, tasks []*pipeline.Task, log io.Writer, waiting func(string)) (*RepoState, error) {
	st, err := repoSnapshot(ctx, ws, repo, tasks[0].SourcePath, rev)
	if err != nil {
		return nil, err
	}
	check := &EnvCheck{Snapshot: st.Snapshot, At: time.Now().UTC()}
	st.EnvCheck = check
	fail := func(format string, args ...any) (*RepoState, error) {
		if ctx.Err() != nil {
			return nil, ctx.Err() // stopped, not failed: the last record stands
		}
		check.Error = fmt.Sprintf(format, args...)
		return st, saveRepoState(ws, st)
	}
	scratch, done, err := patch.ScratchDir(ws.TmpPath(), "envcheck", "", "")
	if err != nil {
		return nil, err
	}
	defer done()
	fc, _, err := MineFilter(ws, MineOptions{Preset: "none"})
	if err != nil {
		return nil, err
	}
	cfg := buildConfig(ctx, ws, fc)
	cfg.Snapshot = st.Snapshot
	var env string
	for _, t := range tasks { // newest first would be nicer; any PR that mirrors gives the same environment
		res, err := envgen.Build(ctx, t, filepath.Join(scratch, "tasks"), cfg)
		if _, rejected := patch.IsRejection(err); rejected {
			continue
		} else if err != nil {
			return nil, err
		}
		env = filepath.Join(res.Dir, "environment")
		break
	}
	if env == "" {
		return fail("no mined PR of %s mirrors onto %s", repo, ShortRev(st.Snapshot))
	}
	if log != nil {
		fmt.Fprintf(log, "env check %s: snapshot %s\n", repo, ShortRev(st.Snapshot))
	}
	// The build's output is kept too: its failure is told by the tool's
	// own error line, not by the builder's quote of a long RUN line.
	var built bytes.Buffer
	img, err := runner.RepoImage(ctx, env, teeTo(log, &built))
	if err != nil {
		var be *validate.BuildError
		if !errors.As(err, &be) {
			return fail("the environment image does not build: %v", err)
		}
		return fail("the environment image does not build: %s", validate.BuildFailureLine(nil, tasks[0].Language, repo, built.Bytes(), "exit status 1 with no output"))
	}
	check.Image = img
	suite := filepath.Join(scratch, "suite")
	only, err := checkScope(ctx, ws, tasks, fc)
	if err != nil {
		return nil, err
	}
	format, files, err := envgen.SuiteDir(ctx, repo, tasks[0].SourcePath, st.Snapshot, suite, only, cfg)
	if err != nil {
		return fail("%v", err)
	}
	check.Scope, check.Files = scopeName(only), len(files)
	tc, err := validate.ReadTaskConfig(filepath.Dir(env))
	if err != nil {
		return nil, err
	}
	budget := ws.Config.EnvCheckBudget(tasks[0].Language)
	check.Budget = budget.String()
	rctx, cancel := context.WithTimeout(ctx, budget)
	defer cancel()
	// The streamed output is kept too: a suite stopped at its budget has
	// written no log file, and what it printed is the partial result.
	streamed := &cappedBuffer{max: validate.MaxTestLog}
	start := time.Now()
	res, err := runner.Exec(rctx, validate.ExecSpec{TaskDir: suite, Image: img, Config: tc, KeepTestLog: true,
		Labels: map[string]string{validate.LabelRun: envCheckRunID(), "curate.envcheck": repo}},
		validate.Output{Stdout: teeTo(log, streamed), Waiting: waiting})
	if res != nil {
		validate.RecordTime(ctx, pipeline.TimeEnvCheck, time.Since(start), res.CPU, res.CPUMeasured)
	}
	if ctx.Err() != nil {
		return nil, ctx.Err() // cancelled: the last record stands
	}
	switch {
	case err != nil && rctx.Err() != nil:
		check.TimedOut = true
		res = &validate.ExecResult{TestLog: streamed.Bytes(), HasTestLog: true, TestExit: -1}
	case err != nil:
		return fail("the suite did not run: %v", err)
	}
	rep := validate.SuiteReport(res, format)
	if check.TimedOut {
		check.LeftOut = leftOut(files, rep, repo)
	}
	var failing []string
	for name, s := range rep.Tests {
		check.Total++
		if s.Pass() {
			check.Passed++
		} else if s.Fail() {
			failing = append(failing, name)
		}
	}
	check.OK = check.Total > 0 && float64(check.Passed) > EnvCheckThreshold*float64(check.Total)
	if check.Total == 0 {
		check.Error = "no test results in the suite's log"
	}
	check.Failed, check.Failing = len(failing), envFailures(format, res.TestLog, failing)
	return st, saveRepoState(ws, st)
}

// EnvCheckWarnings names the repositories of tasks built on a snapshot
// whose environment check failed or never ran: validate prints them
// before any run starts.
func EnvCheckWarnings(ws *workspace.Workspace, tasks []*pipeline.Task) []string {
	seen := map[string]bool{}
	var out []string
	for _, t := range tasks {
		if BuildStrategy(t) != pipeline.AtSnapshot || seen[t.Repo] {
			continue
		}
		seen[t.Repo] = true
		st, err := RepoStateOf(ws, t.Repo)
		switch {
		case err != nil:
			out = append(out, fmt.Sprintf("%s: %v", t.Repo, err))
		case st.EnvCheck == nil:
			out = append(out, fmt.Sprintf("%s: no environment check at the snapshot yet (curate env check %s)", t.Repo, t.Repo))
		case !st.EnvCheck.Mirrors():
			out = append(out, fmt.Sprintf("%s: the environment check failed at %s: %s", t.Repo, ShortRev(st.EnvCheck.Snapshot), st.EnvCheck))
		}
	}
	return out
}

// FunnelEnvChecks fills each repository's env check stage of f from the
// recorded state, for repositories that use the snapshot strategy (built
// there, or checked).
func FunnelEnvChecks(ws *workspace.Workspace, f *stats.Funnel) error {
	for i := range f.Repos {
		st, err := RepoStateOf(ws, f.Repos[i].Repo)
		if err != nil {
			return err
		}
		if st.EnvCheck != nil || f.Repos[i].Snapshot > 0 {
			f.Repos[i].EnvCheck = "at " + ShortRev(st.Snapshot) + ": " + st.EnvCheck.String()
		}
	}
	return nil
}

// teeTo writes to log (when there is one) and to buf.
func teeTo(log io.Writer, buf io.Writer) io.Writer {
	if log == nil {
		return buf
	}
	return io.MultiWriter(log, buf)
}
