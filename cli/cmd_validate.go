package cli

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"

	"curate/app"
	_ "curate/app/kubeengine" // --engine kubernetes
	"curate/pipeline"
	"curate/pipeline/sanitize"
	"curate/pipeline/validate"
	"curate/pipeline/validate/logstream"
)

type validateFlags struct {
	all         bool
	filter      string
	modes       string
	runs        int
	concurrency int
	timeout     time.Duration
	follow      bool
	asJSON      bool
	hosts       []string
	engine      string
	repo        string
	failed      bool
	allowEmpty  bool
}

func newValidateCmd(env *Env) *cobra.Command {
	var f validateFlags
	cmd := &cobra.Command{
		Use:   "validate [ID... | DIR... | --all | --filter EXPR]",
		Short: "Validate tasks in Docker: NOP must score 0, the oracle 1; gold lists FAIL_TO_PASS/PASS_TO_PASS",
		Long: `Validate runs each task's tests in a fresh container built from its
environment/ folder (images are tagged by the folder's digest, so an
unchanged environment is never rebuilt). Modes: nop (tests on the untouched
state, must give reward 0), oracle (solution/solve.sh first, must give 1),
gold (per-test results on the buggy and the fixed state). A DIR argument is a
Harbor task folder; it is added to the workspace when no task points at it.
Tasks without a task dir are skipped with a note. The exit code is 3 when a
run is not ok (curate help outcomes, curate help exit-codes).`,
		Example: `  curate validate --all                # nop,oracle, plus gold for mined tasks
  curate validate django__django-1234 --mode gold --runs 4 --follow
  curate validate tasks/my-task --follow
  curate validate --filter 'language=python' --concurrency 4 --docker-host ssh://ci-1 --docker-host ssh://ci-2
  curate validate --all --json | jq '.[] | select(.outcome != "ok")'
  curate validate --repo acme/calc --failed   # what failed or changed since its runs (nop,oracle,gold)`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if f.failed && !cmd.Flags().Changed("mode") {
				f.modes = "nop,oracle,gold" // a rerun settles the verdict
			}
			return runValidate(cmd.Context(), env, args, f)
		},
	}
	fl := cmd.Flags()
	fl.BoolVar(&f.all, "all", false, "validate every task that has a task dir")
	fl.StringVarP(&f.filter, "filter", "f", "", "validate the tasks matching a filter expression (curate help filters)")
	addAllowEmpty(cmd, &f.allowEmpty)
	fl.StringVar(&f.modes, "mode", "", "modes to run: nop, oracle, gold (comma list; default nop,oracle, plus gold for a mined task, whose verdict needs it)")
	fl.IntVar(&f.runs, "runs", 1, "repeat each mode K times; differing results are flaky")
	fl.IntVar(&f.concurrency, "concurrency", 0, "containers at once on each engine (default: [docker] concurrency)")
	fl.DurationVar(&f.timeout, "timeout", 0, "per-container time limit (default: task.toml verifier.timeout_sec, else [docker] timeout)")
	fl.BoolVar(&f.follow, "follow", false, "stream every run's log lines as they come")
	fl.BoolVar(&f.asJSON, "json", false, "print the runs as a JSON array")
	fl.StringArrayVar(&f.hosts, "docker-host", nil, "Docker engine to use (repeat to spread runs over several)")
	fl.StringVar(&f.engine, "engine", "docker", "where runs go: docker, or kubernetes (curate.toml [kubernetes])")
	fl.StringVar(&f.repo, "repo", "", "validate the built tasks of one repository (OWNER/NAME)")
	fl.BoolVar(&f.failed, "failed", false, "with --repo: only tasks whose last validation failed or whose files changed since (after curate rebuild --repo); modes default to nop,oracle,gold")
	return cmd
}

