package statement

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The pflag case from the issue: a title-only statement ("Show 'correct'
// explicit bool value syntax in help") whose hidden test compares the whole
// help text, now printing `--A[=true|false]`. The fix adds the literal
// "[=true|false]"; the Requirements section must name it, and no other
// line of the fix.
const pflagFix = `diff --git a/flag.go b/flag.go
--- a/flag.go
+++ b/flag.go
@@ -1,7 +1,11 @@
 package pflag
 
 func usage(f *Flag) string {
 	line := "  --" + f.Name
+	if f.NoOptDefVal == "true" && f.Value.Type() == "bool" {
+		line += "[=true|false]"
+		return line
+	}
 	if f.NoOptDefVal != "" {
 		line += "[=" + f.NoOptDefVal + "]"
 	}
 	return line
`

const pflagTest = `diff --git a/flag_test.go b/flag_test.go
--- a/flag_test.go
+++ b/flag_test.go
@@ -1,3 +1,8 @@
 package pflag
 
 import "testing"
+
+func TestPrintDefaults(t *testing.T) {
+	const want = "  --A[=true|false]   for bootstrapping, allow 'any' type\n"
+	if got := usageOf("A"); got != want { t.Errorf("got %q want %q", got, want) }
+}
`

var pflagFixed = map[string]string{
	"flag.go":      "package pflag\n\nfunc usage(f *Flag) string {\n\tline := \"  --\" + f.Name\n\tif f.NoOptDefVal == \"true\" && f.Value.Type() == \"bool\" {\n\t\tline += \"[=true|false]\"\n\t\treturn line\n\t}\n\tif f.NoOptDefVal != \"\" {\n\t\tline += \"[=\" + f.NoOptDefVal + \"]\"\n\t}\n\treturn line\n",
	"flag_test.go": "package pflag\n\nimport \"testing\"\n\nfunc TestPrintDefaults(t *testing.T) {\n\tconst want = \"  --A[=true|false]   for bootstrapping, allow 'any' type\\n\"\n\tif got := usageOf(\"A\"); got != want { t.Errorf(\"got %q want %q\", got, want) }\n}\n",
}

func TestRequirementsNameTheLiteralTheTestsCheck(t *testing.T) {
	fix, tests := mustParse(t, pflagFix), mustParse(t, pflagTest)
	read := func(p string) ([]byte, error) { return []byte(pflagFixed[p]), nil }
	base := func(p string) ([]byte, error) {
		return []byte("package pflag\n\nfunc usage(f *Flag) string {\n\tline := \"  --\" + f.Name\n\tif f.NoOptDefVal != \"\" {\n\t\tline += \"[=\" + f.NoOptDefVal + \"]\"\n\t}\n\treturn line\n"), nil
	}
	rs := Requirements(fix, tests, Files{Fixed: read, Base: base}, func(string) bool { return false })
	if len(rs) != 1 || rs[0].Value != "[=true|false]" {
		t.Fatalf("requirements %+v, want only [=true|false]", rs)
	}
	sec := RequirementsSection(rs, []string{"flag_test.go", "TestPrintDefaults"})
	if !strings.Contains(sec, "`[=true|false]`") {
		t.Fatalf("section lacks the literal:\n%s", sec)
	}
	assertNoFixLines(t, sec, fix, "[=true|false]")

	// A title-only statement with the section is no longer underspecified
	// for want of words; without it, it is.
	st := Statement{Title: "Show 'correct' explicit bool value syntax in help", Source: SourceTitle, Requirements: rs}
	if flags := Check(st, Evidence{Fix: fix}); contains(flags, FlagUnderspecified) {
		t.Errorf("flags %v with a Requirements section", flags)
	}
	st.Requirements = nil
	if flags := Check(st, Evidence{Fix: fix}); !contains(flags, FlagUnderspecified) {
		t.Errorf("flags %v without one, want underspecified", flags)
	}
	if out := Render(Statement{Title: "t", Source: SourceTitle, Requirements: rs}, nil); !strings.Contains(out, "## Requirements") {
		t.Errorf("instruction.md lacks the section:\n%s", out)
	}
	// A curator's own Requirements section stands; none is added.
	cur := Statement{Title: "t", Text: "Do it.\n\n## Requirements\n\n- mine", Source: SourceCurator, Requirements: rs}
	if out := Render(cur, nil); strings.Count(out, "## Requirements") != 1 {
		t.Errorf("two Requirements sections:\n%s", out)
	}
}

// A value the buggy tree already has is not new: no requirement.
func TestRequirementsSkipValuesTheBuggyTreeHas(t *testing.T) {
	fix, tests := mustParse(t, pflagFix), mustParse(t, pflagTest)
	read := func(p string) ([]byte, error) { return []byte(pflagFixed[p]), nil }
	inBase := func(s string) bool { return s == "[=true|false]" || s == "true" || s == "bool" } // the buggy tree has all three
	if rs := Requirements(fix, tests, Files{Fixed: read}, inBase); len(rs) != 0 {
		t.Fatalf("requirements %+v for a value the base has", rs)
	}
}

// assertNoFixLines fails when an added line of the fix (other than the
// allowed literal) appears in the section: a requirement is a value the
// tests observe, never the solution's code.
func assertNoFixLines(t *testing.T, section string, fix []unidiffFile, allowed ...string) {
	t.Helper()
	for _, f := range fix {
		for _, h := range f.Hunks {
			for _, l := range h.Lines {
				line := strings.TrimSpace(l.Text)
				if l.Kind != '+' || len(line) < 8 {
					continue
				}
				ok := false
				for _, a := range allowed {
					ok = ok || strings.Contains(line, a) && strings.Contains(section, a) && !strings.Contains(section, line)
				}
				if !ok && strings.Contains(section, line) {
					t.Errorf("the section quotes the fix's line %q:\n%s", line, section)
				}
			}
		}
	}
}

func contains(xs []string, x string) bool {
	for _, v := range xs {
		if v == x {
			return true
		}
	}
	return false
}

// TestRequirementsOnRealPRs runs the derivation on one merged PR per
// language from the bundles: the value the PR's tests check must be
// listed, and no line of the fix's code with it.
func TestRequirementsOnRealPRs(t *testing.T) {
	repos := sharedRepos(t)
	cases := []struct{ bundle, commit, lang, want string }{
		{"spf13+cobra", "ad460ea8f249db69c943a365fb84f3a59042d54e", "go", "duplicate argument … for …"},
		{"pallets+click", "831c8f0948af519e45b90801d7430ff25451f972", "python", "(Did you mean one of: …?)"},
		{"jshttp+cookie", "0d99d747a5478ad46d415cf11d595a530f9aead0", "javascript", "option expires is invalid"},
		{"tokio-rs+bytes", "fd9243f9e2fe2027243b1a23d518c723c24a17b7", "rust", "advance out of bounds: the len is … but advancing by …"},
		{"square+javapoet", "8d27eca70744894c83fd5bdbbd564f9e5c5ea946", "java", "Not enough parameters were given; expected …, got …"},
		{"p-ranav+argparse", "ab0a28c3bff3b358fd861fa1cb66f1a96b22e1c7", "cpp", "Nothing parsed, no arguments are available."},
		// json-c's tests diff their output against an expected file the PR extends.
		{"json-c+json-c", "eed664e06a3cb6ebb0cd7a458527ed3e853394a3", "c", "Patch object 'op' field is not a string"},
	}
	for _, c := range cases {
		t.Run(c.lang, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), c.bundle)
			if out, err := exec.Command("git", "clone", "-q", "--no-checkout", filepath.Join(repos, c.bundle+".bundle"), dir).CombinedOutput(); err != nil {
				t.Fatalf("clone: %v\n%s", err, out)
			}
			diff, err := exec.Command("git", "-C", dir, "diff", "--no-renames", c.commit+"^1", c.commit).Output()
			if err != nil {
				t.Fatal(err)
			}
			fix, tests := splitTests(mustParse(t, string(diff)))
			show := func(rev string) func(string) ([]byte, error) {
				return func(p string) ([]byte, error) { return exec.Command("git", "-C", dir, "show", rev+":"+p).Output() }
			}
			inBase := func(s string) bool {
				return exec.Command("git", "-C", dir, "grep", "-q", "-F", "-I", "-e", s, c.commit+"^1", "--").Run() == nil
			}
			rs := Requirements(fix, tests, Files{Fixed: show(c.commit), Base: show(c.commit + "^1")}, inBase)
			sec := RequirementsSection(rs, nil)
			if !strings.Contains(sec, "`"+c.want+"`") {
				t.Fatalf("section lacks %q:\n%s", c.want, sec)
			}
			assertNoFixLines(t, sec, fix, c.want)
		})
	}
}

