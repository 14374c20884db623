package cfamily

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"curate/pipeline/validate/parse"
)

// Reports captured from curate-cbuild in real task images (see
// testdata/SOURCES.md), read as validation reads the log: test.sh's
// output with /logs/verifier/c-junit.xml after it.
func TestReportsOfRealRuns(t *testing.T) {
	for _, c := range []struct {
		files      []string
		tests      int
		failing    []string
		evidence   string // a line the log must hold
		failureMsg string // text in a failing case's message
	}{
		// A C project's CTest suite (19 tests) where the PR's test target
		// does not compile in the buggy state: it fails with the
		// compiler's first error, the other 18 still run and pass.
		{[]string{"ctest-compile-error.stdout.txt", "ctest-compile-error.xml"}, 19, []string{"misc_tests.misc_tests"},
			"curate: compile_error: /app/tests/misc_tests.c:30:14: error:", "did not compile: /app/tests/misc_tests.c:30:14: error:"},
		// A C++ project with one doctest binary for all its test files: the
		// PR's new test file does not compile in the buggy state, so the
		// binary does not link; the file is the failing test.
		{[]string{"doctest-compile-error.stdout.txt", "doctest-compile-error.xml"}, 1, []string{"compile.test_store_into.cpp"},
			"curate: compile_error: /app/test/test_store_into.cpp:133:49: error:", "did not compile: /app/test/test_store_into.cpp:133:49: error:"},
		// The same project's doctest binary before the PR's test file:
		// every case passes, ids are "source file.test case title".
		{[]string{"doctest.xml"}, 596, nil, "", ""},
	} {
		var log []byte
		for _, f := range c.files {
			data, err := os.ReadFile(filepath.Join("testdata", f))
			if err != nil {
				t.Fatal(err)
			}
			log = append(append(log, data...), '\n')
		}
		r := parse.ForFormat("ctest", log)
		if c.tests == 596 && r.Tests["/app/test/test_actions.cpp.Users can use default value inside actions"] != parse.Passed {
			t.Errorf("doctest ids: %v", r.Names()[:3])
		}
		if len(r.Tests) != c.tests {
			t.Errorf("%s: %d tests, want %d", c.files[len(c.files)-1], len(r.Tests), c.tests)
		}
		var failing []string
		for _, id := range r.Names() {
			if r.Tests[id].Fail() {
				failing = append(failing, id)
			}
		}
		if strings.Join(failing, ",") != strings.Join(c.failing, ",") {
			t.Errorf("%s: failing %v, want %v", c.files[len(c.files)-1], failing, c.failing)
		}
		if c.failureMsg != "" && (!strings.Contains(string(log), c.evidence) || !strings.Contains(string(log), c.failureMsg)) {
			t.Errorf("%s: the compiler's first error is not the evidence", c.files[len(c.files)-1])
		}
	}
}
