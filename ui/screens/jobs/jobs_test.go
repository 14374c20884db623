package jobs

import (
	"context"
	"fmt"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"curate/app"
	"curate/ui/shared"
	"curate/ui/uitest"
)

// TestJobProgressThenCancel: a job's progress reaches the list (counts,
// stage, item); x then y cancels it through its context; it ends
// cancelled with the line its work returned.
func TestJobProgressThenCancel(t *testing.T) {
	progressEvery = 0
	c := uitest.Context(t, "dark", nil)
	s := New(c)
	x := uitest.NewHost(t, c, shared.TabCandidates, s, 160, 30)
	reported := make(chan struct{})
	s.start("import", "/data/tasks", false, func(ctx context.Context, progress app.ProgressFunc) (string, error) {
		progress(app.Progress{Stage: "read", Done: 3, Total: 10, Item: "sgt-003"})
		close(reported)
		<-ctx.Done()
		return "stopped after 3 of 10", ctx.Err()
	})
	<-reported
	j := c.Long.All()[0]
	next := s.runs[j.ID].wait(j.ID)
	m := next()
	if _, ok := m.(progressMsg); !ok {
		t.Fatalf("first message %T, want progress", m)
	}
	next = s.Update(m)
	if j.Done != 3 || j.Total != 10 || j.Stage != "read" || j.Item != "sgt-003" {
		t.Fatalf("job after progress: %+v", j)
	}
	if v := uitest.Plain(s.View()); !strings.Contains(v, "3/10") || !strings.Contains(v, "read · last sgt-003") {
		t.Errorf("list:\n%s", v)
	}
	x.Press(t, "x")
	if s.confirm != j {
		t.Fatal("x did not ask")
	}
	x.Press(t, "y")
	if j.State != shared.JobCancelling {
		t.Fatalf("state %s after y", j.State)
	}
	x.Run(t, next) // the work returns: the job ends
	if j.State != shared.JobCancelled || j.Line != "stopped after 3 of 10" || s.Running() != 0 {
		t.Fatalf("after cancel: %s %q, %d running", j.State, j.Line, s.Running())
	}
	x.Press(t, "x")
	if s.confirm != nil {
		t.Error("x asked to cancel a finished job")
	}
}

// TestJobFailureLine: a job whose work fails ends failed with the error
// in its line, shown in the status bar as an error.
func TestJobFailureLine(t *testing.T) {
	progressEvery = 0
	c := uitest.Context(t, "dark", nil)
	s := New(c)
	x := uitest.NewHost(t, c, shared.TabCandidates, s, 80, 24)
	x.Run(t, s.start("build", "acme__calc-1", false, func(context.Context, app.ProgressFunc) (string, error) {
		return "built 0 of 1 task(s)", context.DeadlineExceeded
	}))
	j := c.Long.All()[0]
	if j.State != shared.JobFailed || j.Line != "built 0 of 1 task(s): context deadline exceeded" {
		t.Fatalf("%s %q", j.State, j.Line)
	}
	if !x.StatusErr || !strings.Contains(x.Status, "build: built 0 of 1") {
		t.Errorf("status %q err %v", x.Status, x.StatusErr)
	}
}

// TestJobFormsNeedInput: each form refuses to start without what it needs.
func TestJobFormsNeedInput(t *testing.T) {
	c := uitest.Context(t, "dark", nil)
	s := New(c)
	x := uitest.NewHost(t, c, shared.TabCandidates, s, 80, 24)
	for _, k := range []string{"i", "m", "b", "R"} {
		x.Press(t, k)
		if s.form == nil {
			t.Fatalf("%s opened no form", k)
		}
		x.Press(t, "enter")
		if !x.StatusErr || len(c.Long.All()) != 0 {
			t.Errorf("%s with nothing typed: status %q, %d jobs", k, x.Status, len(c.Long.All()))
		}
	}
	x.Press(t, "m")
	x.Type(t, "not a repo")
	x.Press(t, "enter")
	if !strings.Contains(x.Status, "want a local clone's folder or OWNER/REPO") {
		t.Errorf("mine of a bad source: %q", x.Status)
	}
}

