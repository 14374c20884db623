package validate

import (
	"reflect"
	"strings"
	"testing"

	"curate/pipeline"
)

// A pytest parametrized id carrying the time of the run
// (test_stamp[2026-11-25T21:04:07]) was stored as a FAIL_TO_PASS entry that
// no later run could match. Seen in one run of a state only, such ids are
// unstable: listed, in neither list.
func TestGoldLeavesOutUnstableIDs(t *testing.T) {
	ok := pipeline.OutcomeOK
	run := &pipeline.Run{}
	summarize(ModeGold, []attempt{{outcome: ok,
		buggy: rep("t.py::test_fix", "FAILED", "t.py::test_keep", "PASSED", "t.py::test_stamp[2026-11-25T21:04:01]", "FAILED"),
		fixed: rep("t.py::test_fix", "PASSED", "t.py::test_keep", "PASSED", "t.py::test_stamp[2026-11-25T21:04:07]", "PASSED"),
		again: rep("t.py::test_fix", "PASSED", "t.py::test_keep", "PASSED", "t.py::test_stamp[2026-11-25T21:04:12]", "PASSED")}}, run, nil)
	if run.Outcome != ok || !reflect.DeepEqual(run.FailToPass, []string{"t.py::test_fix"}) || !reflect.DeepEqual(run.PassToPass, []string{"t.py::test_keep"}) {
		t.Fatalf("outcome %s f2p %v p2p %v", run.Outcome, run.FailToPass, run.PassToPass)
	}
	if len(run.Unstable) != 2 || run.Flaky != nil || !strings.Contains(run.Detail, "2 unstable test ids left out") {
		t.Fatalf("unstable %v flaky %v detail %q", run.Unstable, run.Flaky, run.Detail)
	}
}

// When every would-be FAIL_TO_PASS test has an unstable id, the task is
// unstable_tests, not flaky and not valid.
func TestGoldOnlyUnstableFailToPass(t *testing.T) {
	run := &pipeline.Run{}
	summarize(ModeGold, []attempt{{outcome: pipeline.OutcomeOK,
		buggy: rep("a", "PASSED", "gen[0x7f1a]", "FAILED"),
		fixed: rep("a", "PASSED", "gen[0x7f2b]", "PASSED"),
		again: rep("a", "PASSED", "gen[0x7f3c]", "PASSED")}}, run, nil)
	if run.Outcome == pipeline.OutcomeOK || run.Failure == nil || run.Failure.Class != pipeline.ClassUnstableTests {
		t.Fatalf("outcome %s failure %+v", run.Outcome, run.Failure)
	}
	if len(run.FailToPass) != 0 || !reflect.DeepEqual(run.PassToPass, []string{"a"}) {
		t.Fatalf("f2p %v p2p %v", run.FailToPass, run.PassToPass)
	}
}

// Repeats (--runs 2) are the second run of each state: an id one attempt
// lacks is unstable there too, while a status that differs is flaky.
func TestGoldRepeatsUnstableVersusFlaky(t *testing.T) {
	ok := pipeline.OutcomeOK
	run := &pipeline.Run{}
	summarize(ModeGold, []attempt{
		{outcome: ok, buggy: rep("b", "FAILED", "r[1]", "FAILED"), fixed: rep("b", "PASSED", "r[1]", "PASSED")},
		{outcome: ok, buggy: rep("b", "FAILED", "r[2]", "FAILED"), fixed: rep("b", "PASSED", "r[2]", "PASSED")}}, run, nil)
	if run.Outcome != ok || !reflect.DeepEqual(run.FailToPass, []string{"b"}) || !reflect.DeepEqual(run.Unstable, []string{"r[1]", "r[2]"}) {
		t.Fatalf("outcome %s f2p %v unstable %v", run.Outcome, run.FailToPass, run.Unstable)
	}
}
