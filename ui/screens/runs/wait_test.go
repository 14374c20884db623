package runs

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"curate/pipeline"
	"curate/ui/uitest"
)

// A run the cluster cannot take yet shows "waiting" with why in the runs
// list and "1 waiting for the cluster" on its batch's job (jobs list and
// status bar); once it runs, or ends, both go back.
func TestWaitingForTheCluster(t *testing.T) {
	a, _ := runsApp(t, &uitest.ScriptRunner{})
	s := a.Screen.(*Model)
	b := &runBatch{id: 7, events: make(chan tea.Msg, 4)}
	b.job = s.ctx.Long.Add("validate", 2, func() {})
	s.batches[b.id] = b
	e := &runEntry{key: "7/t/nop", batch: 7, state: runRunning, run: pipeline.Run{ID: "r-wait", TaskID: "fixture-calc", Mode: "nop", Outcome: pipeline.OutcomeRunning}}
	s.entries = append([]*runEntry{e}, s.entries...)

	s.waiting(runWaitMsg{batch: 7, id: "r-wait", why: "FailedCreate: exceeded quota: one-pod"})
	if v := uitest.Plain(s.listView()); !strings.Contains(v, "waiting") || !strings.Contains(v, "waiting for the cluster: FailedCreate: exceeded quota") {
		t.Errorf("runs list:\n%s", v)
	}
	if b.job.Waiting != "1 waiting for the cluster" || !strings.Contains(b.job.Brief(false), "1 waiting for the cluster") {
		t.Errorf("job: %q / %q", b.job.Waiting, b.job.Brief(false))
	}
	s.waiting(runWaitMsg{batch: 7, id: "r-wait"}) // the pod runs
	if stateText(e) != "running" || b.job.Waiting != "" {
		t.Errorf("after the wait: state %q, job %q", stateText(e), b.job.Waiting)
	}
	s.waiting(runWaitMsg{batch: 7, id: "r-wait", why: "Unschedulable: 0/1 nodes are available"})
	e.run.Outcome = pipeline.OutcomeOK
	s.done(runDoneMsg{batch: 7, run: e.run}) // ended while waiting (cancelled, timed out)
	if e.waiting != "" || b.job.Waiting != "" || strings.Contains(uitest.Plain(s.listView()), "waiting for the cluster") {
		t.Errorf("a finished run still waits: %q, job %q", e.waiting, b.job.Waiting)
	}
}
