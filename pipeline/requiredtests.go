package pipeline

import "strings"

// ExtraRequiredTests (Task.Extra) lists the FAIL_TO_PASS tests a gold run
// found, which test.sh then requires to be reported passed. Gold counts a
// test missing before the fix as failing (formats.md); test.sh grades only
// the tests that ran, so without the list a bug that compiles a test out
// (or an agent that deletes one) scores 1. Measured on the environment
// ExtraKnownFailuresEnv names, with the known failures.
const ExtraRequiredTests = "required_tests"

// RequiredTestsFile is where a built task lists its required tests, one
// per line, relative to the task directory.
const RequiredTestsFile = "tests/required_tests.txt"

// RequiredTests is the task's ExtraRequiredTests less its known failures
// (a curator's drop included) and any name a one-line list cannot hold.
func RequiredTests(t *Task) []string {
	known := KnownFailures(t)
	var out []string
	for _, n := range ExtraStrings(t, ExtraRequiredTests) {
		if strings.TrimSpace(n) == "" || strings.ContainsAny(n, "\r\n") || containsString(known, n) || containsString(out, n) {
			continue
		}
		out = append(out, n)
	}
	return out
}