func runValidate(ctx context.Context, env *Env, args []string, f validateFlags) error {
	var modes []string // none: each task's app.DefaultModes
	if f.modes != "" {
		var err error
		if modes, err = validate.ParseModes(f.modes); err != nil {
			return err
		}
	}
	if f.runs < 1 {
		return fmt.Errorf("--runs %d: must be at least 1", f.runs)
	}
	if f.failed && f.repo == "" {
		return fmt.Errorf("--failed needs --repo OWNER/NAME")
	}
	if !f.all && f.filter == "" && len(args) == 0 && f.repo == "" {
		return fmt.Errorf("name tasks to validate: IDs, task folders, --all, --filter EXPR or --repo OWNER/NAME")
	}
	ws, err := env.Workspace(ctx)
	if err != nil {
		return err
	}
	tasks, err := app.ResolveTasks(ctx, ws, args, f.all, f.filter)
	if err != nil {
		return err
	}
	if f.filter != "" && len(tasks) == 0 && f.repo == "" {
		return emptyMatch(env, f.filter, "nothing to validate", f.allowEmpty)
	}
	if f.repo != "" {
		if tasks, err = addRepoTasks(ctx, env, ws, tasks, f); err != nil || len(tasks) == 0 {
			return err
		}
	}
	jobs, skips := app.ValidationJobs(ws.Root, tasks, modes)
	skipped := make([]string, len(skips))
	for i, sk := range skips {
		skipped[i] = sanitize.Line(sk.TaskID + ": " + sk.Reason)
	}
	// One note per skipped task when few, a count when --all meets a
	// catalogue of unbuilt tasks.
	if len(skipped) <= 5 {
		for _, s := range skipped {
			fmt.Fprintf(env.Err, "skip %s\n", s)
		}
	} else {
		fmt.Fprintf(env.Err, "skip %d tasks without a usable task dir, e.g. %s\n", len(skipped), strings.Join(skipped[:3], "; "))
	}
	// A repository whose environment check failed says so before any run.
	for _, w := range app.EnvCheckWarnings(ws, tasks) {
		fmt.Fprintf(env.Err, "warning: %s\n", sanitize.Line(w))
	}
	opt := app.ValidateOptions{Hosts: f.hosts, Engines: env.engines, Engine: f.engine, Concurrency: f.concurrency, Runs: f.runs, Timeout: f.timeout, Warn: env.Err}
	var out sync.Mutex
	var followers sync.WaitGroup
	var followMu sync.Mutex
	following := map[string]chan struct{}{} // run id -> closed when its log is printed
	if f.follow && !f.asJSON {
		opt.OnStart = func(r *pipeline.Run, b *logstream.Broadcaster) {
			sub := b.Subscribe(0)
			prefix := fmt.Sprintf("[%s %s] ", sanitize.Line(r.TaskID), r.Mode)
			drained := make(chan struct{})
			followMu.Lock()
			following[r.ID] = drained
			followMu.Unlock()
			followers.Add(1)
			go func() {
				defer followers.Done()
				defer close(drained)
				for {
					lines, dropped, ok := sub.Next()
					if !ok {
						return
					}
					out.Lock()
					if dropped > 0 {
						fmt.Fprintf(env.Out, "%s... %d lines skipped (terminal too slow; all are in %s)\n", prefix, dropped, r.LogPath)
					}
					for _, l := range lines {
						fmt.Fprintln(env.Out, prefix+l)
					}
					out.Unlock()
				}
			}()
		}
	} else if !f.asJSON {
		opt.Ready = func(engines, concurrency int) {
			each := ""
			if engines > 1 {
				each = " on each"
			}
			fmt.Fprintf(env.Out, "validating %d run(s) of %d task(s) on %d engine(s), %d at a time%s\n", len(jobs), len(tasks)-len(skips), engines, concurrency, each)
		}
	}
	if !f.follow && !f.asJSON {
		// A run the cluster cannot take yet says so once per reason; it
		// is not a failure (--follow shows the same line in its log).
		opt.OnWait = func(id, why string) {
			if why == "" {
				return
			}
			out.Lock()
			defer out.Unlock()
			fmt.Fprintln(env.Out, sanitize.Line(fmt.Sprintf("%s  waiting for the cluster: %s", id, why)))
		}
	}
	if !f.asJSON {
		opt.OnDone = func(r *pipeline.Run) {
			// Print a run's verdict after its own log lines, without
			// waiting for other runs still streaming.
			followMu.Lock()
			drained := following[r.ID]
			followMu.Unlock()
			if drained != nil {
				<-drained
			}
			out.Lock()
			defer out.Unlock()
			fmt.Fprintln(env.Out, runLine(r))
		}
	}
	if len(jobs) == 0 {
		opt.Ready = nil // still recovers the runs of a stopped curate
	}
	runs, err := app.Validate(ctx, ws, jobs, opt)
	followers.Wait()
	if runs == nil && err != nil {
		return err
	}
	if len(jobs) == 0 {
		if len(args) > 0 {
			// Tasks named one by one that cannot run are an error, not a
			// success with nothing done (the skip lines above say why).
			var ids []string
			for _, sk := range skips {
				ids = append(ids, sk.TaskID)
			}
			return fmt.Errorf("nothing to validate: none of the %d named task(s) has a usable task dir (build them first: curate build %s)", len(args), sanitize.Line(strings.Join(ids[:min(len(ids), 5)], " ")))
		}
		fmt.Fprintln(env.Out, "nothing to validate: no selected task has a task dir")
		return nil
	}
	if err != nil {
		fmt.Fprintf(env.Err, "warning: %v\n", err)
	}
	if f.asJSON {
		if err := writeJSON(env.Out, runs); err != nil {
			return err
		}
	}
	// A task validated again (its known failures left out) counts by its
	// last runs.
	final := map[string]*pipeline.Run{}
	for _, r := range runs {
		if r != nil {
			final[r.TaskID+" "+r.Mode] = r
		}
	}
	bad := 0
	for _, r := range final {
		if r.Outcome != pipeline.OutcomeOK {
			bad++
		}
	}
	if !f.asJSON {
		again := ""
		if n := len(runs) - len(final); n > 0 {
			again = fmt.Sprintf(" (and %d earlier run(s) redone)", n)
		}
		fmt.Fprintf(env.Out, "%d run(s): %d ok, %d not ok%s\n", len(final), len(final)-bad, bad, again)
	}
	if bad > 0 {
		return exitError{code: 3}
	}
	if len(args) > 0 && len(skips) > 0 {
		return fmt.Errorf("%d named task(s) skipped without a usable task dir (see the skip lines above)", len(skips))
	}
	return nil
}

