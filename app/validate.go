package app

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"curate/pipeline"
	"curate/pipeline/validate"
	"curate/pipeline/validate/logstream"
	"curate/workspace"
)

// ValidateOptions is one validation batch, from `curate validate` or the
// workbench's Runs screen.
type ValidateOptions struct {
	// Hosts are the engines to use (--docker-host); empty means curate.toml
	// [docker] hosts, else the environment's engine.
	Hosts []string
	// Engines, when set, are engines already open; Hosts is then unused.
	Engines []validate.Runner
	// Engine names a registered engine other than Docker ("kubernetes");
	// "" or "docker" means Docker engines (Hosts).
	Engine string
	// Concurrency is containers at once on each engine; 0 means [docker]
	// concurrency, and when that is 0 too, each engine's own size
	// (validate.Sized: its CPUs and memory).
	Concurrency int
	// Runs repeats each mode; differing results are flaky.
	Runs int
	// Timeout is a per-container limit that wins over task.toml's
	// verifier.timeout_sec and [docker] timeout (--timeout); 0 means the
	// task's own limit, else [docker] timeout.
	Timeout time.Duration
	// Warn receives notes: engines left out, interrupted runs recovered.
	Warn io.Writer

	// Ready is called once the engines answer, before any run starts.
	Ready func(engines, concurrency int)
	// OnStart and OnDone report each run as it starts (with its live log)
	// and ends.
	OnStart func(r *pipeline.Run, log *logstream.Broadcaster)
	OnDone  func(r *pipeline.Run)
	// OnWait reports a run waiting for its engine's capacity (a cluster's
	// quota or full nodes), why it waits, and "" once it runs.
	OnWait func(runID, why string)
	// Cancelled reports cancel requests made in this process (the
	// workbench's cancel key), on top of `curate runs cancel`'s marker.
	Cancelled func(runID string) bool
	// EngineDown reports an engine that stopped answering during the
	// batch; nil prints a warning on Warn.
	EngineDown func(host string, err error)
}

