package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/pelletier/go-toml/v2"
	"github.com/spf13/cobra"

	"curate/pipeline"
	"curate/pipeline/query"
	"curate/pipeline/sanitize"
	"curate/pipeline/taskdir"
	"curate/pipeline/validate"
	"curate/pipeline/validate/logstream"
	"curate/workspace"
)

func init() { register(newValidateCmd) }

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
}

func newValidateCmd(app *App) *cobra.Command {
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
run is not ok.`,
		Example: `  curate validate --all --mode nop,oracle
  curate validate django__django-1234 --mode gold --runs 4 --follow
  curate validate tasks/my-task --follow
  curate validate --filter 'language=python' --concurrency 4 --docker-host ssh://ci-1 --docker-host ssh://ci-2
  curate validate --all --json | jq '.[] | select(.outcome != "ok")'`,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runValidate(cmd.Context(), app, args, f)
		},
	}
	fl := cmd.Flags()
	fl.BoolVar(&f.all, "all", false, "validate every task that has a task dir")
	fl.StringVarP(&f.filter, "filter", "f", "", "validate the tasks matching a filter expression")
	fl.StringVar(&f.modes, "mode", "nop,oracle", "modes to run: nop, oracle, gold (comma list)")
	fl.IntVar(&f.runs, "runs", 1, "repeat each mode K times; differing results are flaky")
	fl.IntVar(&f.concurrency, "concurrency", 0, "containers at once (default: [docker] concurrency)")
	fl.DurationVar(&f.timeout, "timeout", 0, "per-container time limit (default: task.toml verifier.timeout_sec, else [docker] timeout)")
	fl.BoolVar(&f.follow, "follow", false, "stream every run's log lines as they come")
	fl.BoolVar(&f.asJSON, "json", false, "print the runs as a JSON array")
	fl.StringArrayVar(&f.hosts, "docker-host", nil, "Docker engine to use (repeat to spread runs over several)")
	return cmd
}

func runValidate(ctx context.Context, app *App, args []string, f validateFlags) error {
	modes, err := validate.ParseModes(f.modes)
	if err != nil {
		return err
	}
	if f.runs < 1 {
		return fmt.Errorf("--runs %d: must be at least 1", f.runs)
	}
	if !f.all && f.filter == "" && len(args) == 0 {
		return fmt.Errorf("name tasks to validate: IDs, task folders, --all or --filter EXPR")
	}
	ws, err := app.Workspace(ctx)
	if err != nil {
		return err
	}
	runners, err := openRunners(ctx, ws, dockerHosts(ws, f.hosts), app.Err)
	if err != nil {
		return err
	}
	defer func() {
		for _, r := range runners {
			r.Close()
		}
	}()
	if err := recoverInterrupted(ctx, ws, runners, app.Err); err != nil {
		return err
	}
	tasks, err := selectTasks(ctx, ws, args, f)
	if err != nil {
		return err
	}
	jobs, skips := validate.Jobs(ws.Root, tasks, modes)
	skipped := make([]string, len(skips))
	for i, sk := range skips {
		skipped[i] = sanitize.Line(sk.TaskID + ": " + sk.Reason)
	}
	// One note per skipped task when few, a count when --all meets a
	// catalogue of unbuilt tasks.
	if len(skipped) <= 5 {
		for _, s := range skipped {
			fmt.Fprintf(app.Err, "skip %s\n", s)
		}
	} else {
		fmt.Fprintf(app.Err, "skip %d tasks without a usable task dir, e.g. %s\n", len(skipped), strings.Join(skipped[:3], "; "))
	}
	if len(jobs) == 0 {
		fmt.Fprintln(app.Out, "nothing to validate: no selected task has a task dir")
		return nil
	}

	concurrency := f.concurrency
	if concurrency == 0 {
		concurrency = max(ws.Config.Docker.Concurrency, 1)
	}
	var defaultTimeout time.Duration
	if ws.Config.Docker.Timeout != "" {
		if defaultTimeout, err = time.ParseDuration(ws.Config.Docker.Timeout); err != nil {
			return fmt.Errorf("%s: docker.timeout %q: %w", ws.ConfigPath(), ws.Config.Docker.Timeout, err)
		}
	}
	var out sync.Mutex
	var followers sync.WaitGroup
	var followMu sync.Mutex
	following := map[string]chan struct{}{} // run id -> closed when its log is printed
	v := &validate.Validator{
		Concurrency: concurrency, Runs: f.runs, Timeout: f.timeout, DefaultTimeout: defaultTimeout, LogDir: ws.RunsPath(), PID: os.Getpid(),
		NewID: newRunID,
		Save:  ws.Store.SaveRun,
		CancelRequested: func(id string) bool {
			_, err := os.Stat(cancelPath(ws, id))
			return err == nil
		},
	}
	for _, r := range runners {
		v.Runners = append(v.Runners, r)
	}
	if f.follow && !f.asJSON {
		v.OnStart = func(r *pipeline.Run, b *logstream.Broadcaster) {
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
						fmt.Fprintf(app.Out, "%s... %d lines skipped (terminal too slow; all are in %s)\n", prefix, dropped, r.LogPath)
					}
					for _, l := range lines {
						fmt.Fprintln(app.Out, prefix+l)
					}
					out.Unlock()
				}
			}()
		}
	} else if !f.asJSON {
		fmt.Fprintf(app.Out, "validating %d run(s) of %d task(s) on %d engine(s), %d at a time\n", len(jobs), len(jobs)/len(modes), len(runners), concurrency)
	}
	if !f.asJSON {
		v.OnDone = func(r *pipeline.Run) {
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
			fmt.Fprintln(app.Out, runLine(r))
		}
	}
	runs := v.Validate(ctx, jobs)
	followers.Wait()
	for _, r := range runs {
		os.Remove(cancelPath(ws, r.ID))
	}
	if err := recordResults(context.WithoutCancel(ctx), ws, runs); err != nil {
		fmt.Fprintf(app.Err, "warning: %v\n", err)
	}
	if f.asJSON {
		if err := writeJSON(app.Out, runs); err != nil {
			return err
		}
	}
	bad := 0
	for _, r := range runs {
		if !outcomeOK(r.Outcome) {
			bad++
		}
	}
	if !f.asJSON {
		fmt.Fprintf(app.Out, "%d run(s): %d ok, %d not ok\n", len(runs), len(runs)-bad, bad)
	}
	if bad > 0 {
		return exitError{code: 3}
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
	if r.Mode == validate.ModeGold && (len(r.FailToPass)+len(r.PassToPass)+len(r.Flaky)) > 0 {
		gold = fmt.Sprintf(" f2p=%d p2p=%d flaky=%d", len(r.FailToPass), len(r.PassToPass), len(r.Flaky))
	}
	detail := ""
	if r.Detail != "" && r.Outcome != pipeline.OutcomeOK {
		detail = " - " + r.Detail
	}
	class := ""
	if r.Failure != nil {
		class = " [" + r.Failure.Class + "]"
	}
	return sanitize.Line(fmt.Sprintf("%s  %-7s %-22s %s%s%s%s%s", r.ID, r.Mode, r.TaskID, r.Outcome, class, reward, gold, detail))
}

// selectTasks resolves IDs, task folders, --all and --filter.
func selectTasks(ctx context.Context, ws *workspace.Workspace, args []string, f validateFlags) ([]*pipeline.Task, error) {
	var out []*pipeline.Task
	seen := map[string]bool{}
	add := func(t *pipeline.Task) {
		if !seen[t.ID] {
			seen[t.ID] = true
			out = append(out, t)
		}
	}
	if f.all || f.filter != "" {
		q, err := query.Parse(f.filter)
		if err != nil {
			return nil, err
		}
		all, err := ws.Store.Tasks(ctx)
		if err != nil {
			return nil, err
		}
		for _, t := range all {
			if q.Match(t) {
				add(t)
			}
		}
	}
	for _, a := range args {
		if fi, err := os.Stat(filepath.Join(a, "task.toml")); err == nil && fi.Mode().IsRegular() {
			t, err := taskForDir(ctx, ws, a)
			if err != nil {
				return nil, err
			}
			add(t)
			continue
		}
		id, err := ws.Store.ResolveID(ctx, a)
		if err != nil {
			return nil, err
		}
		t, err := ws.Store.Task(ctx, id)
		if err != nil {
			return nil, err
		}
		add(t)
	}
	return out, nil
}

// taskForDir finds the task whose task dir is dir, or adds one: id from
// task.toml's [task] name (or the folder name), status built.
func taskForDir(ctx context.Context, ws *workspace.Workspace, dir string) (*pipeline.Task, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	all, err := ws.Store.Tasks(ctx)
	if err != nil {
		return nil, err
	}
	for _, t := range all {
		if d, err := resolveTaskDir(ws, t); err == nil && d == abs {
			return ws.Store.Task(ctx, t.ID)
		}
	}
	var doc struct {
		Task struct {
			Name string `toml:"name"`
		} `toml:"task"`
		Metadata struct {
			Language string `toml:"language"`
			Category string `toml:"category"`
		} `toml:"metadata"`
	}
	path := filepath.Join(abs, "task.toml")
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if err := toml.Unmarshal(data, &doc); err != nil {
		return nil, workspace.TOMLError(path, err)
	}
	id := filepath.Base(abs)
	if doc.Task.Name != "" {
		id = strings.ReplaceAll(doc.Task.Name, "/", "__")
	}
	stored := abs
	if rel, err := filepath.Rel(ws.Root, abs); err == nil && !strings.HasPrefix(rel, "..") {
		stored = rel
	}
	digest, _ := taskdir.Digest(abs)
	t := &pipeline.Task{ID: id, Benchmark: "local", Source: "harbor", SourcePath: stored, Language: doc.Metadata.Language,
		Category: doc.Metadata.Category, Status: pipeline.StatusBuilt, TaskDir: stored, Digest: digest}
	if err := ws.Store.UpsertTasks(ctx, []*pipeline.Task{t}); err != nil {
		return nil, err
	}
	return ws.Store.Task(ctx, id)
}

// resolveTaskDir is validate.ResolveTaskDir in ws.
func resolveTaskDir(ws *workspace.Workspace, t *pipeline.Task) (string, error) {
	return validate.ResolveTaskDir(ws.Root, t)
}

// recordResults is validate.RecordResults on ws's store.
func recordResults(ctx context.Context, ws *workspace.Workspace, runs []*pipeline.Run) error {
	return validate.RecordResults(ctx, ws.Store, ws.Root, runs)
}
