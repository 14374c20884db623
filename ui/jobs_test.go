package ui

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"curate/app"
	"curate/internal/fixtures/fakegithub"
	"curate/pipeline"
	"curate/ui/shared"
	"curate/ui/uitest"
	"curate/workspace"
)

// jobsApp is the workbench on a fresh test workspace with svc (the jobs
// list runs the app functions on ws).
func jobsApp(t *testing.T, theme string, w, h int, svc *shared.Services) (*App, *workspace.Workspace) {
	t.Helper()
	ws := uitest.Workspace(t)
	c := uitest.Context(t, theme, ws)
	if svc == nil {
		svc = &shared.Services{}
	}
	svc.Workspace = ws
	a := New(Options{Context: c, Services: svc})
	a.statusTTL, a.jobsTick = 0, 0
	run(t, a, a.Init())
	run(t, a, func() tea.Msg { return tea.WindowSizeMsg{Width: w, Height: h} })
	return a, ws
}

// TestJobImportFromWorkbench: J, i, a path, enter imports it through
// app.ImportPath; the job ends done with a line saying what changed and
// the catalogue holds the new tasks.
func TestJobImportFromWorkbench(t *testing.T) {
	a, ws := jobsApp(t, "dark", 160, 40, nil)
	before := len(a.ctx.Catalog.Tasks)
	press(t, a, "J")
	if !a.jobsOpen || !strings.Contains(plain(a.View()), "no jobs yet") {
		t.Fatalf("J did not open the jobs list:\n%s", plain(a.View()))
	}
	press(t, a, "i")
	if v := plain(a.View()); !strings.Contains(v, "Import a path") {
		t.Fatalf("i did not open the import form:\n%s", v)
	}
	src, err := filepath.Abs(filepath.Join("..", "testdata", "import", "harbor"))
	if err != nil {
		t.Fatal(err)
	}
	typeText(t, a, src)
	press(t, a, "enter") // runs the job to its end (the test loop waits for it)
	jobs := a.ctx.Long.All()
	if len(jobs) != 1 {
		t.Fatalf("%d jobs, want 1", len(jobs))
	}
	j := jobs[0]
	if j.State != shared.JobDone || !regexp.MustCompile(`^imported \d+ new task\(s\) \(harbor\), \d+ updated, \d+ unchanged$`).MatchString(j.Line) {
		t.Fatalf("job %s: %q", j.State, j.Line)
	}
	if j.Done != j.Total || j.Total == 0 {
		t.Errorf("progress %d/%d at the end", j.Done, j.Total)
	}
	stored, err := ws.Store.Tasks(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if len(stored) <= before || len(a.ctx.Catalog.Tasks) != len(stored) {
		t.Errorf("catalogue %d tasks, store %d, before %d: the list did not refresh", len(a.ctx.Catalog.Tasks), len(stored), before)
	}
	v := plain(a.View())
	if !strings.Contains(v, j.Line) || !strings.Contains(v, "done") {
		t.Errorf("the list does not show the finished line:\n%s", v)
	}
	press(t, a, "esc")
	if a.jobsOpen {
		t.Error("esc did not close the list")
	}
}

// TestJobImportBadPath: a path that is not there is refused before a job
// starts, with one message naming it.
func TestJobImportBadPath(t *testing.T) {
	a, _ := jobsApp(t, "dark", 160, 40, nil)
	press(t, a, "J", "i")
	typeText(t, a, "/no/such/dir")
	press(t, a, "enter")
	if a.ctx.Long.Len() != 0 || len(a.ctx.Long.All()) != 0 {
		t.Fatal("a job started on a missing path")
	}
	if !a.statErr || !strings.Contains(a.status, "/no/such/dir") {
		t.Errorf("status %q (err %v)", a.status, a.statErr)
	}
}

// TestJobValidateGoesThroughRuns: J v enter validates the current task (a
// mined one: NOP, Oracle and gold by default) on
// the Runs screen (one way to run, stream and cancel validations), and the
// batch is a job in the list.
func TestJobValidateGoesThroughRuns(t *testing.T) {
	ws := uitest.Workspace(t)
	uitest.CompleteTaskDir(t, filepath.Join(ws.Root, "tasks", "fixture-calc"))
	r := &uitest.ScriptRunner{Lines: uitest.Numbered(5)}
	svc := uitest.ScriptServices(r, ws)
	svc.Workspace = ws
	c := uitest.Context(t, "dark", ws)
	a := New(Options{Context: c, Services: svc})
	a.statusTTL, a.jobsTick = 0, 0
	run(t, a, a.Init())
	run(t, a, func() tea.Msg { return tea.WindowSizeMsg{Width: 160, Height: 40} })
	press(t, a, "/")
	typeText(t, a, "fixture-calc")
	press(t, a, "enter", "J", "v")
	if v := plain(a.View()); !strings.Contains(v, "current task (fixture-calc)") {
		t.Fatalf("validate form:\n%s", v)
	}
	press(t, a, "enter")
	jobs := a.ctx.Long.All()
	if len(jobs) != 1 || jobs[0].Name != "validate" || jobs[0].State != shared.JobDone {
		t.Fatalf("jobs: %+v", jobs)
	}
	if !regexp.MustCompile(`^validated 3 run\(s\): \d ok, \d not ok$`).MatchString(jobs[0].Line) {
		t.Errorf("finished line %q", jobs[0].Line)
	}
}

// TestJobKeyOnTask: on the Task screen ] is next task and J the jobs list,
// as everywhere (one meaning per key on a screen).
func TestJobKeyOnTask(t *testing.T) {
	a, _ := jobsApp(t, "dark", 160, 40, nil)
	press(t, a, "enter") // open the first task
	id := a.ctx.CurrentID
	press(t, a, "]")
	if a.jobsOpen || a.ctx.CurrentID == id {
		t.Fatalf("] on the Task screen: jobs open %v, task %s → %s", a.jobsOpen, id, a.ctx.CurrentID)
	}
	press(t, a, "J")
	if !a.jobsOpen {
		t.Fatal("J did not open the jobs list on the Task screen")
	}
}

// TestQuitAsksWithJobs: q with a job in flight asks; c quits and the
// job is cancelled and waited for.
func TestQuitAsksWithJobs(t *testing.T) {
	a, _ := jobsApp(t, "dark", 80, 24, nil)
	a.jobs.Update(shared.StartJobMsg{Kind: "rebuild", Arg: "acme/calc"}) // no RebuildRepo: refused
	if a.jobs.Running() != 0 {
		t.Fatal("a rebuild started without the repos operation")
	}
	a.ctx.Services.RebuildRepo = func(ctx context.Context, repo string, progress app.ProgressFunc) (string, error) {
		progress(app.Progress{Stage: "build", Done: 1, Total: 3, Item: repo})
		<-ctx.Done()
		return "rebuilt 1 of 3", ctx.Err()
	}
	a.Update(shared.StartJobMsg{Kind: "rebuild", Arg: "acme/calc"}) // its commands wait for the job: not run
	if a.jobs.Running() != 1 || !a.jobsOpen {
		t.Fatalf("rebuild not started (%d running, open %v)", a.jobs.Running(), a.jobsOpen)
	}
	press(t, a, "esc", "q")
	if a.quitting != quitAsking || !strings.Contains(plain(a.View()), "Quit with 1 job(s)") {
		t.Fatalf("q did not ask:\n%s", plain(a.View()))
	}
	if _, cmd := a.Update(keyMsg("c")); cmd == nil || a.quitting != quitCancelRuns {
		t.Fatal("c did not quit")
	}
	a.jobs.Shutdown() // returns once the job has stopped
}

// fakeClock is a clock the test moves.
type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time { return c.t }

// seedJobs puts one job of each state in the list at fixed times: a
// running import with progress, a finished mine, a failed build, a
// cancelled validation.
func seedJobs(a *App) {
	clk := &fakeClock{time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)}
	l := &a.ctx.Long
	l.Now = clk.now
	mine := l.Add("mine", 0, nil)
	mine.What = "spf13/cobra"
	for i := 1; i <= 15; i++ {
		clk.t = clk.t.Add(200 * time.Millisecond)
		mine.Progress("mine", i, 0, fmt.Sprintf("spf13/cobra#%d", 2000+i))
	}
	l.Finish(mine, "mined 13 candidate(s) from spf13/cobra, 2 rejected, 0 skipped (mined before)", nil)
	build := l.Add("build", 0, nil)
	build.What = "12 marked tasks"
	clk.t = clk.t.Add(3 * time.Second)
	build.Progress("build", 1, 12, "acme__calc-1")
	l.Finish(build, "built 0 of 1 task(s), 0 rejected, 1 error(s)", errors.New("store: database is locked"))
	val := l.Add("validate", 4, func() {})
	val.What = "4 task(s) · nop,oracle"
	val.Runs = true
	clk.t = clk.t.Add(10 * time.Second)
	val.Step()
	val.Cancel()
	l.Finish(val, "validated 1 run(s): 1 ok, 0 not ok", nil)
	imp := l.Add("import", 0, func() {})
	imp.What = "/home/curator/bench/ccb/tasks/with/a/rather/long/path"
	clk.t = clk.t.Add(2 * time.Second)
	imp.Progress("read", 1200, 5000, "ccb_pytorch/sgt-1200")
	clk.t = clk.t.Add(2 * time.Second)
	imp.Progress("read", 2400, 5000, "ccb_pytorch/sgt-2400")
	a.ctx.Catalog.Latest = map[string]*pipeline.Run{}
}

