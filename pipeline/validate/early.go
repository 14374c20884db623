package validate

import (
	"sync"

	"curate/pipeline"
)

// Ordering within a task. A batch that runs a task's NOP, Oracle and gold
// runs its NOP first, then Oracle, then gold (other tasks' runs go on
// meanwhile), for two savings:
//   - Early verdict: a mined task whose NOP finds the PR's tests passing on
//     the buggy state is no_fail_to_pass whatever else runs (no test can
//     turn from failing to passing), so its other modes end as cancelled
//     without a container, saying why. The class differs from a full
//     run's only where Oracle would also have failed: invalid either way.
//   - One execution per state: the NOP run is the buggy state with the
//     tests and the Oracle run the fixed state with them, so gold reads
//     their test logs (stateStash) instead of running both states again;
//     it runs only the fixed state's repeat, when ids need it.

// earlyStopDetail is the detail of a run the early verdict left out.
const earlyStopDetail = "skipped: the NOP run found the PR's tests passing before the fix (no_fail_to_pass), so this mode cannot change the verdict"

// taskKey names one task's files in a batch.
func taskKey(j Job) string { return j.TaskID + "\x00" + j.Digest }

// gate tracks, per task, its runs not yet finished by mode and whether its
// NOP decided it. The queue's mutex guards it.
type gate struct {
	open    map[string]map[string]int
	decided map[string]bool
}

func newGate(jobs []Job) *gate {
	g := &gate{open: map[string]map[string]int{}, decided: map[string]bool{}}
	for _, j := range jobs {
		k := taskKey(j)
		if g.open[k] == nil {
			g.open[k] = map[string]int{}
		}
		g.open[k][j.Mode]++
	}
	return g
}

// ready reports whether a job may start: a mode waits for the task's NOP
// when the NOP may stop it, and gold waits for the runs whose states it
// reads.
func (g *gate) ready(j Job) bool {
	open := g.open[taskKey(j)]
	if j.Mode != ModeNop && j.StopWhenNopPasses && open[ModeNop] > 0 {
		return false
	}
	return j.Mode != ModeGold || !j.ShareStates || open[ModeNop] == 0 && open[ModeOracle] == 0
}

// done records a finished run of j.
func (g *gate) done(j Job, r *pipeline.Run) {
	g.open[taskKey(j)][j.Mode]--
	if j.StopWhenNopPasses && j.Mode == ModeNop && r != nil && r.Outcome == pipeline.OutcomeNopPassed {
		g.decided[taskKey(j)] = true
	}
}

// skips reports whether j is left out because its task is decided.
func (g *gate) skips(j Job) bool { return j.Mode != ModeNop && g.decided[taskKey(j)] }

// stateStash keeps the NOP and Oracle executions of tasks whose gold run
// in the same batch reads them, until it does.
type stateStash struct {
	mu     sync.Mutex
	states map[string]sharedState
}

// sharedState is one state's execution and the run that made it.
type sharedState struct {
	res   *ExecResult
	runID string
}

func stashKey(j Job, fixed bool) string {
	return taskKey(j) + map[bool]string{false: "\x00buggy", true: "\x00fixed"}[fixed]
}

func (s *stateStash) put(j Job, fixed bool, runID string, res *ExecResult) {
	if s == nil || !j.ShareStates {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.states == nil {
		s.states = map[string]sharedState{}
	}
	s.states[stashKey(j, fixed)] = sharedState{res: res, runID: runID}
}

// take hands a state's execution to gold once; ok is false when none was
// kept (the run failed before its tests, or it was not in the batch).
func (s *stateStash) take(j Job, fixed bool) (sharedState, bool) {
	if s == nil || !j.ShareStates {
		return sharedState{}, false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	st, ok := s.states[stashKey(j, fixed)]
	delete(s.states, stashKey(j, fixed))
	return st, ok
}
