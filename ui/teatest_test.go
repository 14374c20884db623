package ui

import (
	"bytes"
	"context"
	"io"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/teatest"

	"curate/ui/shared"
	"curate/ui/uitest"
)

// startProgram runs the workbench in a real Bubble Tea program (teatest)
// on a fresh test workspace.
func startProgram(t *testing.T) (*teatest.TestModel, *App) {
	t.Helper()
	ws := uitest.Workspace(t)
	keys, _ := NewKeyMap(nil)
	a := New(Options{Context: &Context{Styles: testStyles(t, "dark"), Keys: keys, Store: ws.Store, Root: ws.Root, Name: "teatest", Actor: "tester", Mouse: true}})
	tm := teatest.NewTestModel(t, a, teatest.WithInitialTermSize(160, 45))
	t.Cleanup(func() { tm.Quit() })
	waitFor(t, tm.Output(), "26/26 tasks")
	return tm, a
}

func waitFor(t *testing.T, out io.Reader, text string) {
	t.Helper()
	teatest.WaitFor(t, out, func(b []byte) bool { return bytes.Contains(b, []byte(text)) },
		teatest.WithDuration(10*time.Second), teatest.WithCheckInterval(20*time.Millisecond))
}

func send(tm *teatest.TestModel, keys ...string) {
	for _, k := range keys {
		tm.Send(keyMsg(k))
	}
}

func finish(t *testing.T, tm *teatest.TestModel) *App {
	t.Helper()
	send(tm, "q")
	tm.WaitFinished(t, teatest.WithFinalTimeout(10*time.Second))
	return tm.FinalModel(t).(*App)
}

func TestProgramCandidates(t *testing.T) {
	tm, _ := startProgram(t)
	send(tm, "/")
	tm.Type("sgt")
	waitFor(t, tm.Output(), "6/26 tasks")
	send(tm, "enter", "o", "O")
	waitFor(t, tm.Output(), "BENCHMARK↓")
	send(tm, " ", " ")
	waitFor(t, tm.Output(), "marked 2")
	a := finish(t, tm)
	if len(a.ctx.Table.Rows) != 6 || len(a.ctx.Table.Marked) != 2 {
		t.Errorf("final: %d rows, %d marked", len(a.ctx.Table.Rows), len(a.ctx.Table.Marked))
	}
}

func TestProgramTaskLabelUndo(t *testing.T) {
	tm, a := startProgram(t)
	send(tm, "/")
	tm.Type("fixture")
	send(tm, "enter", "enter")
	waitFor(t, tm.Output(), "Fix the rounding in")
	send(tm, "4")
	waitFor(t, tm.Output(), "very_hard · u undoes")
	send(tm, "u")
	waitFor(t, tm.Output(), "U redoes")
	finish(t, tm)
	tk, err := a.ctx.Store.Task(context.Background(), "fixture-calc")
	if err != nil || tk.Labels.Difficulty != "" {
		t.Errorf("after label and undo: %+v, %v", tk.Labels, err)
	}
}

func TestProgramDiff(t *testing.T) {
	tm, _ := startProgram(t)
	send(tm, "/")
	tm.Type("fixture")
	send(tm, "enter", "d")
	waitFor(t, tm.Output(), "calc/money.go")
	send(tm, "S")
	waitFor(t, tm.Output(), "side by side")
	send(tm, "t")
	waitFor(t, tm.Output(), "tests/test_calc.py")
	send(tm, "tab")
	waitFor(t, tm.Output(), "(f next class)")
	send(tm, "tab", "tab")
	waitFor(t, tm.Output(), "Formats:")
	a := finish(t, tm)
	if a.active != shared.TabExport {
		t.Errorf("three tabs from Diff: tab %d", a.active)
	}
	_ = tea.Quit
}
