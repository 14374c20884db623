package statement

import (
	"reflect"
	"strings"
	"testing"
)

// The pflag case: the test checks "[=true|false]". With the derived
// Requirements section the instruction gives it; a curator's statement
// with a Requirements section of its own that leaves it out does not, and
// the test that checks it is listed.
func TestStrictTestsListWhatTheInstructionLeavesOut(t *testing.T) {
	fix, tests := mustParse(t, pflagFix), mustParse(t, pflagTest)
	read := func(p string) ([]byte, error) { return []byte(pflagFixed[p]), nil }
	all := AllRequirements(fix, tests, Files{Fixed: read}, func(string) bool { return false })
	if len(all) != 1 || !reflect.DeepEqual(all[0].Tests, []string{"TestPrintDefaults"}) {
		t.Fatalf("requirements %+v, want [=true|false] checked by TestPrintDefaults", all)
	}
	hide := []string{"flag_test.go", "TestPrintDefaults"}
	title := "Show 'correct' explicit bool value syntax in help"

	derived := Render(Statement{Title: title, Source: SourceTitle, Requirements: CapRequirements(all)}, hide)
	if s := Strict(all, derived, nil); len(s) != 0 {
		t.Errorf("strict %+v with the derived section", s)
	}
	own := Render(Statement{Title: title, Text: "Bool flags show their values.\n\n## Requirements\n\n- help says so", Source: SourceCurator, Requirements: all}, hide)
	want := []StrictTest{{Test: "TestPrintDefaults", Values: []string{"[=true|false]"}}}
	if s := Strict(all, own, nil); !reflect.DeepEqual(s, want) {
		t.Errorf("strict %+v, want %+v", s, want)
	}
	// Known FAIL_TO_PASS ids narrow it to the tests that count.
	if s := Strict(all, own, []string{"TestOther"}); len(s) != 0 {
		t.Errorf("strict %+v for a test outside FAIL_TO_PASS", s)
	}
	if s := Strict(all, own, []string{"github.com/x/pflag/TestPrintDefaults"}); !reflect.DeepEqual(s, want) {
		t.Errorf("strict %+v with FAIL_TO_PASS naming the test", s)
	}
	// A statement that quotes the value gives it.
	quoted := Render(Statement{Title: title, Text: "Show `--A[=true|false]` for a bool flag.\n\n## Requirements\n\n- as said", Source: SourceCurator}, hide)
	if s := Strict(all, quoted, nil); len(s) != 0 {
		t.Errorf("strict %+v when the text quotes the value", s)
	}
}

func TestEnclosingTestPerLanguage(t *testing.T) {
	for _, c := range []struct {
		lang, src string
		line      int
		want      string
	}{
		{"go", "package x\n\nfunc TestA(t *testing.T) {\n\tcheck(\"v\")\n}\n", 4, "TestA"},
		{"python", "class TestX:\n    def test_one(self):\n        assert f() == 'v'\n", 3, "test_one"},
		{"javascript", "describe('d', () => {\n  it('parses a cookie', () => {\n    expect(p()).toBe('v')\n  })\n})\n", 3, "parses a cookie"},
		{"rust", "#[test]\nfn parses() {\n    assert_eq!(f(), \"v\");\n}\n", 3, "parses"},
		{"java", "@Test\npublic void emitsName() {\n  assertEquals(\"v\", f());\n}\n", 3, "emitsName"},
		{"cpp", "TEST(Parser, Reads) {\n  EXPECT_EQ(f(), \"v\");\n}\n", 2, "Parser.Reads"},
		{"go", "package x\n\nvar table = []string{\"v\"}\n", 3, ""},
		// A helper's check counts for the tests that call it.
		{"go", "package x\n\nfunc checkDup(t *testing.T, arg string) {\n\twant := `dup \"` + arg\n}\n\nfunc TestA(t *testing.T) {\n\tcheckDup(t, \"a\")\n}\n\nfunc TestB(t *testing.T) {}\n\nfunc TestC(t *testing.T) {\n\tcheckDup(t, \"c\")\n}\n", 4, "TestA,TestC"},
		{"python", "def _check(x):\n    assert x == 'v'\n\ndef test_one():\n    _check(f())\n", 2, "test_one"},
	} {
		if got := strings.Join(enclosingTests(c.lang, splitLines(c.src), c.line), ","); got != c.want {
			t.Errorf("%s: enclosingTests = %q, want %q", c.lang, got, c.want)
		}
	}
	if !MatchesTest("tests/test_x.py::TestX::test_one", "test_one") || MatchesTest("tests/test_x.py::test_one_more", "test_one") {
		t.Error("MatchesTest: a name is matched as a word of the id")
	}
}

func splitLines(s string) []string {
	var out []string
	start := 0
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' {
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}
