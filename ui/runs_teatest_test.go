package ui

import (
	"context"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/teatest"

	"curate/pipeline"
	"curate/ui/uitest"
)

// TestProgramValidationFollowPauseCancel runs the workbench in a real
// Bubble Tea program against a runner printing a scripted log: the pane
// follows, pauses when scrolled up while lines keep coming, follows again
// at the bottom, and the run is cancelled after confirmation.
func TestProgramValidationFollowPauseCancel(t *testing.T) {
	gate := make(chan struct{})
	r := &uitest.ScriptRunner{Lines: uitest.Numbered(2000), PauseAt: 60, Gate: gate, Every: 5 * time.Millisecond}
	ws := uitest.Workspace(t)
	uitest.CompleteTaskDir(t, ws.Root+"/tasks/fixture-calc")
	c := uitest.Context(t, "dark", ws)
	c.Name, c.Mouse = "teatest", false
	a := New(Options{Context: c, Services: uitest.ScriptServices(r, ws)})
	tm := teatest.NewTestModel(t, a, teatest.WithInitialTermSize(160, 45))
	t.Cleanup(func() { tm.Quit() })
	waitFor(t, tm.Output(), "26/26 tasks")

	send(tm, "/")
	tm.Type("fixture")
	send(tm, "enter", "tab", "tab", "tab", "v")
	waitFor(t, tm.Output(), "Start a validation")
	send(tm, "down", "right", "enter") // nop only
	waitFor(t, tm.Output(), "test line 0060")

	send(tm, "enter", "k")
	waitFor(t, tm.Output(), "paused at line")
	close(gate)
	// Lines keep arriving (the count grows) while the view stays paused.
	waitMatch(t, tm.Output(), `· [1-9]\d\d+ lines.{0,40}paused at line`)

	send(tm, "G")
	waitFor(t, tm.Output(), "following")
	waitMatch(t, tm.Output(), `test line 0[1-9]\d\d`)

	send(tm, "x")
	waitFor(t, tm.Output(), "y cancels")
	send(tm, "y")
	waitFor(t, tm.Output(), "validation done: 0 ok, 1 not ok")

	finish(t, tm)
	runs, err := ws.Store.Runs(context.Background(), "fixture-calc")
	if err != nil || len(runs) == 0 {
		t.Fatalf("runs %v, %v", runs, err)
	}
	e := runs[0]
	if e.Outcome != pipeline.OutcomeCancelled || e.Mode != "nop" {
		t.Errorf("run: %s %s (%s)", e.Mode, e.Outcome, e.Detail)
	}
	if int(r.Execs.Load()) != 1 {
		t.Errorf("%d execs", r.Execs.Load())
	}
	if data, err := os.ReadFile(e.LogPath); err != nil || strings.Contains(string(data), "test line 2000") {
		t.Errorf("the run was not stopped (%v): its log has the last line", err)
	}
}

func waitMatch(t *testing.T, out interface{ Read([]byte) (int, error) }, pattern string) {
	t.Helper()
	re := regexp.MustCompile(pattern)
	teatest.WaitFor(t, out, func(b []byte) bool { return re.MatchString(plain(string(b))) },
		teatest.WithDuration(10*time.Second), teatest.WithCheckInterval(20*time.Millisecond))
}
