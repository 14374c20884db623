package ui

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"curate/pipeline"
	"curate/workspace"
)

// runsApp opens the workbench with a scripted validation engine, on the
// Runs screen, the fixture task current.
func runsApp(t *testing.T, r *scriptRunner) (*App, *workspace.Workspace) {
	t.Helper()
	ws := newTestWorkspace(t)
	completeTaskDir(t, filepath.Join(ws.Root, "tasks", "fixture-calc"))
	keys, _ := NewKeyMap(nil)
	c := &Context{Styles: testStyles(t, "dark"), Keys: keys, Store: ws.Store, Root: ws.Root, Name: "test-ws", Actor: "tester"}
	a := New(Options{Context: c, Services: scriptServices(r, ws)})
	run(t, a, a.Init())
	run(t, a, func() tea.Msg { return tea.WindowSizeMsg{Width: 160, Height: 40} })
	run(t, a, msgCmd(currentMsg{"fixture-calc"}))
	press(t, a, "tab", "tab", "tab")
	return a, ws
}

// completeTaskDir adds what the fixture lacks to be a Harbor task dir.
func completeTaskDir(t *testing.T, dir string) {
	t.Helper()
	for name, text := range map[string]string{
		"task.toml":              "schema_version = \"1.0\"\n[task]\nname = \"acme/fixture-calc\"\n[verifier]\ntimeout_sec = 60\n",
		"environment/Dockerfile": "FROM curate/base:bookworm\n",
		"solution/solve.sh":      "#!/bin/bash\ncd /app && patch -p1 < /solution/fix.patch\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestRunsValidateCurrentTask(t *testing.T) {
	r := &scriptRunner{lines: numbered(120)}
	a, ws := runsApp(t, r)
	s := a.runs
	if len(s.entries) != 2 { // r1, r2 from the store
		t.Fatalf("stored runs not listed: %d", len(s.entries))
	}
	press(t, a, "v")
	if s.form == nil || s.form.scope != 0 {
		t.Fatalf("form: %+v", s.form)
	}
	if v := plain(a.View()); !strings.Contains(v, "current task (fixture-calc)") || !strings.Contains(v, "nop,oracle") {
		t.Errorf("form view:\n%s", v)
	}
	press(t, a, "enter") // runs synchronously to the end in this harness
	if len(s.entries) != 4 {
		t.Fatalf("%d entries; status %q", len(s.entries), a.status)
	}
	nop, oracle := s.entries[0], s.entries[1]
	if nop.run.Mode != "nop" || nop.state != runFinished || nop.run.Outcome != pipeline.OutcomeOK || *nop.run.Reward != 0 {
		t.Errorf("nop: %+v", nop.run)
	}
	if oracle.run.Mode != "oracle" || oracle.run.Outcome != pipeline.OutcomeOK || *oracle.run.Reward != 1 {
		t.Errorf("oracle: %+v", oracle.run)
	}
	if nop.log == nil || nop.log.total < 120 || nop.log.line(nop.log.total-1) != "curate: outcome ok" {
		t.Fatalf("log pane: %+v", nop.log)
	}
	// The full log is on disk; the store has the runs and the task is valid.
	data, err := os.ReadFile(nop.run.LogPath)
	if err != nil || !strings.Contains(string(data), "test line 0120") {
		t.Errorf("log file: %v", err)
	}
	runs, _ := ws.Store.Runs(context.Background(), "fixture-calc")
	if len(runs) != 3 {
		t.Errorf("store has %d runs of fixture-calc", len(runs))
	}
	if tk, _ := ws.Store.Task(context.Background(), "fixture-calc"); tk.Status != pipeline.StatusValid {
		t.Errorf("status %s after a valid validation", tk.Status)
	}
	if len(a.long.list) != 0 {
		t.Errorf("long jobs left: %+v", a.long.list)
	}
	v := plain(a.View())
	for _, want := range []string{"validation done: 2 ok, 0 not ok", "nop     ok 0", "oracle  ok 1", "following", "curate: outcome ok"} {
		if !strings.Contains(v, want) {
			t.Errorf("view lacks %q:\n%s", want, v)
		}
	}
}

func TestRunsLogKeys(t *testing.T) {
	a, _ := runsApp(t, &scriptRunner{lines: numbered(300)})
	press(t, a, "v", "enter")
	p := a.runs.entries[0].log
	press(t, a, "enter") // focus the log
	if !a.runs.focusLog || !p.follow {
		t.Fatal("log not focused or not following")
	}
	press(t, a, "k")
	if p.follow {
		t.Fatal("scrolling up did not pause")
	}
	if v := plain(a.View()); !strings.Contains(v, "paused at line") {
		t.Errorf("no paused marker:\n%s", v)
	}
	press(t, a, "j")
	if !p.follow {
		t.Error("back at the bottom but not following")
	}
	press(t, a, "E")
	if p.follow || !strings.Contains(strings.Join(p.render(nil), "\n"), "AssertionError") {
		t.Errorf("first error not shown:\n%s", strings.Join(p.render(nil), "\n"))
	}
	press(t, a, "/")
	typeText(t, a, "line 0250")
	press(t, a, "enter")
	if !strings.Contains(strings.Join(p.render(nil), "\n"), "test line 0250") {
		t.Errorf("search did not show the match")
	}
	press(t, a, "G", "w")
	if !p.follow || !p.wrap {
		t.Errorf("G/w: follow %v wrap %v", p.follow, p.wrap)
	}
	press(t, a, "esc")
	if a.runs.focusLog || a.active != tabRuns {
		t.Errorf("esc: focus %v, tab %d", a.runs.focusLog, a.active)
	}
}

func TestRunsFailureReviewAndRerun(t *testing.T) {
	r := &scriptRunner{lines: numbered(5), nopReward: "1"}
	a, _ := runsApp(t, r)
	press(t, a, "v", "down", "right", "enter") // nop only
	if got := a.runs.entries[0].run.Outcome; got != pipeline.OutcomeNopPassed {
		t.Fatalf("outcome %s", got)
	}
	press(t, a, "f") // failures
	v := a.runs.visible()
	if len(v) != 2 { // nop_passed now, oracle_failed from the store
		t.Fatalf("failures: %d", len(v))
	}
	press(t, a, "f") // nop_passed
	if v := a.runs.visible(); len(v) != 1 || v[0].run.Outcome != pipeline.OutcomeNopPassed {
		t.Fatalf("nop_passed class: %+v", v)
	}
	r.nopReward = "0"
	before := r.execs.Load()
	press(t, a, "r")
	if r.execs.Load() != before+1 {
		t.Fatalf("rerun ran %d execs", r.execs.Load()-before)
	}
	if a.runs.filter != 0 || a.runs.entries[0].run.Outcome != pipeline.OutcomeOK || a.runs.entries[0].run.Mode != "nop" {
		t.Errorf("rerun: %+v", a.runs.entries[0].run)
	}
}

func TestRunsEditorOpensTaskFile(t *testing.T) {
	a, _ := runsApp(t, &scriptRunner{lines: numbered(3)})
	press(t, a, "v", "enter")
	t.Setenv("VISUAL", "")
	t.Setenv("EDITOR", "true --wait")
	for _, k := range []string{"e", "t", "s"} {
		cmd := a.runs.Update(keyMsg(k))
		if cmd == nil {
			t.Fatalf("%s: no command", k)
		}
		if m, ok := cmd().(statusMsg); ok {
			t.Errorf("%s: %s", k, m.text)
		}
	}
}

func TestRunsCancelQueued(t *testing.T) {
	gate := make(chan struct{})
	r := &scriptRunner{lines: numbered(10), gate: gate, pauseAt: 5}
	a, _ := runsApp(t, r)
	s := a.runs
	// Start without running the batch's commands: the validation is in
	// flight, its jobs queued.
	cmd := s.startValidation([]string{"fixture-calc"}, runForm{modes: 0, runs: 1, concurrency: 1})
	if len(a.long.list) != 1 || !strings.Contains(a.long.text(), "validate") {
		t.Fatalf("no long job: %q", a.long.text())
	}
	oracle := s.entries[1]
	s.cursor = 1
	press(t, a, "x")
	if s.confirm != oracle {
		t.Fatal("x did not ask")
	}
	if v := plain(a.View()); !strings.Contains(v, "Cancel") || !strings.Contains(v, "y cancels") {
		t.Errorf("no confirmation:\n%s", v)
	}
	press(t, a, "y")
	close(gate)
	run(t, a, cmd)
	if oracle.run.Outcome != pipeline.OutcomeCancelled {
		t.Errorf("cancelled queued run: %s", oracle.run.Outcome)
	}
	if s.entries[0].run.Outcome != pipeline.OutcomeOK {
		t.Errorf("the other run: %s", s.entries[0].run.Outcome)
	}
}

func TestRunsValidateMarkedAndFiltered(t *testing.T) {
	r := &scriptRunner{lines: numbered(3)}
	a, _ := runsApp(t, r)
	press(t, a, "shift+tab", "shift+tab", "shift+tab") // back to Candidates
	a.candidates.marked = map[string]bool{"fixture-calc": true, "sgt-001": true}
	press(t, a, "tab", "tab", "tab", "v")
	if a.runs.form.scope != 1 {
		t.Fatalf("with marked tasks the form starts on them: scope %d", a.runs.form.scope)
	}
	if v := plain(a.View()); !strings.Contains(v, "marked tasks (2)") {
		t.Errorf("form:\n%s", v)
	}
	press(t, a, "down", "right", "right", "enter") // oracle only
	if !strings.Contains(a.status, "validation done: 1 ok") {
		t.Errorf("status %q", a.status)
	}
	if e := a.runs.entries[0]; e.run.TaskID != "fixture-calc" || e.run.Mode != "oracle" {
		t.Errorf("ran %s %s", e.run.TaskID, e.run.Mode)
	}
	// The filtered set: every task the Candidates filter shows; only the
	// fixture has a task dir, the others are skipped and said so.
	press(t, a, "v", "right")
	if a.runs.form.scope != 2 {
		t.Fatalf("scope %d", a.runs.form.scope)
	}
	run(t, a, a.runs.Update(keyMsg("enter")))
	if r.execs.Load() != 2 { // the form keeps the last modes: oracle again, for the fixture alone
		t.Errorf("%d execs", r.execs.Load())
	}
}