// runLine is the one-line summary of a finished run.
func runLine(r *pipeline.Run) string {
	reward := ""
	if r.Reward != nil {
		reward = fmt.Sprintf(" reward=%g", *r.Reward)
	}
	gold := ""
	if r.Mode == validate.ModeGold && (len(r.FailToPass)+len(r.PassToPass)+len(r.Flaky)+len(r.Unstable)) > 0 {
		gold = fmt.Sprintf(" f2p=%d p2p=%d flaky=%d", len(r.FailToPass), len(r.PassToPass), len(r.Flaky))
		if len(r.Unstable) > 0 {
			gold += fmt.Sprintf(" unstable=%d", len(r.Unstable))
		}
	}
	detail := ""
	switch {
	case r.Outcome == pipeline.OutcomeBuildFailed && r.Failure != nil && r.Failure.Evidence != "":
		// The build error quotes the failing RUN line (hundreds of
		// characters of flags and test names); the evidence is the
		// tool's own error line.
		detail = " - " + r.Failure.Evidence
	case r.Detail != "" && r.Outcome != pipeline.OutcomeOK:
		detail = " - " + r.Detail
	}
	class := ""
	if r.Failure != nil {
		class = " [" + r.Failure.Class + "]"
	}
	return sanitize.Line(fmt.Sprintf("%s  %-7s %-22s %s%s%s%s%s%s", r.ID, r.Mode, r.TaskID, r.Outcome, reward, gold, class, detail, r.RetryNote()))
}