// A validation batch with runs waiting for the cluster says so under its
// row, before its counts; a wait is not a failure.
func TestJobWaitingForTheCluster(t *testing.T) {
	c := uitest.Context(t, "dark", nil)
	s := New(c)
	uitest.NewHost(t, c, shared.TabCandidates, s, 160, 30)
	j := c.Long.Add("validate", 4, func() {})
	j.Runs, j.What, j.Waiting = true, "2 task(s) · nop,oracle", "1 waiting for the cluster"
	if v := uitest.Plain(s.View()); !strings.Contains(v, "1 waiting for the cluster") || !strings.Contains(v, "running") {
		t.Errorf("list:\n%s", v)
	}
}

// A job over several repositories keeps each one's latest step, from
// progress reported on the job's goroutines, for the Repos screen.
func TestProgressKeepsEachRepositorysStep(t *testing.T) {
	s := New(uitest.Context(t, "dark", nil))
	r := &jobRun{job: s.ctx.Long.Add("campaign", 0, func() {}), notify: make(chan struct{}, 1), done: make(chan finishedMsg, 1)}
	s.runs[r.job.ID] = r
	r.report(app.Progress{Stage: "mine", Done: 1, Item: "acme/calc: 4 PRs mined", Repo: "acme/calc"})
	r.report(app.Progress{Stage: "mine", Done: 2, Item: "acme/mathx: 2 PRs mined", Repo: "acme/mathx"})
	r.report(app.Progress{Stage: "build", Done: 1, Item: "acme/calc: 3 built", Repo: "acme/calc"})
	s.Update(r.wait(r.job.ID)())
	want := map[string]string{"acme/calc": "build: 3 built", "acme/mathx": "mine: 2 PRs mined"}
	if fmt.Sprint(r.job.Repos) != fmt.Sprint(want) || r.job.Item != "acme/calc: 3 built" {
		t.Errorf("repos %v item %q, want %v", r.job.Repos, r.job.Item, want)
	}
}

// catalogLoads runs cmd (a batch or one command) and counts the catalogue
// loads among its messages; r.done must hold a message, so the job's wait
// answers at once.
func catalogLoads(t *testing.T, cmd tea.Cmd) int {
	t.Helper()
	if cmd == nil {
		return 0
	}
	switch m := cmd().(type) {
	case tea.BatchMsg:
		n := 0
		for _, c := range m {
			n += catalogLoads(t, c)
		}
		return n
	case shared.JobDoneMsg:
		if _, ok := m.Inner.(shared.CatalogMsg); ok {
			return 1
		}
	}
	return 0
}

// A job that changes tasks reloads the catalogue when it reports a new
// step or repository, not only when it ends: a campaign's mined PRs
// showed on the Repos screen (with the campaign's step) only after the
// whole campaign, found driving the workbench in tmux.
func TestJobStepReloadsTheCatalogue(t *testing.T) {
	s := New(uitest.Context(t, "dark", uitest.Workspace(t)))
	r := &jobRun{job: s.ctx.Long.Add("campaign", 0, func() {}), notify: make(chan struct{}, 1), done: make(chan finishedMsg, 1), refresh: true}
	s.runs[r.job.ID] = r
	step := func(stage, repo string) int {
		r.done <- finishedMsg{id: -1}
		n := catalogLoads(t, s.Update(progressMsg{id: r.job.ID, p: app.Progress{Stage: stage, Repo: repo}}))
		select {
		case <-r.done:
		default:
		}
		return n
	}
	for i, c := range []struct {
		stage, repo string
		loads       int
	}{{"mine", "acme/calc", 1}, {"mine", "acme/calc", 0}, {"mine", "acme/mathx", 1}, {"env_check", "acme/calc", 1}, {"validate", "", 1}, {"validate", "", 0}} {
		if n := step(c.stage, c.repo); n != c.loads {
			t.Errorf("step %d (%s %s): %d catalogue loads, want %d", i, c.stage, c.repo, n, c.loads)
		}
	}
	r.refresh = false
	if n := step("build", "acme/calc"); n != 0 {
		t.Errorf("a job that changes no task reloaded the catalogue %d times", n)
	}
}
