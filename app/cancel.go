package app

import (
	"context"
	"fmt"
	"os"
	"time"

	"curate/pipeline"
	"curate/workspace"
)

// Cancelled is how a CancelRun ended.
type Cancelled struct {
	Run     *pipeline.Run // the run as recorded now
	Pending bool          // the owning process was asked but has not stopped it yet
	Orphan  bool          // the owning process was gone: cancelled here
	Removed int           // containers removed here
}

// CancelRun stops a run in flight from any process: it leaves the cancel
// marker, then waits up to wait for the owning curate to stop the run; when
// that process is gone it removes the run's containers and records the run
// as cancelled itself.
func CancelRun(ctx context.Context, ws *workspace.Workspace, runID string, wait time.Duration) (*Cancelled, error) {
	r, err := ws.Store.Run(ctx, runID)
	if err != nil {
		return nil, err
	}
	if r.Outcome == pipeline.OutcomeInterrupted {
		// Its process died; opening the workspace (RecoverOnOpen) already
		// stopped it and removed its containers: nothing is left to cancel.
		return &Cancelled{Run: r}, nil
	}
	if r.Outcome.Finished() {
		return nil, fmt.Errorf("run %s already finished: %s", r.ID, r.Outcome)
	}
	if err := RequestCancel(ws, r.ID); err != nil {
		return nil, err
	}
	if ProcessAlive(r.PID) {
		for deadline := time.Now().Add(wait); time.Now().Before(deadline); {
			time.Sleep(200 * time.Millisecond)
			if cur, err := ws.Store.Run(ctx, r.ID); err == nil && cur.Outcome.Finished() {
				return &Cancelled{Run: cur}, nil
			}
		}
		return &Cancelled{Run: r, Pending: true}, nil
	}
	hosts := []string{r.DockerHost}
	if r.DockerHost == "" {
		hosts = DockerHosts(ws, nil)
	}
	removed := 0
	if runners, err := OpenRunners(ctx, ws, hosts, nil); err == nil {
		for _, d := range runners {
			n, _ := d.RemoveRunContainers(ctx, r.ID)
			removed += n
			d.Close()
		}
	}
	r.Outcome = pipeline.OutcomeCancelled
	r.Detail = "cancelled by `curate runs cancel` after its process had stopped"
	r.FinishedAt = time.Now().UTC()
	if err := ws.Store.SaveRun(ctx, r); err != nil {
		return nil, err
	}
	os.Remove(CancelPath(ws, r.ID))
	return &Cancelled{Run: r, Orphan: true, Removed: removed}, nil
}
