package runs

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"curate/pipeline"
	"curate/ui/shared"
	"curate/ui/uitest"
	"curate/workspace"
)

// runsApp opens the workbench with a scripted validation engine, on the
// Runs screen, the fixture task current.
func runsApp(t *testing.T, r *uitest.ScriptRunner) (*uitest.Host, *workspace.Workspace) {
	t.Helper()
	ws := uitest.Workspace(t)
	uitest.CompleteTaskDir(t, filepath.Join(ws.Root, "tasks", "fixture-calc"))
	c := uitest.Context(t, "dark", ws)
	c.Services = uitest.ScriptServices(r, ws)
	a := uitest.NewHost(t, c, shared.TabRuns, New(c), 160, 40)
	a.Current(t, "fixture-calc")
	return a, ws
}

func TestRunsValidateCurrentTask(t *testing.T) {
	r := &uitest.ScriptRunner{Lines: uitest.Numbered(120)}
	a, ws := runsApp(t, r)
	s := a.Screen.(*Model)
	if len(s.entries) != 2 { // r1, r2 from the store
		t.Fatalf("stored runs not listed: %d", len(s.entries))
	}
	s.last.modes = len(runModes) - 1 // nop,oracle: this test is about those two (the default adds gold for a mined task)
	a.Press(t, "v")
	if s.form == nil || s.form.scope != 0 {
		t.Fatalf("form: %+v", s.form)
	}
	if v := uitest.Plain(a.Screen.View()); !strings.Contains(v, "current task (fixture-calc)") || !strings.Contains(v, "nop,oracle") {
		t.Errorf("form view:\n%s", v)
	}
	a.Press(t, "enter") // runs synchronously to the end in this harness
	if len(s.entries) != 4 {
		t.Fatalf("%d entries; status %q", len(s.entries), a.Status)
	}
	nop, oracle := s.entries[0], s.entries[1]
	if nop.run.Mode != "nop" || nop.state != runFinished || nop.run.Outcome != pipeline.OutcomeOK || *nop.run.Reward != 0 {
		t.Errorf("nop: %+v", nop.run)
	}
	if oracle.run.Mode != "oracle" || oracle.run.Outcome != pipeline.OutcomeOK || *oracle.run.Reward != 1 {
		t.Errorf("oracle: %+v", oracle.run)
	}
	if nop.log == nil || nop.log.Total < 120 || nop.log.Line(nop.log.Total-1) != "curate: outcome ok" {
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
	// A mined task needs gold's FAIL_TO_PASS too: NOP and Oracle alone leave it built.
	if tk, _ := ws.Store.Task(context.Background(), "fixture-calc"); tk.Status != pipeline.StatusBuilt || tk.Failure != nil {
		t.Errorf("status %s (%+v) after NOP 0 and Oracle 1 without gold", tk.Status, tk.Failure)
	}
	if a.Ctx.Long.Len() != 0 {
		t.Errorf("long jobs left: %+v", a.Ctx.Long.Len())
	}
	v := uitest.Plain(a.Screen.View())
	if !strings.Contains(a.Status, "validation done: 2 ok, 0 not ok") {
		t.Errorf("status %q", a.Status)
	}
	for _, want := range []string{"nop     ok 0", "oracle  ok 1", "following", "curate: outcome ok"} {
		if !strings.Contains(v, want) {
			t.Errorf("view lacks %q:\n%s", want, v)
		}
	}
}

func TestRunsLogKeys(t *testing.T) {
	a, _ := runsApp(t, &uitest.ScriptRunner{Lines: uitest.Numbered(300)})
	s := a.Screen.(*Model)
	a.Press(t, "v", "enter")
	p := s.entries[0].log
	a.Press(t, "enter") // focus the log
	if !s.focusLog || !p.Follow {
		t.Fatal("log not focused or not following")
	}
	a.Press(t, "k")
	if p.Follow {
		t.Fatal("scrolling up did not pause")
	}
	if v := uitest.Plain(a.Screen.View()); !strings.Contains(v, "paused at line") {
		t.Errorf("no paused marker:\n%s", v)
	}
	a.Press(t, "j")
	if !p.Follow {
		t.Error("back at the bottom but not following")
	}
	a.Press(t, "E")
	if p.Follow || !strings.Contains(strings.Join(p.Render(nil), "\n"), "AssertionError") {
		t.Errorf("first error not shown:\n%s", strings.Join(p.Render(nil), "\n"))
	}
	a.Press(t, "/")
	a.Type(t, "line 0250")
	a.Press(t, "enter")
	if !strings.Contains(strings.Join(p.Render(nil), "\n"), "test line 0250") {
		t.Errorf("search did not show the match")
	}
	a.Press(t, "G", "w")
	if !p.Follow || !p.Wrap {
		t.Errorf("G/w: follow %v wrap %v", p.Follow, p.Wrap)
	}
	if cmd := s.Update(shared.KeyMsg("esc")); s.focusLog || cmd == nil {
		t.Errorf("esc: focus %v; consumed %v (else the App switches tabs)", s.focusLog, cmd != nil)
	}
}

func TestRunsFailureReviewAndRerun(t *testing.T) {
	r := &uitest.ScriptRunner{Lines: uitest.Numbered(5), NopReward: "1"}
	a, _ := runsApp(t, r)
	s := a.Screen.(*Model)
	a.Press(t, "v", "down", "right", "enter") // nop only
	if got := s.entries[0].run.Outcome; got != pipeline.OutcomeNopPassed {
		t.Fatalf("outcome %s", got)
	}
	a.Press(t, "f") // failures
	v := s.visible()
	if len(v) != 2 { // nop_passed now, oracle_failed from the store
		t.Fatalf("failures: %d", len(v))
	}
	a.Press(t, "f") // nop_passed
	if v := s.visible(); len(v) != 1 || v[0].run.Outcome != pipeline.OutcomeNopPassed {
		t.Fatalf("nop_passed class: %+v", v)
	}
	r.NopReward = "0"
	before := r.Execs.Load()
	a.Press(t, "r")
	if r.Execs.Load() != before+1 {
		t.Fatalf("rerun ran %d execs", r.Execs.Load()-before)
	}
	if s.filter != 0 || s.entries[0].run.Outcome != pipeline.OutcomeOK || s.entries[0].run.Mode != "nop" {
		t.Errorf("rerun: %+v", s.entries[0].run)
	}
}

func TestRunsEditorOpensTaskFile(t *testing.T) {
	a, _ := runsApp(t, &uitest.ScriptRunner{Lines: uitest.Numbered(3)})
	s := a.Screen.(*Model)
	a.Press(t, "v", "enter")
	t.Setenv("VISUAL", "")
	t.Setenv("EDITOR", "true --wait")
	for _, k := range []string{"e", "t", "s"} {
		cmd := s.Update(shared.KeyMsg(k))
		if cmd == nil {
			t.Fatalf("%s: no command", k)
		}
		if m, ok := cmd().(shared.StatusMsg); ok {
			t.Errorf("%s: %s", k, m.Text)
		}
	}
}

func TestRunsCancelQueued(t *testing.T) {
	gate := make(chan struct{})
	r := &uitest.ScriptRunner{Lines: uitest.Numbered(10), Gate: gate, PauseAt: 5}
	a, _ := runsApp(t, r)
	s := a.Screen.(*Model)
	// Start without running the batch's commands: the validation is in
	// flight, its jobs queued.
	cmd := s.startValidation([]string{"fixture-calc"}, runForm{modes: 0, runs: 1, concurrency: 1})
	if a.Ctx.Long.Len() != 1 || !strings.Contains(a.Ctx.Long.Text(false), "validate") {
		t.Fatalf("no long job: %q", a.Ctx.Long.Text(false))
	}
	oracle := s.entries[1]
	s.list.Cursor = 1
	a.Press(t, "x")
	if s.confirm != oracle {
		t.Fatal("x did not ask")
	}
	if v := uitest.Plain(a.Screen.View()); !strings.Contains(v, "Cancel") || !strings.Contains(v, "y cancels") {
		t.Errorf("no confirmation:\n%s", v)
	}
	a.Press(t, "y")
	close(gate)
	a.Run(t, cmd)
	if oracle.run.Outcome != pipeline.OutcomeCancelled {
		t.Errorf("cancelled queued run: %s", oracle.run.Outcome)
	}
	if s.entries[0].run.Outcome != pipeline.OutcomeOK {
		t.Errorf("the other run: %s", s.entries[0].run.Outcome)
	}
}

func TestRunsValidateMarkedAndFiltered(t *testing.T) {
	r := &uitest.ScriptRunner{Lines: uitest.Numbered(3)}
	a, _ := runsApp(t, r)
	s := a.Screen.(*Model)
	all := make([]int, len(a.Ctx.Catalog.Tasks))
	for i := range all {
		all[i] = i
	}
	a.Ctx.Table = shared.TableState{Rows: all, Marked: map[string]bool{"fixture-calc": true, "sgt-001": true}} // as Candidates publishes it
	a.Press(t, "v")
	if s.form.scope != 1 {
		t.Fatalf("with marked tasks the form starts on them: scope %d", s.form.scope)
	}
	if v := uitest.Plain(a.Screen.View()); !strings.Contains(v, "marked tasks (2)") {
		t.Errorf("form:\n%s", v)
	}
	a.Press(t, "down", "right", "right", "enter") // oracle only
	if !strings.Contains(a.Status, "validation done: 1 ok") {
		t.Errorf("status %q", a.Status)
	}
	if e := s.entries[0]; e.run.TaskID != "fixture-calc" || e.run.Mode != "oracle" {
		t.Errorf("ran %s %s", e.run.TaskID, e.run.Mode)
	}
	// The filtered set: every task the Candidates filter shows; only the
	// fixture has a task dir, the others are skipped and said so.
	a.Press(t, "v", "right")
	if s.form.scope != 2 {
		t.Fatalf("scope %d", s.form.scope)
	}
	a.Run(t, s.Update(shared.KeyMsg("enter")))
	if r.Execs.Load() != 2 { // the form keeps the last modes: oracle again, for the fixture alone
		t.Errorf("%d execs", r.Execs.Load())
	}
}
