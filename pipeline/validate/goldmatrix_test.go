package validate

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"curate/pipeline"
	"curate/pipeline/validate/parse"
)

// goldLog is a gold run's log of two attempts, as runJob writes it: the
// oracle's output before test.sh's in the fixed state, test_flip flipping
// between attempts.
func goldLog(flip [2]string) string {
	var b strings.Builder
	b.WriteString("curate: gold t-1 on unix:///var/run/docker.sock\ncurate: image curate-env:1 is up to date, no build\n")
	for i, f := range flip {
		b.WriteString("curate: attempt " + string(rune('1'+i)) + "/2\n")
		b.WriteString("curate: gold: buggy state\ncurate: verifier: bash /tests/test.sh\n")
		b.WriteString("tests/test_a.py::test_fix FAILED\ntests/test_a.py::test_keep PASSED\ntests/test_a.py::test_flip " + f + "\n")
		b.WriteString("tests/test_a.py::test_broken FAILED\n")
		b.WriteString("curate: gold: buggy state: 4 tests from test.sh output\n")
		b.WriteString("curate: gold: fixed state\ncurate: oracle: bash /solution/solve.sh\ntests/test_a.py::test_noise FAILED\n")
		b.WriteString("curate: verifier: bash /tests/test.sh\n")
		b.WriteString("tests/test_a.py::test_fix PASSED\ntests/test_a.py::test_keep PASSED\ntests/test_a.py::test_flip PASSED\n")
		b.WriteString("tests/test_a.py::test_broken FAILED\n")
		b.WriteString("curate: gold: fixed state: 4 tests from test.sh output\n")
	}
	b.WriteString("curate: outcome flaky: 1 tests change status between repeats\n")
	return b.String()
}

func TestGoldMatrixReadsBothStatesOfEveryAttempt(t *testing.T) {
	log := goldLog([2]string{"PASSED", "FAILED"})
	path := filepath.Join(t.TempDir(), "r1.log")
	if err := os.WriteFile(path, []byte(log), 0o644); err != nil {
		t.Fatal(err)
	}
	run := &pipeline.Run{ID: "r1", Mode: ModeGold, LogPath: path,
		FailToPass: []string{"tests/test_a.py::test_fix"}, PassToPass: []string{"tests/test_a.py::test_keep"},
		Flaky: []string{"tests/test_a.py::test_flip"}}
	m, err := GoldMatrix(context.Background(), run, "pytest")
	if err != nil {
		t.Fatal(err)
	}
	if m.Attempts != 2 || len(m.Rows) != 4 || m.Unplaced != 0 {
		t.Fatalf("attempts %d rows %+v unplaced %d", m.Attempts, m.Rows, m.Unplaced)
	}
	want := map[string]struct {
		class        string
		buggy, fixed parse.Status
		differs      bool
	}{
		"tests/test_a.py::test_broken": {"", parse.Failed, parse.Failed, false},
		"tests/test_a.py::test_fix":    {"F2P", parse.Failed, parse.Passed, false},
		"tests/test_a.py::test_flip":   {"flaky", parse.Failed, parse.Passed, true},
		"tests/test_a.py::test_keep":   {"P2P", parse.Passed, parse.Passed, false},
	}
	for _, r := range m.Rows {
		w := want[r.Test]
		if r.Class != w.class || r.Last(StateBuggy) != w.buggy || r.Last(StateFixed) != w.fixed || r.Differs(StateBuggy) != w.differs {
			t.Errorf("%s: %+v, want %+v", r.Test, r, w)
		}
		for s := range r.At { // the place is the line of the last attempt naming it
			at := r.At[s]
			line := strings.SplitN(log[at.Offset:], "\n", 2)[0]
			if !strings.HasPrefix(line, r.Test+" ") || strings.Count(log[:at.Offset], "\n") != at.Line || at.Line < strings.Count(log[:strings.Index(log, "attempt 2/2")], "\n") {
				t.Errorf("%s %s: line %d offset %d holds %q", r.Test, StateName(s), at.Line, at.Offset, line)
			}
		}
	}
	if _, err := GoldMatrix(context.Background(), &pipeline.Run{ID: "r2", Mode: ModeNop, LogPath: path}, ""); err == nil {
		t.Error("a nop run has a matrix")
	}
}

// The fixed state's second run (stable test ids) is read as another
// attempt of the fixed state: an id with a timestamp is there once, so the
// matrix shows it missing from one run of the fixed state.
func TestGoldMatrixReadsTheFixedStatesSecondRun(t *testing.T) {
	log := "curate: gold: buggy state\ncurate: verifier: bash /tests/test.sh\n" +
		"tests/test_a.py::test_fix FAILED\n" +
		"curate: gold: buggy state: 1 tests from test.sh output\n" +
		"curate: gold: fixed state\ncurate: verifier: bash /tests/test.sh\n" +
		"tests/test_a.py::test_fix PASSED\ntests/test_a.py::test_at[2026-11-25T23:01:02] PASSED\n" +
		"curate: gold: fixed state: 2 tests from test.sh output\n" +
		"curate: gold: " + stateFixedAgain + " state\ncurate: verifier: bash /tests/test.sh\n" +
		"tests/test_a.py::test_fix PASSED\ntests/test_a.py::test_at[2026-11-25T23:01:09] PASSED\n" +
		"curate: gold: " + stateFixedAgain + " state: 2 tests from test.sh output\n" +
		"curate: outcome ok\n"
	path := filepath.Join(t.TempDir(), "r2.log")
	if err := os.WriteFile(path, []byte(log), 0o644); err != nil {
		t.Fatal(err)
	}
	run := &pipeline.Run{ID: "r2", Mode: ModeGold, LogPath: path, FailToPass: []string{"tests/test_a.py::test_fix"}}
	m, err := GoldMatrix(context.Background(), run, "pytest")
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string]MatrixRow{}
	for _, r := range m.Rows {
		rows[r.Test] = r
	}
	fix := rows["tests/test_a.py::test_fix"]
	if got := fix.Status[StateFixed]; len(got) != 2 || got[0] != parse.Passed || got[1] != parse.Passed || fix.Differs(StateFixed) {
		t.Errorf("test_fix's fixed runs: %v", got)
	}
	first := rows["tests/test_a.py::test_at[2026-11-25T23:01:02]"]
	if got := first.Status[StateFixed]; len(got) != 2 || got[0] != parse.Passed || got[1] != "" {
		t.Errorf("an id seen in the first fixed run only: %v", got)
	}
	if len(m.Rows) != 3 {
		t.Errorf("rows: %+v", m.Rows)
	}
}
