package statement

import (
	"strings"
	"testing"
)

// A sentence that names a hidden test reads as a sentence after
// redaction, on real commit bodies: the test's name becomes "a test",
// never "[redacted]".
func TestRedactRewritesSentencesOnRealBodies(t *testing.T) {
	repos := sharedRepos(t)
	cases := []struct {
		commit string
		hide   []string
		want   string
	}{
		{"02a0d2fbc9e61d26f8e5979749f6030964a55a3e", []string{"doc/cmd_test.go", "doc/md_docs.go", "doc/md_docs_test.go", "TestGenMdDocWithNoLongOrSynopsis"},
			"Adds a test as the test case."},
		{"df547f5fc6ee86071f73c36c16afd885bb4e3f28", []string{"command.go", "command_test.go", "TestPlugin"},
			"Enhance a test to check all the lines including the command"},
	}
	for _, c := range cases {
		_, body := commitText(t, repos, "spf13+cobra", c.commit)
		got := Redact(body, c.hide)
		if strings.Contains(got, "[redacted]") || !strings.Contains(got, c.want) {
			t.Errorf("%s: want %q in\n%s", c.commit[:7], c.want, got)
		}
		for _, h := range c.hide {
			if strings.Contains(got, h) {
				t.Errorf("%s: %q not hidden:\n%s", c.commit[:7], h, got)
			}
		}
	}
}

func TestRedactStandIns(t *testing.T) {
	hide := []string{"calc/ops.py", "tests/test_ops.py", "test_divide", "test_multiply", "Makefile"}
	for in, want := range map[string]string{
		"divide in calc/ops.py breaks":                  "divide in the affected file breaks",
		"test_divide and test_multiply fail":            "tests fail",
		"see `test_divide`, test_multiply or ops.py":    "see tests or the affected file",
		"The test_divide test covers it":                "A test covers it",
		"adds test_divide to lock in the new messages":  "adds a test to lock in the new messages",
		"tests/test_ops.py gains a case":                "a test file gains a case",
		"the Makefile target":                           "the affected file target",
		"the test_divide function in tests/test_ops.py": "a test in a test file",
	} {
		if got := Redact(in, hide); got != want {
			t.Errorf("Redact(%q) = %q, want %q", in, got, want)
		}
	}
}
