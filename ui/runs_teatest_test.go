package ui

import (
	"regexp"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/teatest"

	"curate/pipeline"
)

// TestProgramValidationFollowPauseCancel runs the workbench in a real
// Bubble Tea program against a runner printing a scripted log: the pane
// follows, pauses when scrolled up while lines keep coming, follows again
// at the bottom, and the run is cancelled after confirmation.
func TestProgramValidationFollowPauseCancel(t *testing.T) {
	gate := make(chan struct{})
	r := &scriptRunner{lines: numbered(2000), pauseAt: 60, gate: gate, every: 5 * time.Millisecond}
	ws := newTestWorkspace(t)
	completeTaskDir(t, ws.Root+"/tasks/fixture-calc")
	keys, _ := NewKeyMap(nil)
	a := New(Options{Context: &Context{Styles: testStyles(t, "dark"), Keys: keys, Store: ws.Store, Root: ws.Root, Name: "teatest",
		Actor: "tester", CurrentID: "fixture-calc"}, Services: scriptServices(r, ws)})
	tm := teatest.NewTestModel(t, a, teatest.WithInitialTermSize(160, 45))
	t.Cleanup(func() { tm.Quit() })
	waitFor(t, tm.Output(), "26/26 tasks")

	send(tm, "tab", "tab", "tab", "v")
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

	final := finish(t, tm)
	e := final.runs.entries[0]
	if e.run.Outcome != pipeline.OutcomeCancelled || e.run.Mode != "nop" {
		t.Errorf("run: %s %s (%s)", e.run.Mode, e.run.Outcome, e.run.Detail)
	}
	if int(r.execs.Load()) != 1 {
		t.Errorf("%d execs", r.execs.Load())
	}
	if e.log.total >= 2000 {
		t.Errorf("the run was not stopped: %d lines", e.log.total)
	}
}

func waitMatch(t *testing.T, out interface{ Read([]byte) (int, error) }, pattern string) {
	t.Helper()
	re := regexp.MustCompile(pattern)
	teatest.WaitFor(t, out, func(b []byte) bool { return re.MatchString(plain(string(b))) },
		teatest.WithDuration(10*time.Second), teatest.WithCheckInterval(20*time.Millisecond))
}
