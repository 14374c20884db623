package validate

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"curate/pipeline"
	"curate/pipeline/validate/parse"
)

// A harness that stops at its first failing script leaves the scripts
// after it unrun on the bug. A C unit-test framework's suite runs through
// rake, which aborts at the first test file that fails: at its PR #824
// (which changes only test/rakefile_helper.rb) the bug ran 275 tests, all
// of test_unity_arrays, and the fix 1056; the 769 tests rake never reached
// on the bug were FAIL_TO_PASS, 846 in all with 198 PASS_TO_PASS. Missing
// on the bug and in no file the PR changes, a test is in neither list:
// 77 FAIL_TO_PASS (the tests that failed on the bug), 198 PASS_TO_PASS. At
// its PR #644 (test_unity_doubles.c and test_unity_floats.c changed) 606
// FAIL_TO_PASS become 197: the 196 missing tests of those two files stay.
// The statuses are those the gold runs printed (testdata/gold).
func TestGoldLeavesOutTestsTheBugNeverRanOutsideThePRsFiles(t *testing.T) {
	for _, c := range []struct {
		pr                        string
		f2pBefore, f2p, p2p, kept int
		keptFile                  string
	}{
		{"824", 846, 77, 198, 0, ""},
		{"644", 606, 197, 301, 196, "test_unity_doubles."},
	} {
		buggy, fixed, files := readGoldStates(t, "testdata/gold/unity-pr"+c.pr+".txt")
		dir := t.TempDir()
		var patch strings.Builder
		for _, f := range files {
			patch.WriteString("diff --git a/" + f + " b/" + f + "\n--- a/" + f + "\n+++ b/" + f + "\n@@ -1 +1 @@\n-x\n+y\n")
		}
		rec, _ := json.Marshal(map[string]any{"instance_id": "ThrowTheSwitch__Unity-" + c.pr, "test_patch": patch.String(), "FAIL_TO_PASS": []string{}})
		if err := os.WriteFile(filepath.Join(dir, "swebench.json"), rec, 0o644); err != nil {
			t.Fatal(err)
		}
		as := []attempt{{outcome: pipeline.OutcomeOK, buggy: buggy, fixed: fixed, again: fixed}}
		var notes lines
		inPR := prTestFileOf(Job{Mode: ModeGold, TaskDir: dir, Repo: "ThrowTheSwitch/Unity"}, &notes)
		run := &pipeline.Run{}
		summarize(ModeGold, as, run, inPR)
		if run.Outcome != pipeline.OutcomeOK || len(run.FailToPass) != c.f2p || len(run.PassToPass) != c.p2p {
			t.Errorf("PR #%s: %s, %d FAIL_TO_PASS, %d PASS_TO_PASS; want ok, %d and %d (%s)", c.pr, run.Outcome, len(run.FailToPass), len(run.PassToPass), c.f2p, c.p2p, run.Detail)
		}
		kept := 0
		for _, n := range run.FailToPass {
			if _, ran := buggy.Tests[n]; !ran {
				kept++
				if !strings.HasPrefix(n, "test_unity_doubles.") && !strings.HasPrefix(n, "test_unity_floats.") {
					t.Errorf("PR #%s: %s, missing on the bug, is FAIL_TO_PASS but in no file the PR changes", c.pr, n)
				}
			}
		}
		if kept != c.kept || (c.keptFile != "" && !strings.Contains(strings.Join(run.FailToPass, " "), c.keptFile)) {
			t.Errorf("PR #%s: %d tests missing on the bug kept as FAIL_TO_PASS, want %d (of %s)", c.pr, kept, c.kept, c.keptFile)
		}
		if want := c.f2pBefore - c.f2p; !strings.Contains(run.Detail, fmt.Sprint(want)+" tests that did not run on the bug") {
			t.Errorf("PR #%s: detail does not count the %d tests left out: %s", c.pr, want, run.Detail)
		}
		// The PR's files unknown (no record): every missing test fails
		// on the bug, as before.
		run = &pipeline.Run{}
		summarize(ModeGold, as, run, nil)
		if len(run.FailToPass) != c.f2pBefore {
			t.Errorf("PR #%s without its test files: %d FAIL_TO_PASS, want %d", c.pr, len(run.FailToPass), c.f2pBefore)
		}
	}

	// A test missing from a group that ran on the bug is new (a Catch2
	// case of a file left out of its binary): it fails there, whatever
	// its id says of files.
	run := &pipeline.Run{}
	summarize(ModeGold, []attempt{{outcome: pipeline.OutcomeOK, buggy: rep("tests.global.Old case", "PASSED"),
		fixed: rep("tests.global.Old case", "PASSED", "tests.global.New case", "PASSED"), again: rep("tests.global.Old case", "PASSED", "tests.global.New case", "PASSED")}},
		run, func(string) bool { return false })
	if strings.Join(run.FailToPass, ",") != "tests.global.New case" {
		t.Errorf("a new case in a group that ran: FAIL_TO_PASS %v, want tests.global.New case", run.FailToPass)
	}
	// A bug that ran no test at all crashed: its missing tests fail there.
	run = &pipeline.Run{}
	summarize(ModeGold, []attempt{{outcome: pipeline.OutcomeOK, buggy: rep(), fixed: rep("a.testX", "PASSED"), again: rep("a.testX", "PASSED")}}, run, func(string) bool { return false })
	if len(run.FailToPass) != 1 {
		t.Errorf("a bug that ran nothing: FAIL_TO_PASS %v, want a.testX", run.FailToPass)
	}
	// A record that is not JSON: said in the log, and the files unknown.
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "swebench.json"), []byte("{"), 0o644)
	var notes lines
	if prTestFileOf(Job{Mode: ModeGold, TaskDir: dir}, &notes) != nil || !strings.Contains(strings.Join(notes, "\n"), "swebench.json: not a SWE-bench record") {
		t.Errorf("a broken record: %q", notes)
	}
}

type lines []string

func (l *lines) Line(s string) { *l = append(*l, s) }

// readGoldStates reads testdata/gold: "STATE STATUS NAME" lines and the
// PR's test files on the second comment line.
func readGoldStates(t *testing.T, path string) (buggy, fixed *parse.Report, files []string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	buggy, fixed = rep(), rep()
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if _, list, ok := strings.Cut(line, "test patch changes: "); ok {
			files = strings.Fields(list)
			continue
		}
		if strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.SplitN(line, " ", 3)
		if len(fields) != 3 {
			t.Fatalf("%s:%d: want STATE STATUS NAME: %q", path, n, line)
		}
		r := map[string]*parse.Report{"buggy": buggy, "fixed": fixed}[fields[0]]
		if r == nil {
			t.Fatalf("%s:%d: state %q", path, n, fields[0])
		}
		r.Tests[fields[2]] = parse.Status(fields[1])
	}
	return buggy, fixed, files
}
