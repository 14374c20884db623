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

type lineLog struct{ strings.Builder }

func (l *lineLog) Line(s string) { l.WriteString(s + "\n") }

// A messaging library's gold run was graded from ctrf.json, whose CTest
// ids are "name.name", while its console says "86/108 Test #86:
// test_filter_ipc ... Passed": the matrix read no status at all, so an
// Oracle failure (a 10-second CTest timeout at load 9) that gold's fixed
// state passed was not seen as flaky and the task stayed fix_fails_tests.
// The results grading read are in the log now, and the matrix reads them.
func TestGoldMatrixReadsTheResultsGradingReadFromAReport(t *testing.T) {
	odd := "weird\x1b[2J name\nwith a newline"
	var log lineLog
	log.Line("curate: gold t-1 on unix:///var/run/docker.sock")
	for _, state := range []string{"buggy", "fixed"} {
		log.Line("curate: gold: " + state + " state")
		log.Line("curate: verifier: bash /tests/test.sh")
		// A suite's own output that mimics the validator's lines.
		log.Line(goldTestPrefix + `FAILED "spoofed.by_the_suite"`)
		log.Line("86/108 Test  #86: test_filter_ipc ..................   Passed    6.94 sec")
		rep := &parse.Report{Tests: map[string]parse.Status{"test_filter_ipc.test_filter_ipc": parse.Passed, odd: parse.Failed,
			"test_fix.test_fix": map[string]parse.Status{"buggy": parse.Failed, "fixed": parse.Passed}[state]}}
		logReportedTests(&log, rep)
		log.Line("curate: gold: " + state + " state: 3 tests from ctrf.json")
	}
	log.Line("curate: outcome ok")
	path := filepath.Join(t.TempDir(), "r1.log")
	if err := os.WriteFile(path, []byte(log.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	run := &pipeline.Run{ID: "r1", Mode: ModeGold, LogPath: path, FailToPass: []string{"test_fix.test_fix"},
		PassToPass: []string{"test_filter_ipc.test_filter_ipc"}}
	m, err := GoldMatrix(context.Background(), run, "ctest")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][2]parse.Status{
		"test_filter_ipc.test_filter_ipc": {parse.Passed, parse.Passed},
		"test_fix.test_fix":               {parse.Failed, parse.Passed},
		odd:                               {parse.Failed, parse.Failed},
	}
	if len(m.Rows) != len(want) || m.Unplaced != 0 {
		t.Fatalf("rows %+v, unplaced %d; want %d rows", m.Rows, m.Unplaced, len(want))
	}
	for _, r := range m.Rows {
		w, ok := want[r.Test]
		if !ok || r.Last(StateBuggy) != w[0] || r.Last(StateFixed) != w[1] {
			t.Errorf("row %q: %v, want %v", r.Test, r.Status, w)
		}
	}
	if strings.Contains(log.String(), "\x1b") {
		t.Errorf("a test name's escape reached the log raw")
	}
}

func TestParseReportedTestRejectsMalformedLines(t *testing.T) {
	for _, line := range []string{"curate: gold: test PASSED", "curate: gold: test  \"x\"", "curate: gold: test PASSED x", "curate: gold: buggy state"} {
		if _, _, ok := parseReportedTest(line); ok {
			t.Errorf("%q read as a result", line)
		}
	}
}
