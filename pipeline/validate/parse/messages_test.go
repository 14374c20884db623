package parse

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestFailureMessagesOfRealRuns reads the first assertion message of a
// failing test out of logs this project's runs captured (see each
// parser's test): tokio-rs/bytes' cargo test, jshttp/cookie's vitest JSON
// and mocha TAP, sindresorhus/p-map's ava TAP, square/javapoet's
// surefire report; and the runners' own shapes for pytest, go test,
// jest, Maven and Rust's assert_eq!.
func TestFailureMessagesOfRealRuns(t *testing.T) {
	cases := []struct{ file, format, test, want string }{
		{"cargo-bytes.txt", "cargo", "tests/test_bytes.rs::truncate_to_zero_releases_shared_reference", "called `Result::unwrap()` on an `Err` value: b\"hello\""},
		{"vitest.json.txt", "vitest", "src/stringify-set-cookie.spec.ts > cookie.stringifySetCookie > should support three argument mode with value in options", "AssertionError: expected 'foo=ignored' to deeply equal 'foo=test'"},
		{"mocha-tap.txt", "mocha", "cookie.serialize(name, value) should throw for invalid name", "AssertionError [ERR_ASSERTION]: Missing expected exception."},
		{"ava-tap.txt", "ava", "main", "290 ≤ 478.740885 ≰ 430"},
		{"surefire.txt", "surefire", "com.squareup.javapoet.AnnotationSpecTest.emptyArray", "java.lang.RuntimeException: java.lang.IllegalAccessError: failed to access class"},
		{"pytest.txt", "pytest", "tests/test_calc.py::test_sub", "assert 4 == 2"},
		{"pytest.txt", "pytest", "tests/test_calc.py::test_div[1-0]", "fixture 'nope' not found"},
		{"gotest-json.txt", "go", "example.com/calc.TestSub", "got 4 want 2"},
		{"gotest.txt", "", "example.com/calc.TestSub", "got 4 want 2"},
		{"jest.txt", "", "src/calc.test.js > calc > subtracts numbers", "expect(received).toBe(expected) // Object.is equality"},
		{"maven.txt", "", "com.example.CalcTest.testSub", "org.opentest4j.AssertionFailedError: expected: <2> but was: <4>"},
		{"cargo.txt", "", "src/lib.rs::tests::subtracts", "assertion `left == right` failed"},
		{"unittest.txt", "", "tests.test_calc.CalcTest.test_div", "ZeroDivisionError: division by zero"},
	}
	for _, c := range cases {
		t.Run(c.file+"/"+c.test, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("testdata", c.file))
			if err != nil {
				t.Fatal(err)
			}
			got := FailureMessages(c.format, data, []string{c.test})[c.test]
			if !strings.HasPrefix(got, c.want) {
				t.Errorf("message %q, want %q", got, c.want)
			}
		})
	}
}

// A passing test, or one the log does not have, gets no message; a
// message is one line however the log wraps it, with Rust's operands.
func TestFailureMessagesOnlyForFailures(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "ava-tap.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if m := FailureMessages("ava", data, []string{"pMapSkip", "no such test"}); len(m) != 0 {
		t.Errorf("messages for passing or absent tests: %v", m)
	}
	log := "running 1 test\ntest t::eq ... FAILED\n\nfailures:\n\n---- t::eq stdout ----\nthread 't::eq' panicked at src/lib.rs:3:5:\nassertion `left == right` failed\n  left: 1\n right: 2\n\ntest result: FAILED. 0 passed; 1 failed\n"
	got := FailureMessages("cargo", []byte(log), []string{"t::eq"})
	if want := "assertion `left == right` failed; left: 1; right: 2"; got["t::eq"] != want {
		t.Errorf("rust operands: %q, want %q", got, want)
	}
}