// TestGoldenJobs pins the jobs list, its mine form and the status bar
// with a job in flight, at 80 and 160 columns in both themes.
func TestGoldenJobs(t *testing.T) {
	for _, theme := range []string{"dark", "light"} {
		for _, w := range []int{80, 160} {
			for _, sc := range []struct {
				name string
				keys []string
			}{
				{"jobs", []string{"J"}},
				{"jobs-mine-form", []string{"J", "m"}},
				{"jobs-status", nil},
			} {
				name := fmt.Sprintf("%s-%s-%d", sc.name, theme, w)
				t.Run(name, func(t *testing.T) {
					a, _ := newTestApp(t, theme, w, 24)
					seedJobs(a)
					press(t, a, sc.keys...)
					checkGolden(t, name, a.View())
				})
			}
		}
	}
}

// TestPaletteStartsJobForm: a Jobs action run from the palette opens the
// jobs list with its form.
func TestPaletteStartsJobForm(t *testing.T) {
	a, _ := jobsApp(t, "dark", 160, 40, nil)
	press(t, a, ":")
	typeText(t, a, "job_mine")
	press(t, a, "enter")
	if v := plain(a.View()); !a.jobsOpen || !strings.Contains(v, "Mine merged PRs") {
		t.Fatalf("palette job_mine:\n%s", v)
	}
}

