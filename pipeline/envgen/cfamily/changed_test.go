package cfamily

import (
	"reflect"
	"strings"
	"testing"
)

// The shape of a header-only HTTP library's one test file (cpp-httplib's
// test/test.cc, 800 GoogleTest cases whose whole run takes 5 to 20
// minutes): a PR that changes one test and adds another names those two.
// Braces in strings, raw strings, character literals and comments do not
// end a body early.
func TestChangedTestNames(t *testing.T) {
	head := "#include <gtest/gtest.h>\n#include \"httplib.h\"\nusing namespace httplib;\n\nstatic int port() { return 1234; }\n\n"
	before := head +
		"TEST(ParseTest, Braces) {\n  auto s = \"{ not a brace\";\n  char c = '}';\n  // }\n  /* } */\n  auto j = R\"({\"a\": 1})\";\n  EXPECT_EQ(1, 1);\n}\n\n" +
		"TEST_F(ServerTest, Get) {\n  EXPECT_TRUE(port());\n}\n\n" +
		"TEST(AuthTest, Bearer) {\n  EXPECT_EQ(\"a\", std::string(\"a\"));\n}\n"
	after := strings.Replace(before, "EXPECT_EQ(\"a\", std::string(\"a\"));", "EXPECT_EQ(\"b\", std::string(\"b\"));", 1) +
		"\nTEST(AuthTest, BearerScheme) {\n  EXPECT_FALSE(false);\n}\n"
	got, ok := (lang{"cpp"}).ChangedTestNames("test/test.cc", before, after)
	if want := []string{"AuthTest.Bearer", "AuthTest.BearerScheme"}; !ok || !reflect.DeepEqual(got, want) {
		t.Errorf("changed %v (ok %v), want %v", got, ok, want)
	}
	// A new helper the new test calls (lines only added outside the
	// tests) changes no existing test.
	withHelper := strings.Replace(after, "\nTEST(AuthTest, BearerScheme)", "\nstatic bool scheme_ok() { return true; }\n\nTEST(AuthTest, BearerScheme)", 1)
	if got, ok := (lang{"cpp"}).ChangedTestNames("t.cc", before, withHelper); !ok || len(got) != 2 {
		t.Errorf("a new helper: %v %v", got, ok)
	}
	// A re-indented test did not change.
	if got, ok := (lang{"cpp"}).ChangedTestNames("t.cc", before, strings.Replace(before, "  EXPECT_TRUE(port());", "    EXPECT_TRUE(port());", 1)); ok {
		t.Errorf("whitespace only: %v", got)
	}
	for name, c := range map[string]struct{ file, after string }{
		"a helper every test may call changed": {"t.cc", strings.Replace(after, "return 1234;", "return 4321;", 1)},
		"a parameterized test changed":         {"t.cc", before + "\nTEST_P(ParamTest, Each) {\n}\n"},
		"a body that does not close":           {"t.cc", before + "\nTEST(Open, Ended) {\n  if (x) {\n}\n"},
		"not a C or C++ file":                  {"test/www/index.html", after},
		"no test changed":                      {"t.cc", before},
	} {
		if got, ok := (lang{"cpp"}).ChangedTestNames(c.file, before, c.after); ok {
			t.Errorf("%s: changed %v, want the whole suite (ok false)", name, got)
		}
	}
	// A new test file: every test in it is new.
	if got, ok := (lang{"cpp"}).ChangedTestNames("t.cc", "", after); !ok || len(got) != 4 {
		t.Errorf("new file: %v %v", got, ok)
	}
}

func FuzzChangedTestNames(f *testing.F) {
	f.Add("TEST(A, B) { }\n", "TEST(A, B) { x; }\n")
	f.Add("", "TEST(A, B) { R\"x(})x\"; '}'; \"}\"; /* } */ }\n")
	f.Add("TEST(A, B) {", "TEST(A, B) { // }")
	f.Fuzz(func(t *testing.T, before, after string) {
		names, ok := (lang{"cpp"}).ChangedTestNames("t.cc", before, after)
		if ok != (len(names) > 0) {
			t.Fatalf("ok %v with names %v", ok, names)
		}
		for _, n := range names {
			if !strings.Contains(after, n[strings.IndexByte(n, '.')+1:]) {
				t.Fatalf("name %q is not in the file", n)
			}
		}
	})
}
