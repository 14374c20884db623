package envgen

import (
	_ "embed"
	"fmt"
)

// CTRFScript converts a test runner's own report into CTRF JSON
// (ctrf.io), the per-test results Harbor's viewer shows. It is written to
// tests/ctrf.py of every generated task (the task images have python3).
//
//go:embed ctrf.py
var CTRFScript []byte

// CTRFFile is where CTRFScript goes in a task dir, and CTRFPath where
// test.sh leaves the report.
const (
	CTRFFile = "tests/ctrf.py"
	CTRFPath = "/logs/verifier/ctrf.json"
)

// ctrfReports maps a runner's log format to ctrf.py's kind and the report
// the runner writes (see each language's Runner command).
var ctrfReports = map[string][2]string{
	"pytest":    {"pytest-junit", "/logs/verifier/junit.xml"},
	"go":        {"gotest-json", "/logs/verifier/go-test.json"},
	"cargo":     {"cargo", "/logs/verifier/cargo-test.txt"},
	"jest":      {"jest-json", "/logs/verifier/jest.json"},
	"vitest":    {"jest-json", "/logs/verifier/vitest.json"},
	"surefire":  {"junit", "/logs/verifier/surefire.xml"},
	"mocha":     {"tap", "/logs/verifier/tap.txt"},
	"ava":       {"tap", "/logs/verifier/tap.txt"},
	"tap":       {"tap", "/logs/verifier/tap.txt"},
	"tape":      {"tap", "/logs/verifier/tap.txt"},
	"node-test": {"tap", "/logs/verifier/tap.txt"},
	"ctest":     {"junit", "/logs/verifier/c-junit.xml"},
}

// CTRFStep is the test.sh lines that turn the runner's report into
// /logs/verifier/ctrf.json, or "" for a log format with no report. It
// never changes the test status: a missing python3 or report just leaves
// no ctrf.json (graders then read the log).
func CTRFStep(logFormat string) string {
	r, ok := ctrfReports[logFormat]
	if !ok {
		return ""
	}
	return fmt.Sprintf(`
# Per-test results as CTRF for Harbor's viewer (the reward does not depend on it).
rm -f %[1]s
if command -v python3 >/dev/null 2>&1 && python3 /%[2]s %[3]s %[4]s > %[1]s.tmp 2>/dev/null; then mv %[1]s.tmp %[1]s; fi
rm -f %[1]s.tmp
`, CTRFPath, CTRFFile, r[0], ShellQuote(r[1]))
}