// TestJobMineGitHub: J m with OWNER/REPO and an API URL mines through
// app.MineGitHub (here the fake GitHub server) and says what it mined.
func TestJobMineGitHub(t *testing.T) {
	f := fakegithub.New(t)
	t.Setenv("GITHUB_TOKEN", "")
	t.Setenv("PATH", "/usr/bin:/bin") // no gh: unauthenticated
	a, ws := jobsApp(t, "dark", 160, 40, nil)
	press(t, a, "J", "m")
	typeText(t, a, "acme/calc")
	press(t, a, "tab", "tab")
	typeText(t, a, f.URL)
	press(t, a, "enter")
	j := a.ctx.Long.All()[0]
	if j.State != shared.JobDone || j.Line != "mined 2 candidate(s) from acme/calc, 0 rejected, 0 skipped (mined before)" {
		t.Fatalf("%s %q", j.State, j.Line)
	}
	if _, err := ws.Store.Task(t.Context(), "acme__calc-1"); err != nil || a.ctx.Catalog.Task("acme__calc-1") == nil {
		t.Errorf("acme__calc-1 not stored (%v) or not in the list", err)
	}
}

// TestJobRebuildFormCleansRepo: the rebuild form starts on the current
// task's repo without the control sequences a crafted repo name carries.
func TestJobRebuildFormCleansRepo(t *testing.T) {
	a, _ := jobsApp(t, "dark", 160, 40, nil)
	press(t, a, "/")
	typeText(t, a, "evil-001")
	press(t, a, "enter", "J", "R")
	if v := a.View(); strings.Contains(v, "\x1b[31mrepo") || !strings.Contains(plain(v), "Repository   mallory/repo") {
		t.Fatalf("rebuild form:\n%q", plain(v))
	}
}

// TestJobsListClosesOnTabKeys: a tab key closes the list and shows the tab.
func TestJobsListClosesOnTabKeys(t *testing.T) {
	a, _ := jobsApp(t, "dark", 160, 40, nil)
	press(t, a, "J", "f4")
	if a.jobsOpen || a.active != shared.TabRuns {
		t.Fatalf("after J f4: open %v, tab %d", a.jobsOpen, a.active)
	}
	press(t, a, "J", "tab")
	if a.jobsOpen || a.active != shared.TabQuotas {
		t.Fatalf("after J tab: open %v, tab %d", a.jobsOpen, a.active)
	}
}
