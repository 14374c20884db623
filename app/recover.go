package app

import (
	"context"
	"fmt"
	"io"
	"maps"
	"time"

	"curate/internal/scratch"
	"curate/pipeline"
	"curate/pipeline/export"
	"curate/pipeline/validate"
	"curate/workspace"
)

// ScratchKinds are the scratch folders curate makes under .curate/tmp,
// with what finishes each kind's work after a kill (nil: nothing to
// finish, the folder just goes).
var ScratchKinds = map[string]scratch.Recoverer{
	"export":   export.Recover,
	"build":    nil,
	"mirror":   nil,
	"apply":    nil,
	"envcheck": nil, // RecoverOnOpen counts these: their engines are swept
}

// RecoverOnOpen runs whenever a command opens the workspace: it replays
// the journal of an import that was killed (dirs and rows agree again,
// leftover staging dirs go), and marks the runs of a curate process that
// died as interrupted and removes their containers — whichever command
// comes next, not only the next validate. Notes go to log.
func RecoverOnOpen(ctx context.Context, ws *workspace.Workspace, log io.Writer) error {
	rep, err := ws.RecoverImports(ctx)
	if err != nil {
		return err
	}
	if rep.RolledBack+rep.Kept > 0 {
		fmt.Fprintf(log, "note: an interrupted import was finished: %d task dir(s) put back as they were, %d kept (their rows were written)\n",
			rep.RolledBack, rep.Kept)
	}
	if rep.Leftovers > 0 {
		fmt.Fprintf(log, "note: removed %d leftover staging folder(s) of an interrupted import from tasks/\n", rep.Leftovers)
	}
	// Scratch folders of a killed curate: a staged export is finished
	// (its files were all written), the rest is removed.
	// An environment check's folder left by a dead curate means its
	// container or Job may be left too: the engines are swept below.
	killedChecks := 0
	kinds := maps.Clone(ScratchKinds)
	kinds["envcheck"] = func(string) error { killedChecks++; return nil }
	n, err := scratch.Sweep(ws.TmpPath(), kinds)
	if err != nil {
		fmt.Fprintf(log, "note: %v; it stays until the cause is fixed\n", err)
	} else if n > 0 {
		fmt.Fprintf(log, "note: removed %d leftover folder(s) of an interrupted curate from %s\n", n, ws.TmpPath())
	}
	if n, err := JudgeUnjudged(ctx, ws); err != nil {
		fmt.Fprintf(log, "note: tasks whose runs are stored could not be judged: %v\n", err)
	} else if n > 0 {
		fmt.Fprintf(log, "note: %d task(s) judged from runs a stopped curate stored\n", n)
	}
	inFlight, err := ws.Store.RunsByOutcome(ctx, pipeline.OutcomePending, pipeline.OutcomeRunning)
	if err != nil {
		return fmt.Errorf("runs in flight: %w", err)
	}
	orphaned := false
	for _, r := range inFlight {
		orphaned = orphaned || !ProcessAlive(r.PID)
	}
	if !orphaned && killedChecks == 0 {
		return nil // the common case: no engine is contacted
	}
	dctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	runners, rerr := OpenRunners(dctx, ws, DockerHosts(ws, nil), nil)
	engines := make([]validate.Runner, len(runners))
	for i, r := range runners {
		engines[i] = r
		defer r.Close()
	}
	if rerr != nil {
		fmt.Fprintf(log, "note: the Docker engine does not answer (%v): containers of interrupted runs stay until `curate env prune`\n", rerr)
	}
	// A workspace with a cluster: the killed curate's Jobs there are found
	// by their labels and deleted too, whichever command comes next.
	if ws.Config.Kube.Registry != "" && EngineRegistered(clusterEngine) {
		opened, err := OpenEngine(dctx, ws, clusterEngine, nil)
		if err != nil {
			fmt.Fprintf(log, "note: the cluster of [kubernetes] does not answer (%v): Jobs of interrupted runs stay until the next validate --engine %s\n", err, clusterEngine)
		} else {
			defer opened.Close()
			engines = append(engines, opened.Runners...)
		}
	}
	return RecoverInterrupted(ctx, ws, engines, log)
}
