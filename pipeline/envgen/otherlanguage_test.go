package envgen_test

import (
	"context"
	"strings"
	"testing"

	"curate/internal/fixtures"
	"curate/pipeline/envgen"
	"curate/pipeline/envgen/envgentest"
	"curate/pipeline/filter"
	"curate/pipeline/patch"
)

// A multi-language project's Swift PR is refused for its language, not
// for the root package.json's test script (a serialization library's
// four Swift and TypeScript PRs of six were "no test runner found:
// scripts.test is ..."). A Ruby fixture a Python project's tests read,
// in a tree with no Gemfile, is not a Ruby PR.
func TestBuildNamesTheLanguageItHasNoBuilderFor(t *testing.T) {
	fc := envgentest.TestFilter(t)
	for _, c := range []struct {
		name         string
		base, change map[string]string
		swift        bool
	}{
		{"swift", map[string]string{"package.json": `{"name":"fb","scripts":{"test":"npm run compile && python3 ./t.py"}}`, "ts/index.ts": "export {}\n",
			"Package.swift": "// swift-tools-version:5.9\n", "swift/Sources/V.swift": "let v = 1\n", "tests/swift/Tests/VTests.swift": "import XCTest\n"},
			map[string]string{"swift/Sources/V.swift": "let v = 2\n", "tests/swift/Tests/VTests.swift": "import XCTest\n// v2\n"}, true},
		{"ruby fixture", map[string]string{"pyproject.toml": "[project]\nname = \"lex\"\n", "lex.py": "X = 1\n", "tests/test_lex.py": "def test_x():\n    pass\n", "tests/examples/a.rb": "puts 1\n"},
			map[string]string{"lex.py": "X = 2\n", "tests/examples/a.rb": "puts 2\n"}, false},
	} {
		reasons := buildRefusal(t, fc, c.base, c.change)
		got := strings.Contains(strings.Join(reasons, ";"), "a language curate has no builder for")
		if got != c.swift {
			t.Errorf("%s: refused for its language = %v, want %v (%v)", c.name, got, c.swift, reasons)
		}
		if c.swift && !strings.Contains(strings.Join(reasons, ";"), "1 test file(s) are Swift (tests/swift/Tests/VTests.swift...)") {
			t.Errorf("%s: the reason does not name the language and a file: %v", c.name, reasons)
		}
	}
}

// buildRefusal builds the one PR that turns base into change (files of a
// new repository) and returns the reasons it was refused, nil when built.
func buildRefusal(t *testing.T, fc *filter.Config, base, change map[string]string) []string {
	t.Helper()
	dir := t.TempDir()
	g, _ := fixtures.NewGit(dir, "acme/lib")
	g.Write(base)
	g.Commit("init")
	g.Write(change)
	g.Commit("Fix it (#1)")
	if g.Err() != nil {
		t.Fatal(g.Err())
	}
	task := envgentest.MinedTasks(t, dir, fc)[1]
	_, err := envgen.Build(context.Background(), task, t.TempDir(), envgen.Config{Filter: fc})
	if err == nil {
		return nil
	}
	reasons, ok := patch.IsRejection(err)
	if !ok {
		t.Fatal(err)
	}
	return reasons
}