// A lint suppression's argument in a test is not a value the test checks.
func TestLintSuppressionIsNoRequirement(t *testing.T) {
	fix := mustParse(t, "diff --git a/A.java b/A.java\n--- a/A.java\n+++ b/A.java\n@@ -1,2 +1,3 @@\n class A {\n+  static final String W = \"ExposedPrivateType\";\n }\n")
	tests := mustParse(t, "diff --git a/ATest.java b/ATest.java\n--- a/ATest.java\n+++ b/ATest.java\n@@ -1,2 +1,4 @@\n class ATest {\n+  @SuppressWarnings(\"ExposedPrivateType\")\n+  void t() {}\n }\n")
	files := map[string]string{
		"A.java":     "class A {\n  static final String W = \"ExposedPrivateType\";\n}\n",
		"ATest.java": "class ATest {\n  @SuppressWarnings(\"ExposedPrivateType\")\n  void t() {}\n}\n",
	}
	read := func(p string) ([]byte, error) { return []byte(files[p]), nil }
	if rs := Requirements(fix, tests, Files{Fixed: read}, func(string) bool { return false }); len(rs) != 0 {
		t.Errorf("requirements %+v from a @SuppressWarnings argument", rs)
	}
}

// An import path the fix and the tests both add is a dependency, not a
// value the tests check (found on a held-out Go PR whose Requirements
// section read "`net/netip`").
func TestImportPathIsNoRequirement(t *testing.T) {
	cases := []struct{ name, fixFile, fixSrc, testFile, testSrc string }{
		{"go block", "ip.go", "package m\n\nimport (\n\t\"net/netip\"\n)\n\nvar _ netip.Addr\n",
			"ip_test.go", "package m\n\nimport (\n\tnp \"net/netip\"\n\t\"testing\"\n)\n\nfunc TestIP(t *testing.T) { _ = np.Addr{} }\n"},
		{"go single", "ip.go", "package m\n\nimport \"net/netip\"\n\nvar _ netip.Addr\n",
			"ip_test.go", "package m\n\nimport \"net/netip\"\n\nfunc TestIP(t *testing.T) { _ = netip.Addr{} }\n"},
		{"typescript", "src/ip.ts", "import {parse} from 'ip-codec';\nexport const f = parse;\n",
			"test/ip.ts", "import test from 'ava';\nconst codec = require('ip-codec');\nconst lazy = import('ip-codec');\ntest('x', t => t.is(1, 1));\n"},
	}
	for _, c := range cases {
		fix := mustParse(t, addedFileDiff(c.fixFile, c.fixSrc))
		tests := mustParse(t, addedFileDiff(c.testFile, c.testSrc))
		files := map[string]string{c.fixFile: c.fixSrc, c.testFile: c.testSrc}
		read := func(p string) ([]byte, error) { return []byte(files[p]), nil }
		if rs := Requirements(fix, tests, Files{Fixed: read}, func(string) bool { return false }); len(rs) != 0 {
			t.Errorf("%s: requirements %+v from an import path", c.name, rs)
		}
	}
	// A value beside the import is still one.
	src := "package m\n\nimport \"errors\"\n\nvar E = errors.New(\"bad address\")\n"
	test := "package m\n\nimport \"testing\"\n\nfunc TestE(t *testing.T) { if E.Error() != \"bad address\" { t.Fatal() } }\n"
	files := map[string]string{"e.go": src, "e_test.go": test}
	read := func(p string) ([]byte, error) { return []byte(files[p]), nil }
	rs := Requirements(mustParse(t, addedFileDiff("e.go", src)), mustParse(t, addedFileDiff("e_test.go", test)), Files{Fixed: read}, func(string) bool { return false })
	if len(rs) != 1 || rs[0].Value != "bad address" {
		t.Errorf("requirements %+v, want the one error text", rs)
	}
}

// addedFileDiff is a diff that adds the file whole.
func addedFileDiff(name, src string) string {
	lines := strings.Split(strings.TrimSuffix(src, "\n"), "\n")
	var b strings.Builder
	fmt.Fprintf(&b, "diff --git a/%s b/%s\nnew file mode 100644\n--- /dev/null\n+++ b/%s\n@@ -0,0 +1,%d @@\n", name, name, name, len(lines))
	for _, l := range lines {
		b.WriteString("+" + l + "\n")
	}
	return b.String()
}
