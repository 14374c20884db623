package envgen

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"curate/pipeline/validate/parse"
)

// GoogleTest before 1.10 (the copy an HTTP library vendored in 2019) lists
// every case its filter left out as status="notrun". Read as passes, 95
// cases the runner never ran were FAIL_TO_PASS when the PR's 13 changed
// cases ran; both readers (ctrf.py in the task, the Go log parser) take
// them as skipped, and a notrun case CTest could not start (its target did
// not compile, which curate-cbuild makes a failure) still fails.
func TestGoogleTestNotRunIsSkipped(t *testing.T) {
	xml := `<?xml version="1.0" encoding="UTF-8"?>
<testsuites tests="3" failures="0" disabled="0" errors="0" name="AllTests">
  <testsuite name="Net" tests="3" failures="0" disabled="0" errors="0">
    <testcase name="Changed" status="run" time="0.01" classname="Net" />
    <testcase name="Other" status="notrun" time="0" classname="Net" />
    <testcase name="Broken" status="notrun" time="0" classname="Net"><failure message="did not compile"/></testcase>
  </testsuite>
</testsuites>
`
	checkBothReaders(t, xml, map[string]parse.Status{"Net.Changed": parse.Passed, "Net.Other": parse.Skipped, "Net.Broken": parse.Failed})
}

// CTest (3.25, Debian 12) writes a test the project disabled (the DISABLED
// property: a logging library's demangler test, off for this compiler) as
// status="disabled" with no <skipped>; read as a pass, it was PASSED
// before the fix and FAILED after it when curate ran its binary itself.
// Captured from the real run's --output-junit.
func TestCTestDisabledIsSkipped(t *testing.T) {
	xml := `<?xml version="1.0" encoding="UTF-8"?>
<testsuite name="Linux-c++"
	tests="2"
	failures="0"
	disabled="1"
	skipped="0"
	hostname="fd3d3fa1e667"
	time="0"
	timestamp="2026-11-27T18:52:04"
	>
	<testcase name="demangle" classname="demangle" time="0" status="disabled">
		<system-out>Disabled</system-out>
	</testcase>
	<testcase name="logging" classname="logging" time="0.07" status="run">
		<system-out>ok</system-out>
	</testcase>
</testsuite>
`
	checkBothReaders(t, xml, map[string]parse.Status{"demangle.demangle": parse.Skipped, "logging.logging": parse.Passed})
}

// checkBothReaders reads a JUnit report with the Go log parser and with
// ctrf.py (the task's converter), and wants the same statuses from both.
func checkBothReaders(t *testing.T, xml string, want map[string]parse.Status) {
	t.Helper()
	same := func(got map[string]parse.Status) bool {
		if len(got) != len(want) {
			return false
		}
		for k, v := range want {
			if got[k] != v {
				return false
			}
		}
		return true
	}
	if got := parse.JUnitXML([]byte(xml)).Tests; !same(got) {
		t.Errorf("log parser: %v, want %v", got, want)
	}
	dir := t.TempDir()
	script, report := filepath.Join(dir, "ctrf.py"), filepath.Join(dir, "c-junit.xml")
	os.WriteFile(script, CTRFScript, 0o755)
	os.WriteFile(report, []byte(xml), 0o644)
	out, err := exec.Command("python3", script, "junit", report).Output()
	if err != nil {
		t.Fatal(err)
	}
	r, err := parse.CTRF(out)
	if err != nil {
		t.Fatal(err)
	}
	if got := r.Tests; !same(got) {
		t.Errorf("ctrf.py: %v, want %v\n%s", got, want, out)
	}
}
