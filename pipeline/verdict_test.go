package pipeline

import (
	"testing"
	"time"
)

func TestJudge(t *testing.T) {
	at := func(s int) time.Time { return time.Unix(int64(1700000000+s), 0) }
	zero, one := 0.0, 1.0
	nop := &Run{ID: "n", Mode: ModeNop, Outcome: OutcomeOK, Reward: &zero, Digest: "d", StartedAt: at(1)}
	oracle := &Run{ID: "o", Mode: ModeOracle, Outcome: OutcomeOK, Reward: &one, Digest: "d", StartedAt: at(2)}
	gold := &Run{ID: "g", Mode: ModeGold, Outcome: OutcomeOK, FailToPass: []string{"t"}, Digest: "d", StartedAt: at(3)}
	missing := &Failure{Class: ClassDepsMissing, Evidence: "No module named 'x'"}
	unreach := &Failure{Class: ClassDepsUnreachable, Evidence: "x509"}
	badOracle := &Run{ID: "o2", Mode: ModeOracle, Outcome: OutcomeOracleFailed, Failure: missing, Digest: "d", StartedAt: at(4)}
	notRun := &Run{ID: "n2", Mode: ModeNop, Outcome: OutcomeNopNotRun, Failure: unreach, Digest: "d", StartedAt: at(5)}
	noF2P := &Run{ID: "g2", Mode: ModeGold, Outcome: OutcomeNopPassed, Failure: &Failure{Class: ClassNoFailToPass, Evidence: "t PASSED→PASSED"}, Digest: "d", StartedAt: at(6)}
	engine := &Run{ID: "g3", Mode: ModeGold, Outcome: OutcomeInfraError, Failure: &Failure{Class: ClassInfraError}, Digest: "d", StartedAt: at(7)}
	stale := &Run{ID: "o3", Mode: ModeOracle, Outcome: OutcomeOracleFailed, Failure: missing, Digest: "old", StartedAt: at(8)}
	cancelled := &Run{ID: "o4", Mode: ModeOracle, Outcome: OutcomeCancelled, Digest: "d", StartedAt: at(9)}

	nopPassed := &Run{ID: "n3", Mode: ModeNop, Outcome: OutcomeNopPassed, Failure: &Failure{Class: ClassNoFailToPass, Evidence: "NOP reward 1"}, Digest: "d", StartedAt: at(10)}
	notRunNoClass := &Run{ID: "n4", Mode: ModeNop, Outcome: OutcomeNopNotRun, Failure: &Failure{Class: ClassNopNotRun, Evidence: "TypeError: x is not iterable"}, Digest: "d", StartedAt: at(11)}
	mined := &Task{Source: "git", Digest: "d"}
	imported := &Task{Source: "harbor", Digest: "d"}
	cases := []struct {
		name    string
		task    *Task
		runs    []*Run
		decided bool
		status  Status
		class   string
	}{
		{"all three ok", mined, []*Run{nop, oracle, gold}, true, StatusValid, ""},
		{"mined without gold is not settled", mined, []*Run{nop, oracle}, false, "", ""},
		{"imported follows harbor", imported, []*Run{nop, oracle}, true, StatusValid, ""},
		{"a newer failing oracle wins", mined, []*Run{nop, oracle, gold, badOracle}, true, StatusInvalid, ClassDepsMissing},
		{"worst class names the task", mined, []*Run{notRun, badOracle, gold}, true, StatusInvalid, ClassDepsUnreachable},
		{"no fail-to-pass is a verdict", mined, []*Run{nop, oracle, noF2P}, true, StatusInvalid, ClassNoFailToPass},
		{"engine failures say nothing", mined, []*Run{nop, oracle, gold, engine}, true, StatusValid, ""},
		{"stale and cancelled runs say nothing", mined, []*Run{nop, oracle, gold, stale, cancelled}, true, StatusValid, ""},
		{"no runs", mined, nil, false, "", ""},
		{"a suite that needs the fix to load", mined, []*Run{notRunNoClass, oracle, gold}, true, StatusValid, ""},
		{"nop_not_run without gold's proof", mined, []*Run{notRunNoClass, oracle, noF2P}, true, StatusInvalid, ClassNopNotRun},
		{"gold's evidence names a true negative", mined, []*Run{nopPassed, oracle, noF2P}, true, StatusInvalid, ClassNoFailToPass},
	}
	for _, c := range cases {
		v := Judge(c.task, c.runs)
		class := ""
		if v.Failure != nil {
			class = v.Failure.Class
		}
		if c.name == "gold's evidence names a true negative" && v.Failure != noF2P.Failure {
			t.Errorf("%s: evidence %q, want gold's", c.name, v.Failure.Evidence)
		}
		if v.Decided != c.decided || v.Status != c.status || class != c.class {
			t.Errorf("%s: got %+v (class %q), want decided=%v %s %q", c.name, v, class, c.decided, c.status, c.class)
		}
	}
}

func TestWorstFailure(t *testing.T) {
	got := WorstFailure([]*Failure{nil, {Class: ClassNoFailToPass}, {Class: ClassFlaky}, {Class: ClassCompileError}, {Class: "made_up"}})
	if got == nil || got.Class != ClassCompileError {
		t.Fatalf("got %+v", got)
	}
	if WorstFailure(nil) != nil {
		t.Fatal("no failures gave one")
	}
}
