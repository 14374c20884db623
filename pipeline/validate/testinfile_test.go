package validate

import "testing"

// TestMayLiveIn decides which PRs of a repository whose env check
// failures were accepted still build at their merge commit, and which
// tests missing on the bug are FAIL_TO_PASS: ids as each suite's report
// names them.
func TestTestMayLiveIn(t *testing.T) {
	cases := []struct {
		file, id string
		want     bool
	}{
		{"tests/test_percent.py", "tests/test_percent.py::test_percent_locale", true},
		{"tests/test_ops.py", "tests/test_percent.py::test_percent_locale", false},
		{"middleware/logger_test.go", "github.com/acme/router/middleware.TestLogger/colour", true},
		{"middleware/logger_test.go", "github.com/acme/router/render.TestJSON", false},
		{"mux_test.go", "github.com/acme/router.TestMux", true},
		{"mux_test.go", "github.com/acme/router/middleware.TestMux", false},
		{"test/test_seek.c", "test_seek", true},
		{"test/test_seek.c", "test_seekable", false},
		{"src/test/java/com/acme/JsonReaderTest.java", "com.acme.JsonReaderTest.testNulls", true},
		{"src/test/java/com/acme/JsonWriterTest.java", "com.acme.JsonReaderTest.testNulls", false},
		{"test/retry.test.ts", "test/retry.test.ts > retries twice", true},
		{"test/hooks.test.ts", "test/retry.test.ts > retries twice", false},
		{"src/parser.rs", "parser::tests::empty_input", true},
		{"tests/parser.rs", "version::tests::parse", false},
		{"test/tests/test_unity_core.c", "test_unity_core.testEqualInts", true},
		{"test/tests/test_unity_parameterized.c", "test_unity_parameterizedDemo.testShouldPass", false},
		{"test/rakefile_helper.rb", "test_unity_arrays.testEqualHEX8Arrays", false},
		{"test/json_reader_test.cc", "JsonReaderTest.ParsesNulls", true},
		{"test/json_writer_test.cc", "JsonReaderTest.ParsesNulls", false},
	}
	for _, c := range cases {
		if got := TestMayLiveIn(c.file, c.id, "acme/router"); got != c.want {
			t.Errorf("TestMayLiveIn(%q, %q) = %v, want %v", c.file, c.id, got, c.want)
		}
	}
}
