package parse

import (
	"os"
	"path/filepath"
	"testing"
)

// Logs captured from this project's own runs of real repositories'
// tests (trimmed): vitest's JSON report of jshttp/cookie, mocha's TAP of
// an older jshttp/cookie, ava's TAP of sindresorhus/p-map.
func TestJavaScriptRunnerLogs(t *testing.T) {
	cases := []struct {
		file, format string
		ran          bool
		count        int
		want         map[string]Status
	}{
		{"vitest.json.txt", "vitest", true, 4, map[string]Status{
			"src/stringify-set-cookie.spec.ts > cookie.stringifySetCookie > should support three argument mode with value in options": Failed,
			"src/stringify-set-cookie.spec.ts > cookie.stringifySetCookie > should have backward compatible export":                   Passed,
		}},
		{"vitest-broken.json.txt", "vitest", true, 1, map[string]Status{"src/broken.spec.ts": Error}},
		{"mocha-tap.txt", "mocha", true, 37, map[string]Status{
			"cookie.serialize(name, value) should throw for invalid name":                                      Failed,
			`cookie.serialize(name, value, options) with "secure" option should include secure flag when true`: Passed,
		}},
		{"ava-tap.txt", "ava", true, 50, map[string]Status{
			"main": Failed, "pMapSkip": Passed, "asyncIterator - concurrency: 4": Passed,
		}},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("testdata", c.file))
			if err != nil {
				t.Fatal(err)
			}
			r := ForFormat(c.format, data)
			if r.Ran != c.ran || len(r.Tests) != c.count {
				t.Errorf("ran %v with %d tests, want %v with %d: %v", r.Ran, len(r.Tests), c.ran, c.count, r.Tests)
			}
			for name, s := range c.want {
				if r.Tests[name] != s {
					t.Errorf("%q: %q, want %q", name, r.Tests[name], s)
				}
			}
			if a := Auto(data); len(a.Tests) != len(r.Tests) {
				t.Errorf("Auto found %d tests (%s), the declared format %d", len(a.Tests), a.Framework, len(r.Tests))
			}
		})
	}
}

func TestTAPNestedSubtests(t *testing.T) {
	// node --test's TAP shape: subtests indented under "# Subtest:", YAML
	// diagnostics that must not count as results.
	log := "TAP version 13\n# Subtest: math\n    # Subtest: adds\n    ok 1 - adds\n      ---\n      duration_ms: 0.4\n      ...\n" +
		"    # Subtest: breaks\n    not ok 2 - breaks\n      ---\n      error: 'ok 3 - not a result'\n      ...\n    1..2\nnot ok 1 - math\n" +
		"# Subtest: alone\nok 2 - alone # SKIP later\n1..2\n"
	r := TAP([]byte(log))
	want := map[string]Status{"math > adds": Passed, "math > breaks": Failed, "math": Failed, "alone": Skipped}
	if len(r.Tests) != len(want) {
		t.Fatalf("got %v", r.Tests)
	}
	for k, v := range want {
		if r.Tests[k] != v {
			t.Errorf("%s: %s, want %s (all %v)", k, r.Tests[k], v, r.Tests)
		}
	}
}

func TestForFormatFallsBack(t *testing.T) {
	log := []byte("tests/a.py::test_x PASSED\n=== 1 passed in 0.01s ===\n")
	if r := ForFormat("vitest", log); r.Framework != "pytest" || r.Tests["tests/a.py::test_x"] != Passed {
		t.Errorf("a log of another runner: %s %v", r.Framework, r.Tests)
	}
	if r := ForFormat("", log); r.Framework != "pytest" {
		t.Errorf("no format: %s", r.Framework)
	}
}

func FuzzJestJSON(f *testing.F) { fuzzParser(f, JestJSON, "vitest.json.txt") }
func FuzzTAPMocha(f *testing.F) { fuzzParser(f, TAP, "mocha-tap.txt") }
func FuzzTAPAva(f *testing.F)   { fuzzParser(f, TAP, "ava-tap.txt") }
