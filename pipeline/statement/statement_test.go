package statement

import (
	"errors"
	"strings"
	"testing"
)

func TestCleanRemovesTemplateNoiseKeepsCode(t *testing.T) {
	body := `<!-- Thank you for contributing! Please fill in the template. -->
## Description

Parsing "a=b; c" drops the second pair.

` + "```go\n// - [ ] not a checklist inside code\nparse(\"a=b; c\") // <!-- kept -->\n```" + `

Steps to reproduce:
1. call parse
2. see one pair

## Checklist
- [x] I added tests
- [ ] I updated the docs

Fixes #12
Closes: acme/widgets#3, #4

Signed-off-by: A Person <a@example.com>

---
🤖 Generated with [Claude Code](https://claude.ai/code)`
	got := Clean(body)
	for _, gone := range []string{"Thank you", "Checklist", "I added tests", "Fixes #12", "Closes:", "Signed-off-by", "Generated with"} {
		if strings.Contains(got, gone) {
			t.Errorf("kept %q:\n%s", gone, got)
		}
	}
	for _, kept := range []string{"drops the second pair", "// - [ ] not a checklist inside code", "// <!-- kept -->", "Steps to reproduce:", "2. see one pair", "## Description"} {
		if !strings.Contains(got, kept) {
			t.Errorf("lost %q:\n%s", kept, got)
		}
	}
	if strings.HasSuffix(got, "---") {
		t.Errorf("a footer's rule is left:\n%s", got)
	}
}

func TestChooseOrderAndTitleOnce(t *testing.T) {
	s := Sources{Title: "Fix the help text", IssueText: "", PRBody: "Fixes #3", CommitBody: "The help text said `cmd [flags]` but the command takes positional args; show `cmd ARG [flags]`."}
	text, src := Choose(s)
	if src != SourceCommit || !strings.Contains(text, "positional") {
		t.Fatalf("Choose = %q, %s; want the commit body (the PR body only links an issue)", text, src)
	}
	s.IssueText = "Help text is wrong\n\nRunning `cmd -h` shows the wrong usage line."
	if _, src = Choose(s); src != SourceIssue {
		t.Fatalf("source %s, want issue", src)
	}
	text, src = Choose(Sources{Title: "Fix the help text", PRBody: "fix the help text"})
	if src != SourceTitle {
		t.Fatalf("source %s, want title", src)
	}
	md := Render(Statement{Title: "Fix the help text", Text: text, Source: src}, nil)
	if strings.Count(md, "Fix the help text") != 1 {
		t.Errorf("the title is printed more than once:\n%s", md)
	}
}

func TestLinkOnly(t *testing.T) {
	for in, want := range map[string]bool{
		"see #123": true, "https://github.com/acme/w/issues/9": true, "Fixes acme/w#2.": true,
		"Parsing fails on empty input, see #12 for the trace": false, "plain words": false,
	} {
		if got := LinkOnly(in); got != want {
			t.Errorf("LinkOnly(%q) = %v", in, got)
		}
	}
}

func TestCheckFlags(t *testing.T) {
	fixLines := "+\tfor _, a := range args {\n+\t\tif seen[a] { return fmt.Errorf(\"duplicate %q\", a) }\n"
	fix := mustParse(t, "--- a/args.go\n+++ b/args.go\n@@ -1,1 +1,3 @@\n x\n"+fixLines)
	st := Statement{Title: "Reject duplicate args", Source: SourcePRBody,
		Text: "Add the check:\n\nfor _, a := range args {\n    if seen[a] { return fmt.Errorf(\"duplicate %q\", a) }\n\nand test it in TestNoDuplicateArgs of args_test.go"}
	got := Check(st, Evidence{Fix: fix, TestFiles: []string{"args_test.go"}, TestNames: []string{"TestNoDuplicateArgs"}, UsedNew: []string{"NoDuplicateArgs"}})
	want := []string{FlagLeak, FlagTestLeak, FlagUnderspecified}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("flags %v, want %v", got, want)
	}
	st.Interface = []Decl{{Name: "NoDuplicateArgs", Signature: "func NoDuplicateArgs(cmd *Command, args []string) error", Language: "go"}}
	st.Text = "Commands should be able to refuse repeated positional arguments: a validator that returns an error naming the first argument given twice, usable as Args on any command, as the other validators are."
	if got := Check(st, Evidence{Fix: fix, UsedNew: []string{"NoDuplicateArgs"}, Hints: HintsTests}); len(got) != 0 {
		t.Errorf("flags %v on a specified statement", got)
	}
	if got := Check(Statement{Title: "x", Text: "see #4", Source: SourcePRBody}, Evidence{}); !strings.Contains(strings.Join(got, ","), FlagLinkOnly) {
		t.Errorf("flags %v, want link_only", got)
	}
}

