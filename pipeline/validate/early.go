package validate

import "curate/pipeline"

// Early verdicts. A mined task whose NOP run finds the PR's tests already
// passing on the buggy state is no_fail_to_pass whatever else runs: no
// test can turn from failing to passing. So the queue runs a task's NOP
// first (its other modes wait while other tasks' runs go on) and, when NOP
// passes, its other modes end as cancelled without a container, saying
// why. The class can differ from a full run's only where Oracle would
// also have failed: that task is invalid either way.

// earlyStopDetail is the detail of a run the early verdict left out.
const earlyStopDetail = "skipped: the NOP run found the PR's tests passing before the fix (no_fail_to_pass), so this mode cannot change the verdict"

// taskKey names one task's files in a batch.
func taskKey(j Job) string { return j.TaskID + "\x00" + j.Digest }

// gate tracks, per task, its NOP runs not yet finished and whether one
// decided the task. The queue's mutex guards it.
type gate struct {
	nopOpen map[string]int
	decided map[string]bool
}

func newGate(jobs []Job) *gate {
	g := &gate{nopOpen: map[string]int{}, decided: map[string]bool{}}
	for _, j := range jobs {
		if j.StopWhenNopPasses && j.Mode == ModeNop {
			g.nopOpen[taskKey(j)]++
		}
	}
	return g
}

// ready reports whether a job may start: a NOP, or a mode whose task's
// NOP runs in this batch have all finished.
func (g *gate) ready(j Job) bool {
	return j.Mode == ModeNop || !j.StopWhenNopPasses || g.nopOpen[taskKey(j)] == 0
}

// done records a finished run of j.
func (g *gate) done(j Job, r *pipeline.Run) {
	if !j.StopWhenNopPasses || j.Mode != ModeNop {
		return
	}
	g.nopOpen[taskKey(j)]--
	if r != nil && r.Outcome == pipeline.OutcomeNopPassed {
		g.decided[taskKey(j)] = true
	}
}

// skips reports whether j is left out because its task is decided.
func (g *gate) skips(j Job) bool { return j.Mode != ModeNop && g.decided[taskKey(j)] }
