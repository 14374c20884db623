package app

import (
	"context"
	"fmt"
	"io"
	"os"

	"curate/pipeline"
	"curate/pipeline/validate"
	"curate/pipeline/validate/parse"
	"curate/workspace"
)

// maxNopLog is how much of a NOP run's log is read for messages: the
// tests' output comes after the build's, and a run keeps at most 64 MiB.
const maxNopLog = 64 << 20

// FailureMessages are t's FAIL_TO_PASS tests' first assertion messages,
// read from the log of its newest NOP run that ran the tests (whatever
// its digest: a statement edit does not change what the tests print).
// Before validation (no FAIL_TO_PASS, or no NOP run yet) there are none.
func FailureMessages(ctx context.Context, ws *workspace.Workspace, t *pipeline.Task) (map[string]string, error) {
	f2p := pipeline.ExtraStrings(t, "FAIL_TO_PASS")
	if len(f2p) == 0 {
		return nil, nil
	}
	runs, err := ws.Store.Runs(ctx, t.ID)
	if err != nil {
		return nil, fmt.Errorf("failure messages of %s: %w", t.ID, err)
	}
	for _, r := range runs { // newest first
		if r.Mode != pipeline.ModeNop || r.LogPath == "" || (r.Outcome != pipeline.OutcomeOK && r.Outcome != pipeline.OutcomeNopNotRun) {
			continue
		}
		f, err := os.Open(r.LogPath)
		if err != nil {
			continue // pruned: an older run may still have its log
		}
		log, err := io.ReadAll(io.LimitReader(f, maxNopLog))
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("failure messages of %s: run %s: %w", t.ID, r.ID, err)
		}
		format := ""
		if dir, err := validate.ResolveTaskDir(ws.Root, t); err == nil {
			format = validate.TaskLogFormat(dir)
		}
		return parse.FailureMessages(format, log, f2p), nil
	}
	return nil, nil
}