// Validate runs jobs on the workspace's engines: it recovers runs left by a
// stopped curate, runs every job (stopping when ctx is cancelled), records
// the results on the tasks and returns the runs in job order. A task whose
// fix failed only tests that never passed before the fix is rebuilt
// without them deciding the reward and validated again; those runs come
// last (see adoptKnownFailures), as are those whose NOP passed because
// the bug left out a test gold found FAIL_TO_PASS (adoptRequiredTests). An Oracle failure gold's fixed state
// contradicts is classed flaky (reclassifyFlakyOracles) and its Oracle
// runs once more (rerunFlakyOracles).
func Validate(ctx context.Context, ws *workspace.Workspace, jobs []validate.Job, o ValidateOptions) ([]*pipeline.Run, error) {
	defaultTimeout, err := DockerTimeout(ws)
	if err != nil {
		return nil, err
	}
	engines := o.Engines
	concurrency := o.Concurrency
	if engines == nil && o.Engine != "" && o.Engine != "docker" {
		opened, err := OpenEngine(ctx, ws, o.Engine, o.Warn)
		if err != nil {
			return nil, err
		}
		defer opened.Close()
		engines = opened.Runners
		if concurrency <= 0 {
			concurrency = opened.Concurrency
		}
	}
	if engines == nil {
		opened, err := OpenRunners(ctx, ws, DockerHosts(ws, o.Hosts), o.Warn)
		if err != nil {
			return nil, err
		}
		for _, r := range opened {
			engines = append(engines, r)
			defer r.Close()
		}
	}
	if err := RecoverInterrupted(ctx, ws, engines, o.Warn); err != nil {
		return nil, err
	}
	if concurrency <= 0 {
		concurrency = ws.Config.Docker.Concurrency // 0: each engine's own size
	}
	if o.Ready != nil {
		o.Ready(len(engines), ResolvedConcurrency(engines, concurrency))
	}
	v := &validate.Validator{
		Runners: engines, Concurrency: concurrency, Runs: max(o.Runs, 1),
		Timeout: o.Timeout, DefaultTimeout: defaultTimeout,
		LogDir: ws.RunsPath(), PID: os.Getpid(), NewID: validate.NewRunID,
		Save: runSaver(ws), Measured: timeSaver(ws, o.Warn), OnStart: o.OnStart, OnDone: o.OnDone, OnWait: o.OnWait, OnEngineDown: o.EngineDown,
		CancelRequested: func(id string) bool {
			if o.Cancelled != nil && o.Cancelled(id) {
				return true
			}
			_, err := os.Stat(CancelPath(ws, id))
			return err == nil
		},
	}
	if v.OnEngineDown == nil && o.Warn != nil {
		v.OnEngineDown = func(host string, err error) {
			fmt.Fprintf(o.Warn, "warning: engine %s stopped answering (%v): it gets no more runs; its runs in flight are retried once on another engine\n", host, err)
		}
	}
	runs := runJobs(ctx, ws, v, jobs)
	if err := validate.RecordResults(context.WithoutCancel(ctx), ws.Store, ws.Root, runs); err != nil {
		return runs, fmt.Errorf("record results: %w", err)
	}
	if ctx.Err() != nil {
		return runs, nil
	}
	warn := o.Warn
	if warn == nil {
		warn = io.Discard
	}
	flaky, err := reclassifyFlakyOracles(context.WithoutCancel(ctx), ws, runs, warn)
	if err != nil {
		return runs, fmt.Errorf("record results: %w", err)
	}
	again, err := rerunFlakyOracles(ctx, ws, v, flaky, warn)
	runs = append(runs, again...)
	if err != nil {
		return runs, fmt.Errorf("record results: %w", err)
	}
	if ctx.Err() != nil {
		return runs, nil
	}
	// Tasks invalid only because some tests fail after the fix and never
	// passed before it here: leave those out of the reward and validate
	// them again, once.
	known, err := adoptKnownFailures(ctx, ws, runs)
	if err != nil {
		return runs, err
	}
	// Tasks whose NOP passed only because the bug left a FAIL_TO_PASS test
	// out: test.sh must require it, as gold does.
	required, err := adoptRequiredTests(ctx, ws, runs)
	if err != nil {
		return runs, err
	}
	known = append(known, required...)
	if len(known) == 0 {
		return runs, nil
	}
	jobs, err = rebuildWithKnownFailures(ctx, ws, known, warn)
	if err != nil || len(jobs) == 0 {
		return runs, err
	}
	again = runJobs(ctx, ws, v, jobs)
	runs = append(runs, again...)
	if err := validate.RecordResults(context.WithoutCancel(ctx), ws.Store, ws.Root, again); err != nil {
		return runs, fmt.Errorf("record results: %w", err)
	}
	return runs, nil
}

// runJobs runs jobs and clears the cancel markers of their runs.
func runJobs(ctx context.Context, ws *workspace.Workspace, v *validate.Validator, jobs []validate.Job) []*pipeline.Run {
	runs := v.Validate(ctx, jobs)
	for _, r := range runs {
		if r != nil {
			os.Remove(CancelPath(ws, r.ID))
		}
	}
	return runs
}

// DockerTimeout is curate.toml's [docker] timeout: the limit of a task
// whose task.toml names none (0: validate's default).
func DockerTimeout(ws *workspace.Workspace) (time.Duration, error) {
	if ws.Config.Docker.Timeout == "" {
		return 0, nil
	}
	d, err := time.ParseDuration(ws.Config.Docker.Timeout)
	if err != nil {
		return 0, fmt.Errorf("%s: docker.timeout %q: %w", ws.ConfigPath(), ws.Config.Docker.Timeout, err)
	}
	return d, nil
}

// CancelPath is the marker that asks the process owning a run to stop it;
// that process polls for it (see Validate).
func CancelPath(ws *workspace.Workspace, runID string) string {
	return filepath.Join(ws.RunsPath(), runID+".cancel")
}

// RequestCancel leaves the cancel marker of a run, naming who asked.
func RequestCancel(ws *workspace.Workspace, runID string) error {
	if err := os.WriteFile(CancelPath(ws, runID), []byte(workspace.Actor()+"\n"), 0o644); err != nil {
		return fmt.Errorf("cancel %s: %w", runID, err)
	}
	return nil
}
