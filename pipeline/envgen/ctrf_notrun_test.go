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
	want := map[string]parse.Status{"Net.Changed": parse.Passed, "Net.Other": parse.Skipped, "Net.Broken": parse.Failed}
	if got := parse.JUnitXML([]byte(xml)).Tests; len(got) != 3 || got["Net.Changed"] != want["Net.Changed"] || got["Net.Other"] != want["Net.Other"] || got["Net.Broken"] != want["Net.Broken"] {
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
	if got := r.Tests; len(got) != 3 || got["Net.Changed"] != want["Net.Changed"] || got["Net.Other"] != want["Net.Other"] || got["Net.Broken"] != want["Net.Broken"] {
		t.Errorf("ctrf.py: %v, want %v\n%s", got, want, out)
	}
}