// TestFailureMessagesOfTestsThatDoNotBuild: spf13/cobra #2397's tests
// call NoDuplicateArgs, which the bug lacks; its NOP run (this project's,
// commit ad460ea8) printed go's compile error and no test result.
func TestFailureMessagesOfTestsThatDoNotBuild(t *testing.T) {
	log := "curate: verifier: bash /tests/test.sh\n" +
		"# github.com/spf13/cobra [github.com/spf13/cobra.test]\n" +
		"./args_test.go:170:18: undefined: NoDuplicateArgs\n" +
		"./args_test.go:176:18: undefined: NoDuplicateArgs\n" +
		"curate: test status 1\n" +
		`{"Time":"2026-11-26T00:04:00.094441066Z","Action":"start","Package":"github.com/spf13/cobra"}` + "\n" +
		`{"Time":"2026-11-26T00:04:00.094501415Z","Action":"output","Package":"github.com/spf13/cobra","Output":"FAIL\tgithub.com/spf13/cobra [build failed]\n"}` + "\n" +
		`{"Time":"2026-11-26T00:04:00.094508626Z","Action":"fail","Package":"github.com/spf13/cobra","Elapsed":0}` + "\n"
	got := FailureMessages("go", []byte(log), []string{"github.com/spf13/cobra.TestNoDuplicateArgs"})
	if got[SuiteKey] != "undefined: NoDuplicateArgs" || len(got) != 1 {
		t.Errorf("messages %q, want the compile error for the suite", got)
	}
}

// FuzzFailureMessages: a stranger's log never panics the reader, and every
// message is one printable line of at most MaxMessage bytes.
func FuzzFailureMessages(f *testing.F) {
	for _, name := range []string{"cargo-bytes.txt", "vitest.json.txt", "mocha-tap.txt", "ava-tap.txt", "pytest.txt", "gotest-json.txt", "jest.txt", "maven.txt"} {
		data, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add("", data)
	}
	f.Fuzz(func(t *testing.T, format string, log []byte) {
		rep := ForFormat(format, log)
		msgs := FailureMessages(format, log, rep.Names())
		for id, m := range msgs {
			if m == "" || len(m) > MaxMessage || strings.ContainsAny(m, "\n\r\x1b") || !utf8.ValidString(m) {
				t.Fatalf("%q: message %q", id, m)
			}
			if id != SuiteKey && !rep.Tests[id].Fail() {
				t.Fatalf("%q: a message for a test that did not fail (%s)", id, rep.Tests[id])
			}
		}
	})
}

// pytest cuts its short summary line at the terminal's width (80 columns
// in a container with no terminal): an environment check's failing
// network test read "socket.gaierror: [Errno -3] Te...". The test's own
// section has the whole line.
func TestFailureMessageWholeWhenPytestSummaryIsCut(t *testing.T) {
	log := strings.Join([]string{
		"tests/test_env.py F                                                       [100%]",
		"",
		"=================================== FAILURES ===================================",
		"______________________________ test_needs_network ______________________________",
		"",
		"    def test_needs_network():",
		">       socket.create_connection(('example.org', 80), timeout=2)",
		"",
		"/usr/lib/python3.11/socket.py:827: in create_connection",
		"    for res in getaddrinfo(host, port, 0, SOCK_STREAM):",
		"E   socket.gaierror: [Errno -3] Temporary failure in name resolution",
		"=========================== short test summary info ============================",
		"FAILED tests/test_env.py::test_needs_network - socket.gaierror: [Errno -3] Te...",
		"============================== 1 failed in 0.05s ===============================",
	}, "\n")
	id := "tests/test_env.py::test_needs_network"
	if got, want := FailureMessages("pytest", []byte(log), []string{id})[id], "socket.gaierror: [Errno -3] Temporary failure in name resolution"; got != want {
		t.Errorf("message %q, want %q", got, want)
	}
	cut := strings.Replace(log, "E   socket.gaierror: [Errno -3] Temporary failure in name resolution", "", 1)
	if got, want := FailureMessages("pytest", []byte(cut), []string{id})[id], "socket.gaierror: [Errno -3] Te..."; got != want {
		t.Errorf("without a section message: %q, want the summary's %q", got, want)
	}
}
