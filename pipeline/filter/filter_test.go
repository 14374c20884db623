package filter

import (
	"context"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/pelletier/go-toml/v2"

	"curate/internal/fixtures"
	"curate/pipeline/source"
	"curate/pipeline/source/gitmine"
)

// defaults decodes the embedded profile's filter.toml the way the profile
// loader does (profiles imports this package, so the file is read here).
func defaults(t testing.TB) *Config {
	t.Helper()
	var doc struct {
		Filter Config `toml:"filter"`
	}
	data := readFile(t, "../profiles/filter.toml")
	if err := toml.NewDecoder(strings.NewReader(data)).DisallowUnknownFields().Decode(&doc); err != nil {
		t.Fatal(err)
	}
	if err := doc.Filter.Validate(); err != nil {
		t.Fatal(err)
	}
	return &doc.Filter
}

func TestClassify(t *testing.T) {
	c := defaults(t)
	for p, want := range map[string]Kind{
		"tests/test_x.py":            KindTest,
		"pkg/a/b_test.go":            KindTest,
		"src/test/java/FooTest.java": KindTest,
		"web/app.spec.ts":            KindTest,
		"lib/foo_spec.rb":            KindTest,
		"src/lib.rs":                 KindSource,
		"test_helpers.py":            KindTest,
		"vendor/x/y.go":              KindVendor,
		".github/workflows/ci.yml":   KindCI,
		"README.md":                  KindDoc,
		"docs/conf.py":               KindDoc,
		"contest/x.py":               KindSource,
		"widgets/core.py":            KindSource,
		"node_modules/a/index.js":    KindVendor,
		"crates/x/tests/integ.rs":    KindTest,
		"pkg/testdata/golden.txt":    KindTest,
		// A C++ library's suite in unittests/ (no PR of it was mined).
		"unittests/array.cpp":      KindTest,
		"unittests/CMakeLists.txt": KindTest,
		"lib/unit_tests/a.c":       KindTest,
		"unittestsuite/a.c":        KindSource,
		// A test runner's PR #5631 (merge ec4ca59b, 2019-07-23) changed
		// testing/python/integration.py only: "no test files at the head commit".
		"testing/python/integration.py": KindTest,
		"widgets/caf\xe9.py":            KindSource,
		"src/main/java/Foo.java":        KindSource,
	} {
		if got := c.Classify(p); got != want {
			t.Errorf("Classify(%q) = %s, want %s", p, got, want)
		}
	}
	c.ExtraTestPatterns = []string{"check_*.py"}
	if c.Classify("lib/check_io.py") != KindTest {
		t.Error("extra test pattern ignored")
	}
}

func TestPresetsOnFixtureHistory(t *testing.T) {
	dir, err := fixtures.GitHistory(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	prs, err := gitmine.Mine(context.Background(), gitmine.Options{Path: dir})
	if err != nil {
		t.Fatal(err)
	}
	if err := gitmine.MeasureLines(context.Background(), dir, prs); err != nil {
		t.Fatal(err)
	}
	byNum := map[int]*source.PR{}
	for _, pr := range prs {
		byNum[pr.Number] = pr
	}
	c := defaults(t)
	no := false
	cases := []struct {
		pr      int
		opt     Options
		reasons []string
	}{
		{1, Options{Preset: "taskgen"}, nil},
		{2, Options{Preset: "taskgen"}, nil},
		{3, Options{Preset: "taskgen"}, []string{"1 source files, fewer than 3", "no linked issue (use --no-require-issue to allow)", "not substantial: 0 changed source lines, fewer than 2"}},
		{3, Options{Preset: "taskgen", RequireIssue: &no}, []string{"1 source files, fewer than 3", "not substantial: 0 changed source lines, fewer than 2"}},
		{4, Options{Preset: "taskgen"}, []string{"touches no test files", "1 source files, fewer than 3", "no linked issue (use --no-require-issue to allow)", "not substantial: 0 changed source lines, fewer than 2"}},
		{5, Options{Preset: "taskgen"}, []string{"touches no test files", "0 source files, fewer than 3", "not substantial: docs-only change"}},
		{6, Options{Preset: "taskgen"}, []string{"touches no test files", "1 source files, fewer than 3", "no linked issue (use --no-require-issue to allow)"}},
		{7, Options{Preset: "none"}, []string{"octopus merge (3 parents): no single base commit"}},
		{1, Options{Preset: "swesmith"}, nil},
		{4, Options{Preset: "swesmith"}, []string{"no test change", "binary files: [assets/logo.png]", "no file with a supported extension"}},
		{6, Options{Preset: "swesmith"}, []string{"no test change"}},
		{8, Options{Preset: "swesmith"}, nil},
		{1, Options{Preset: "none"}, nil},
	}
	for _, tc := range cases {
		got, err := c.Evaluate(byNum[tc.pr], tc.opt)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, tc.reasons) {
			t.Errorf("PR %d %s: reasons %q, want %q", tc.pr, tc.opt.Preset, got, tc.reasons)
		}
	}
	// Every bound is a parameter: tighten two and see both reasons.
	tight := *c
	tight.SWESmith.MaxChangedLines = 3
	tight.SWESmith.MaxFileLines = 3
	got, _ := tight.Evaluate(byNum[1], Options{Preset: "swesmith"})
	if len(got) != 3 {
		t.Errorf("tight swesmith reasons %q, want changed lines + 2 long files", got)
	}
	if _, err := c.Evaluate(byNum[1], Options{Preset: "bogus"}); err == nil {
		t.Error("unknown preset accepted")
	}
}

