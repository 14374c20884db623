package pipeline

import "sort"

// Validation modes, as runs record them.
const (
	ModeNop    = "nop"
	ModeOracle = "oracle"
	ModeGold   = "gold"
)

// Mined reports whether the task was mined from a merged PR (not
// imported): its validity needs the PR's tests to fail before the fix.
func (t *Task) Mined() bool { return t.Source == "git" || t.Source == "github" }

// LatestRuns picks each mode's newest finished run made on the given
// digest that says something about the task: cancelled and interrupted
// runs do not, nor do engine failures (infra_error runs whose log showed
// no cause in the task).
func LatestRuns(runs []*Run, digest string) map[string]*Run {
	out := map[string]*Run{}
	for _, r := range runs {
		if !judges(r) || (digest != "" && r.Digest != "" && r.Digest != digest) {
			continue
		}
		if old, ok := out[r.Mode]; !ok || r.StartedAt.After(old.StartedAt) || (r.StartedAt.Equal(old.StartedAt) && r.ID > old.ID) {
			out[r.Mode] = r
		}
	}
	return out
}

func judges(r *Run) bool {
	switch r.Outcome {
	case OutcomePending, OutcomeRunning, OutcomeCancelled, OutcomeInterrupted:
		return false
	case OutcomeInfraError:
		return r.Failure != nil && r.Failure.Class != ClassInfraError
	}
	return true
}

// Verdict is what a task's runs say about it.
type Verdict struct {
	Status  Status   // StatusValid or StatusInvalid when Decided
	Failure *Failure // why it is invalid
	Decided bool     // false: the runs so far do not settle it
}

// Judge decides a task from its runs on its current digest. A task is
// invalid when its latest run of any mode is not ok, named by the worst
// failure class among them. It is valid when every mode that ran is ok
// and, for a mined task, NOP, Oracle and gold all ran (gold ok means at
// least one FAIL_TO_PASS test): NOP 0 with the suite run, Oracle 1, and a
// test the fix turns from failing to passing. A NOP whose suite did not
// run is forgiven only when Oracle and gold show the bug stopped it (see
// crashedByTheBug). Imported tasks follow Harbor: every run that judged
// them ok.
func Judge(t *Task, runs []*Run) Verdict {
	latest := LatestRuns(runs, t.Digest)
	if len(latest) == 0 {
		return Verdict{}
	}
	var fails []*Failure
	for _, r := range inJudgingOrder(latest) {
		if Passed(latest, r.Mode) {
			continue
		}
		f := r.Failure
		if f == nil {
			f = &Failure{Class: ClassUnclassified, Evidence: r.Detail}
		}
		fails = append(fails, f)
	}
	if len(fails) > 0 {
		return Verdict{Status: StatusInvalid, Failure: WorstFailure(fails), Decided: true}
	}
	if t.Mined() {
		for _, m := range []string{ModeNop, ModeOracle, ModeGold} {
			if latest[m] == nil {
				return Verdict{}
			}
		}
	}
	return Verdict{Status: StatusValid, Decided: true}
}

// Passed reports whether the latest run of a mode passed its step: ok,
// or a NOP whose suite the bug stopped (crashedByTheBug). Judge and the
// yield funnel both ask it.
func Passed(latest map[string]*Run, mode string) bool {
	r := latest[mode]
	if r == nil {
		return false
	}
	return r.Outcome == OutcomeOK || (mode == ModeNop && r.Outcome == OutcomeNopNotRun && crashedByTheBug(latest))
}

// crashedByTheBug tells a suite that cannot load without the fix (the
// PR's tests use what the fix adds) from an environment that never runs
// it: on the same image Oracle passed and gold found tests that fail
// before the fix, so NOP's reward 0 without a test run is the bug's doing.
func crashedByTheBug(latest map[string]*Run) bool {
	o, g := latest[ModeOracle], latest[ModeGold]
	return o != nil && o.Outcome == OutcomeOK && g != nil && g.Outcome == OutcomeOK && len(g.FailToPass) > 0
}

// inJudgingOrder lists the runs gold first (its evidence covers both
// states), then oracle, then nop, then any other mode by name, so equal
// classes name the task the same way every time.
func inJudgingOrder(latest map[string]*Run) []*Run {
	var out []*Run
	for _, m := range []string{ModeGold, ModeOracle, ModeNop} {
		if r := latest[m]; r != nil {
			out = append(out, r)
		}
	}
	var rest []string
	for m := range latest {
		if m != ModeGold && m != ModeOracle && m != ModeNop {
			rest = append(rest, m)
		}
	}
	sort.Strings(rest)
	for _, m := range rest {
		out = append(out, latest[m])
	}
	return out
}
