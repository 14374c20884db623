package ui

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"curate/pipeline"
	"curate/ui/uitest"
	"curate/workspace"
)

// quitApp starts a validation of fixture-calc whose runner waits at gate,
// and leaves it in flight.
func quitApp(t *testing.T, gate chan struct{}, theme string, w int) (*App, *workspace.Workspace) {
	t.Helper()
	ws := uitest.Workspace(t)
	uitest.CompleteTaskDir(t, filepath.Join(ws.Root, "tasks", "fixture-calc"))
	c := uitest.Context(t, theme, ws)
	r := &uitest.ScriptRunner{Lines: uitest.Numbered(10), PauseAt: 5, Gate: gate}
	a := New(Options{Context: c, Services: uitest.ScriptServices(r, ws)})
	a.statusTTL, a.jobsTick = 0, 0
	run(t, a, a.Init())
	run(t, a, func() tea.Msg { return tea.WindowSizeMsg{Width: w, Height: 30} })
	press(t, a, "/")
	typeText(t, a, "fixture")
	press(t, a, "enter", "f4", "v", "down", "right") // nop only
	a.Update(keyMsg("enter"))                        // start; its messages are left unread
	if a.ctx.Long.Runs() != 1 {
		t.Fatalf("no validation in flight: %q", a.ctx.Long.Text(false))
	}
	// Wait until the run has started (it then waits at the gate).
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if got := outcomes(t, ws); len(got) == 1 && got[0] == pipeline.OutcomeRunning {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the run did not start: %v", outcomes(t, ws))
		}
	}
	return a, ws
}

func quits(cmd tea.Cmd) bool {
	if cmd == nil {
		return false
	}
	_, ok := cmd().(tea.QuitMsg)
	return ok
}

func outcomes(t *testing.T, ws *workspace.Workspace) []pipeline.Outcome {
	t.Helper()
	runs, err := ws.Store.Runs(context.Background(), "fixture-calc")
	if err != nil {
		t.Fatal(err)
	}
	var out []pipeline.Outcome
	for _, r := range runs {
		if r.ID != "r1" { // the stored fixture run
			out = append(out, r.Outcome)
		}
	}
	return out
}

func TestQuitWithRunsInFlightAsks(t *testing.T) {
	gate := make(chan struct{})
	a, ws := quitApp(t, gate, "dark", 80)
	for _, key := range []string{"q", "ctrl+c"} {
		_, cmd := a.Update(keyMsg(key))
		if quits(cmd) {
			t.Fatalf("%s quit with a validation in flight", key)
		}
		// The running validation is named: its kind, task and progress.
		if v := plain(a.View()); !strings.Contains(v, "Quit with 1 validation batch(es) in flight?") || !strings.Contains(v, "keep them: the workbench closes") ||
			!strings.Contains(v, "- validate fixture-calc · ") {
			t.Fatalf("%s does not ask:\n%s", key, v)
		}
		// Not answering "cancel" (here: esc) stays and changes nothing.
		if _, cmd := a.Update(keyMsg("esc")); quits(cmd) || a.quitting != quitNotAsked {
			t.Fatal("esc did not stay")
		}
	}
	if a.ctx.Long.Runs() != 1 {
		t.Fatal("staying stopped the validation")
	}
	// k: the workbench closes, the run finishes and is recorded as it ends.
	a.Update(keyMsg("q"))
	if _, cmd := a.Update(keyMsg("k")); !quits(cmd) {
		t.Fatal("k did not quit")
	}
	close(gate)
	a.runs.Finish(io.Discard)
	if got := outcomes(t, ws); len(got) != 1 || got[0] != pipeline.OutcomeOK {
		t.Errorf("kept run recorded as %v, want [ok]", got)
	}
}

func TestQuitCancellingRuns(t *testing.T) {
	gate := make(chan struct{})
	defer close(gate)
	a, ws := quitApp(t, gate, "dark", 80)
	a.Update(keyMsg("q"))
	if _, cmd := a.Update(keyMsg("c")); !quits(cmd) || a.quitting != quitCancelRuns {
		t.Fatal("c did not quit")
	}
	a.runs.Shutdown() // what Run does after the program ends
	if got := outcomes(t, ws); len(got) != 1 || got[0] != pipeline.OutcomeCancelled {
		t.Errorf("cancelled run recorded as %v", got)
	}
}

func TestQuitWithoutRunsIsImmediate(t *testing.T) {
	a, _ := newTestApp(t, "dark", 80, 20)
	if _, cmd := a.Update(keyMsg("q")); !quits(cmd) {
		t.Error("q with nothing in flight did not quit")
	}
}

// TestGoldenQuit pins the question at 80 and 160 columns in two themes.
func TestGoldenQuit(t *testing.T) {
	for _, theme := range []string{"dark", "light"} {
		for _, w := range []int{80, 160} {
			name := fmt.Sprintf("quit-%s-%d", theme, w)
			t.Run(name, func(t *testing.T) {
				gate := make(chan struct{})
				defer close(gate)
				a, _ := quitApp(t, gate, theme, w)
				a.Update(keyMsg("q"))
				checkGolden(t, name, a.View())
				a.Update(keyMsg("c"))
				a.runs.Shutdown()
			})
		}
	}
}
