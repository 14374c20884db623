package cfamily

import (
	"encoding/xml"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// curate-testlines reads a harness's per-test results. At a C unit-test
// framework's snapshot (3a6eb6d) its rakefile printed a test that checks
// a failing assertion as that assertion's FAIL and, on the same line, the
// test's own PASS; read as failing, 350 of its 919 tests failed its
// environment check. A result file the harness wrote while it ran counts
// (it prints only failures); one older than the run does not. Colour
// codes around a line (its memory add-on's results) are not part of a
// name, and no control character reaches the XML: one made the whole
// report unreadable, and 900 tests read as 1.
func TestTestlinesReadsUnityAndTAPLines(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Fatal("python3 runs curate-testlines:", err)
	}
	dir := t.TempDir()
	stamp := filepath.Join(dir, "stamp")
	write := func(name, body string) {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("stamp", "")
	old := time.Now().Add(-time.Hour)
	os.Chtimes(stamp, old, old)
	write("run/build/stale.testfail", "tests/test_old.c:3:testGone:FAIL: from an earlier run\n")
	os.Chtimes(filepath.Join(dir, "run/build/stale.testfail"), old.Add(-time.Hour), old.Add(-time.Hour))
	write("run/build/test_unity_arrays.testpass", "[p   ] tests/test_unity_arrays.c:551:testCHARArrayNotWithinDelta:FAIL: Values Not Within Delta '\\x01' Element 0 Expected '\\x14' Was '\\x0B'tests/test_unity_arrays.c:545:testCHARArrayNotWithinDelta:PASS\n"+
		"[i---] tests/test_unity_strings.c:387:testCstringsEscapeSequence:IGNORE\n[    ] 42 Tests 0 Failures 1 Ignored \n"+
		"\x1b[30;39;22munity_memory_Test.c:120:test_BufferGuardWriteFoundDuringFree:IGNORE: Enable USING_OUTPUT_SPY To Run This Test\x1b[0m\n")
	write("log", "Running Unity system tests\ntests/test_unity_parameterized.c:77:test_TheseShouldAllPass(44):PASS\ntests/test_unity_core.c:88:testNotEqualInts:FAIL: Expected 1 Was 2\nrake aborted!\n"+
		"1..3\nok 1 - alpha\nnot ok 2 - beta\nok 3 gamma # SKIP no IPv6\n")
	out := filepath.Join(dir, "out.xml")
	cmd := exec.Command("python3", "curate-testlines.py", out, filepath.Join(dir, "log"), filepath.Join(dir, "run"), stamp)
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, msg)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	got := string(data)
	var suite struct {
		Cases []struct{} `xml:"testcase"`
	}
	if err := xml.Unmarshal(data, &suite); err != nil || len(suite.Cases) != 8 {
		t.Errorf("report is not JUnit XML of 8 tests (%d read): %v\n%s", len(suite.Cases), err, got)
	}
	for _, want := range []string{
		`<testcase classname="test_unity_arrays" name="testCHARArrayNotWithinDelta"/>`,
		`<testcase classname="test_unity_strings" name="testCstringsEscapeSequence"><skipped`,
		`<testcase classname="test_unity_core" name="testNotEqualInts"><failure message="Expected 1 Was 2"/>`,
		`<testcase classname="unity_memory_Test" name="test_BufferGuardWriteFoundDuringFree"><skipped message="Enable USING_OUTPUT_SPY To Run This Test"/>`,
		`<testcase classname="test_unity_parameterized" name="test_TheseShouldAllPass(44)"/>`,
		`<testcase classname="tap" name="alpha"/>`,
		`<testcase classname="tap" name="beta"><failure`,
		`<testcase classname="tap" name="gamma"><skipped`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("report lacks %s:\n%s", want, got)
		}
	}
	if strings.Contains(got, "testGone") {
		t.Errorf("a result file older than the run was read:\n%s", got)
	}
	// Nothing in the harness's format: no report, exit 1.
	write("plain", "all good\n")
	if err := exec.Command("python3", "curate-testlines.py", filepath.Join(dir, "none.xml"), filepath.Join(dir, "plain"), filepath.Join(dir, "empty"), stamp).Run(); err == nil {
		t.Error("no results read, and still exit 0")
	}
}