func TestHeuristics(t *testing.T) {
	c := defaults(t)
	for title, want := range map[string]string{
		"Bump lodash from 4.17.20 to 4.17.21": "dependency bump",
		"chore(deps): update go modules":      "dependency bump",
		"Fix typo in error message":           "typo or formatting change",
		"v1.2.3":                              "version bump",
		"Add debug logging to the parser":     "logging-only change",
		"Fix parser crash on empty input":     "",
	} {
		pr := &source.PR{Title: title, Files: []source.FileChange{{Path: "a.go", Added: 5}}}
		got, _ := c.Evaluate(pr, Options{Preset: "taskgen"})
		found := ""
		for _, r := range got {
			if strings.HasPrefix(r, "not substantial: ") && !strings.Contains(r, "changed source lines") {
				found = strings.TrimPrefix(r, "not substantial: ")
			}
		}
		if found != want {
			t.Errorf("%q: heuristic %q, want %q (all: %q)", title, found, want, got)
		}
	}
	pr := &source.PR{Title: "Update deps", Files: []source.FileChange{{Path: "go.mod", Added: 1}, {Path: "go.sum", Added: 2}}}
	got, _ := c.Evaluate(pr, Options{Preset: "taskgen"})
	if !strings.Contains(strings.Join(got, "|"), "dependency bump") {
		t.Errorf("go.mod-only PR: %q", got)
	}
}

func TestValidateRejectsBadRegex(t *testing.T) {
	c := defaults(t)
	c.TaskGen.Unsubstantial = append(c.TaskGen.Unsubstantial, Heuristic{Reason: "x", Title: "("})
	if err := c.Validate(); err == nil || !strings.Contains(err.Error(), "unsubstantial") {
		t.Errorf("bad regex: %v", err)
	}
}

func TestUnsafePathIsAReason(t *testing.T) {
	c := defaults(t)
	pr := &source.PR{Title: "x", HeadCommit: "abc", BaseCommit: "def", Files: []source.FileChange{{Path: "../evil.py", Added: 3}, {Path: "ok.py", OldPath: "/etc/x", Added: 1}}}
	got, err := c.Evaluate(pr, Options{Preset: "none"})
	if err != nil || len(got) != 2 || !strings.Contains(got[0], "unsafe file path") || !strings.Contains(got[1], "absolute") {
		t.Errorf("reasons %q (%v)", got, err)
	}
}

// A PR that changes only test files is no task (build refuses it: nothing
// for the agent to fix), so the swesmith preset turns it away (found on a
// campaign with --preset swesmith --limit 2: both PRs of a C++ library
// and of a JavaScript one changed only tests, build refused all four
// after the C++ library's thirteen-minute environment check).
func TestSWESmithRejectsTestOnlyPRs(t *testing.T) {
	c := defaults(t)
	testsOnly := &source.PR{Title: "Guard nullptr in a test", HeadCommit: "abc", BaseCommit: "def",
		Files: []source.FileChange{{Path: "test/test_proxy.cc", Added: 4}}}
	got, err := c.Evaluate(testsOnly, Options{Preset: "swesmith"})
	if err != nil || !slices.Contains(got, "changes only test files: nothing for the agent to fix") {
		t.Errorf("tests-only PR under swesmith: reasons %q (%v)", got, err)
	}
	withSource := &source.PR{Title: "Fix the proxy", HeadCommit: "abc", BaseCommit: "def",
		Files: []source.FileChange{{Path: "test/test_proxy.cc", Added: 4}, {Path: "httplib.h", Added: 2, Removed: 1}}}
	if got, err := c.Evaluate(withSource, Options{Preset: "swesmith"}); err != nil || len(got) != 0 {
		t.Errorf("a PR with a source change: reasons %q (%v)", got, err)
	}
}