func TestRenderInterfaceAndHints(t *testing.T) {
	md := Render(Statement{Title: "T", Text: "Body words.", Source: SourceIssue,
		Interface: []Decl{{Name: "F", Signature: "func F() int", Language: "go"}},
		Hints:     Hints(HintsTests, []string{"TestF"}, nil)}, []string{"pkg/f.go"})
	for _, want := range []string{"## Interface", "```go\nfunc F() int\n```", "## Hints", "`TestF`", Footer} {
		if !strings.Contains(md, want) {
			t.Errorf("missing %q:\n%s", want, md)
		}
	}
	if Hints(HintsNone, []string{"TestF"}, nil) != nil {
		t.Error("hints none printed hints")
	}
}

// hints = "failures" adds each test's first NOP message; a test without
// one (or every test, before a NOP run) stands alone; tests that did not
// build say so once.
func TestHintsFailures(t *testing.T) {
	got := Hints(HintsFailures, []string{"TestA", "TestB"}, map[string]string{"TestA": "got 4 want 2"})
	if len(got) != 3 || got[1] != "`TestA`: got 4 want 2" || got[2] != "`TestB`" || !strings.Contains(got[0], "first message") {
		t.Errorf("failures hints: %q", got)
	}
	if got := Hints(HintsFailures, []string{"TestA"}, nil); len(got) != 2 || got[1] != "`TestA`" || strings.Contains(got[0], "message") {
		t.Errorf("failures hints before a NOP run: %q", got)
	}
	got = Hints(HintsFailures, []string{"TestA"}, map[string]string{"": "undefined: NoDuplicateArgs"})
	if len(got) != 3 || got[2] != "Before the change these tests do not build: undefined: NoDuplicateArgs" {
		t.Errorf("failures hints of tests that do not build: %q", got)
	}
	if Hints(HintsTests, []string{"TestA"}, map[string]string{"TestA": "x"})[1] != "`TestA`" {
		t.Error("hints tests printed a message")
	}
}

func TestInterfaceSkipsUnreadableFiles(t *testing.T) {
	fix := mustParse(t, "--- a/sub.go\n+++ b/sub.go\n@@ -1,1 +1,2 @@\n package p\n+func New() {}\n")
	tests := mustParse(t, "--- a/p_test.go\n+++ b/p_test.go\n@@ -1,1 +1,2 @@\n package p\n+var _ = New\n")
	fail := func(string) ([]byte, error) { return nil, errors.New("fatal: path 'sub.go' is a submodule") }
	ds, used, err := Interface(fix, tests, Files{Fixed: fail, Base: fail})
	if err != nil || len(ds) != 0 || len(used) != 0 {
		t.Errorf("an unreadable file: %v %v %v (want no names and no error: the build goes on)", ds, used, err)
	}
	ok := func(string) ([]byte, error) { return []byte("package p\nfunc New() {}\n"), nil }
	if ds, _, _ := Interface(fix, tests, Files{Fixed: ok}); len(ds) != 1 || ds[0].Signature != "func New()" {
		t.Errorf("readable: %+v", ds)
	}
}
