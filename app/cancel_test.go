package app

import (
	"context"
	"os"
	"testing"
	"time"

	"curate/pipeline"
)

// A run whose process is gone is cancelled by whoever asks, and its marker
// does not linger; a finished run cannot be cancelled.
func TestCancelRunOfAStoppedProcess(t *testing.T) {
	ctx := context.Background()
	ws := openTestWorkspace(t)
	run := &pipeline.Run{ID: "r-orphan", TaskID: "x", Mode: "nop", Outcome: pipeline.OutcomeRunning, PID: 0x7ffffff0, StartedAt: time.Now()}
	if err := ws.Store.SaveRun(ctx, run); err != nil {
		t.Fatal(err)
	}
	c, err := CancelRun(ctx, ws, "r-orphan", time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if !c.Orphan || c.Pending || c.Run.Outcome != pipeline.OutcomeCancelled {
		t.Fatalf("cancel: %+v", c)
	}
	if _, err := os.Stat(CancelPath(ws, "r-orphan")); !os.IsNotExist(err) {
		t.Fatalf("cancel marker left behind: %v", err)
	}
	if stored, _ := ws.Store.Run(ctx, "r-orphan"); stored.Outcome != pipeline.OutcomeCancelled {
		t.Fatalf("stored outcome %s", stored.Outcome)
	}
	if _, err := CancelRun(ctx, ws, "r-orphan", time.Second); err == nil {
		t.Fatal("cancelled a finished run")
	}
}
