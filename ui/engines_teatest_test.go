package ui

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/teatest"

	"curate/app"
	"curate/pipeline"
	"curate/pipeline/validate"
	"curate/ui/shared"
	"curate/ui/uitest"
)

// engineProgram runs the workbench with engines that answer as report
// says; validations go to a script runner.
// wire, when given, changes the services before the workbench starts.
func engineProgram(t *testing.T, report app.EngineReport, gate chan struct{}, width int, wire ...func(*shared.Services)) (*teatest.TestModel, *uitest.ScriptRunner, *atomic.Int32) {
	t.Helper()
	r := &uitest.ScriptRunner{Lines: uitest.Numbered(3), Every: time.Millisecond, PauseAt: 1, Gate: gate}
	ws := uitest.Workspace(t)
	uitest.CompleteTaskDir(t, ws.Root+"/tasks/fixture-calc")
	c := uitest.Context(t, "dark", ws)
	c.Name, c.Mouse = "teatest", false
	svc := uitest.ScriptServices(r, ws)
	var checks atomic.Int32
	svc.CheckEngines = func(context.Context) app.EngineReport { checks.Add(1); return report }
	for _, w := range wire {
		w(svc)
	}
	a := New(Options{Context: c, Services: svc})
	a.statusTTL = 200 * time.Millisecond // the same line shows again on each check
	tm := teatest.NewTestModel(t, a, teatest.WithInitialTermSize(width, 45))
	t.Cleanup(func() { tm.Quit() })
	waitFor(t, tm.Output(), "26/26")
	return tm, r, &checks
}

var errNoSocket = errors.New("dial unix /run/nope.sock: connect: no such file or directory")

// With the engine down, the Runs screen says so when it loads and when a
// validation is started, and starts none.
func TestProgramEngineDownSaysSoAndStartsNothing(t *testing.T) {
	tm, r, checks := engineProgram(t, app.EngineReport{{Host: "unix:///run/nope.sock", Name: "unix:///run/nope.sock", Err: errNoSocket}}, nil, 200)
	want := "Docker at unix:///run/nope.sock does not answer: start it or set [docker] hosts"
	send(tm, "f4")
	waitFor(t, tm.Output(), want)
	waitFor(t, tm.Output(), "docker ✗")
	time.Sleep(400 * time.Millisecond) // the line expires
	send(tm, "v")
	waitFor(t, tm.Output(), "Start a validation")
	send(tm, "enter")
	waitFor(t, tm.Output(), want)
	// The jobs list checks too when it opens.
	time.Sleep(400 * time.Millisecond)
	send(tm, "esc", "J")
	waitFor(t, tm.Output(), want)
	finish(t, tm)
	if n := r.Execs.Load(); n != 0 {
		t.Fatalf("%d runs started with the engine down", n)
	}
	if n := checks.Load(); n < 3 {
		t.Fatalf("%d engine checks, want one per load, start and jobs list", n)
	}
}

// With one of two engines down, the validation runs and the status bar
// names the one down.
func TestProgramOneEngineDownNamesIt(t *testing.T) {
	gate := make(chan struct{}) // the run waits until the line was seen
	tm, r, _ := engineProgram(t, app.EngineReport{
		{Host: "unix:///var/run/docker.sock", Name: "unix:///var/run/docker.sock"},
		{Host: "tcp://ci-2:2376", Name: "tcp://ci-2:2376", Err: errNoSocket},
	}, gate, 200)
	send(tm, "/")
	tm.Type("fixture")
	send(tm, "enter", "f4")
	time.Sleep(400 * time.Millisecond) // the load's line expires
	send(tm, "v")
	waitFor(t, tm.Output(), "Start a validation")
	send(tm, "down", "right", "enter") // nop only
	waitFor(t, tm.Output(), "tcp://ci-2:2376 does not answer (1 of 2 engines): validation runs on the others")
	close(gate)
	waitFor(t, tm.Output(), "validation done: 1 ok, 0 not ok")
	finish(t, tm)
	if n := r.Execs.Load(); n != 1 {
		t.Fatalf("%d runs, want 1", n)
	}
}

