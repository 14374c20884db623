package app

import (
	"context"
	"fmt"
	"io"
	"time"

	"curate/pipeline"
	"curate/pipeline/stats"
	"curate/workspace"
)

// FunnelTiming is the recorded machine time per phase of the tasks
// ComputeFunnel takes (tasks and runs as given it, one repository or all
// for repo ""), per repository and language, and per valid task.
func FunnelTiming(ctx context.Context, ws *workspace.Workspace, tasks []*pipeline.Task, runs []*pipeline.Run, repo string) (*stats.Timing, error) {
	times, err := ws.Store.PhaseTimes(ctx)
	if err != nil {
		return nil, err
	}
	return stats.ComputeTiming(tasks, runs, times, repo), nil
}

// timeSaver stores the machine times of runs (validate's Measured). A
// time it cannot store is said on warn: the run itself is worth more.
func timeSaver(ws *workspace.Workspace, warn io.Writer) func(context.Context, []pipeline.PhaseTime) {
	return func(ctx context.Context, times []pipeline.PhaseTime) {
		if err := ws.Store.SavePhaseTimes(ctx, times); err != nil && warn != nil {
			fmt.Fprintf(warn, "warning: machine time of run %s not recorded: %v\n", times[0].RunID, err)
		}
	}
}

// processTimer measures work curate's own process does (a mine): wall,
// and the CPU of the process and the git processes it waited for.
type processTimer struct {
	start time.Time
	cpu   time.Duration
	ok    bool
}

func startProcessTimer() processTimer {
	cpu, ok := processCPU()
	return processTimer{start: time.Now(), cpu: cpu, ok: ok}
}

// save records the work since start as phase of repo.
func (p processTimer) save(ctx context.Context, ws *workspace.Workspace, phase, repo string) error {
	cpu, ok := processCPU()
	t := pipeline.PhaseTime{Phase: phase, Repo: repo, Wall: time.Since(p.start), CPU: cpu - p.cpu, CPUMeasured: ok && p.ok, At: time.Now()}
	if err := ws.Store.SavePhaseTimes(ctx, []pipeline.PhaseTime{t}); err != nil {
		return fmt.Errorf("record the machine time of %s: %w", repo, err)
	}
	return nil
}