// R on the Repos screen asks the engines before it rebuilds, as a
// validation does: with none answering, an 80-column status bar says so
// with what to do whole (the socket cut in the middle), and nothing is
// rebuilt or run; with one answering, the rebuild starts.
func TestProgramRepoRebuildChecksEngines(t *testing.T) {
	const sock = "unix:///var/run/docker.sock"
	for _, c := range []struct {
		name   string
		report app.EngineReport
		builds int32
	}{
		{"down", app.EngineReport{{Host: sock, Name: sock, Err: errNoSocket}}, 0},
		{"up", app.EngineReport{{Host: sock, Name: sock}}, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			var builds atomic.Int32
			tm, r, checks := engineProgram(t, c.report, nil, 80, func(svc *shared.Services) {
				svc.RebuildRepoTargets = func(ctx context.Context, repo string) (*app.RebuildResult, []*pipeline.Task, error) {
					builds.Add(1)
					return &app.RebuildResult{Repo: repo, Built: 1}, nil, nil
				}
			})
			send(tm, "f7")
			waitFor(t, tm.Output(), "acme/calc")
			before := checks.Load()
			send(tm, "R")
			if c.builds == 0 {
				// The whole advice on the bar: "docker ✗  unix:///va…ocker.sock does not answer: …".
				waitFor(t, tm.Output(), "docker ✗  unix:///va…ocker.sock does not answer: start it or set [docker] hosts")
			} else {
				waitFor(t, tm.Output(), "rebuilt acme/calc: 1 task(s)")
			}
			fm := finish(t, tm)
			if n := builds.Load(); n != c.builds {
				t.Errorf("%d rebuilds, want %d", n, c.builds)
			}
			if n := checks.Load() - before; n < 1 {
				t.Errorf("%d engine checks on R, want 1", n)
			}
			if n := r.Execs.Load(); n != 0 {
				t.Errorf("%d runs started", n)
			}
			if fm.ctx.Long.Len() != 0 {
				t.Errorf("%d long jobs left", fm.ctx.Long.Len())
			}
		})
	}
}

// The jobs list's R (app.RebuildRepoJob) asks the engines too: with none
// answering it starts no job; with one answering the job runs.
func TestProgramJobsRebuildChecksEngines(t *testing.T) {
	const sock = "unix:///var/run/docker.sock"
	for _, c := range []struct {
		name   string
		report app.EngineReport
		jobs   int32
	}{
		{"down", app.EngineReport{{Host: sock, Name: sock, Err: errNoSocket}}, 0},
		{"up", app.EngineReport{{Host: sock, Name: sock}}, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			var jobs atomic.Int32
			tm, _, checks := engineProgram(t, c.report, nil, 200, func(svc *shared.Services) {
				svc.RebuildRepo = func(ctx context.Context, repo string, progress app.ProgressFunc) (string, error) {
					jobs.Add(1)
					return "rebuilt " + repo + " by the job", nil
				}
			})
			send(tm, "/")
			tm.Type("fixture")
			send(tm, "enter", "J")
			waitFor(t, tm.Output(), "no jobs yet")
			time.Sleep(400 * time.Millisecond) // the line of the list's own check expires
			before := checks.Load()
			send(tm, "R")
			waitFor(t, tm.Output(), "acme/calc")
			send(tm, "enter")
			if c.jobs == 0 {
				waitFor(t, tm.Output(), "Docker at "+sock+" does not answer: start it or set [docker] hosts")
			} else {
				waitFor(t, tm.Output(), "rebuilt acme/calc by the job")
			}
			fm := finish(t, tm)
			if n := jobs.Load(); n != c.jobs {
				t.Errorf("%d rebuild jobs ran, want %d", n, c.jobs)
			}
			if n := checks.Load() - before; n < 1 {
				t.Errorf("%d engine checks on R, want 1", n)
			}
			if c.jobs == 0 && len(fm.ctx.Long.All()) != 0 {
				t.Errorf("a job is listed: %d", len(fm.ctx.Long.All()))
			}
		})
	}
}

// A validation that fails at once leaves its error on the status bar, not
// the start line.
func TestProgramValidationErrorStaysOnStatusBar(t *testing.T) {
	ws := uitest.Workspace(t)
	uitest.CompleteTaskDir(t, ws.Root+"/tasks/fixture-calc")
	c := uitest.Context(t, "dark", ws)
	c.Name, c.Mouse = "teatest", false
	svc := uitest.ScriptServices(&uitest.ScriptRunner{}, ws)
	svc.Validate = func(context.Context, []validate.Job, app.ValidateOptions) ([]*pipeline.Run, error) {
		return nil, errors.New("record results: disk full")
	}
	a := New(Options{Context: c, Services: svc})
	tm := teatest.NewTestModel(t, a, teatest.WithInitialTermSize(200, 45))
	t.Cleanup(func() { tm.Quit() })
	waitFor(t, tm.Output(), "26/26 tasks")
	send(tm, "/")
	tm.Type("fixture")
	send(tm, "enter", "f4", "v")
	waitFor(t, tm.Output(), "Start a validation")
	send(tm, "enter")
	waitFor(t, tm.Output(), "validate: record results: disk full")
	time.Sleep(300 * time.Millisecond)
	if fm := finish(t, tm); fm.status != "" && fm.status != "validate: record results: disk full" {
		t.Fatalf("status bar: %q", fm.status)
	}
}
