package cfamily

import (
	"strings"
	"testing"
)

// A Makefile's test target that runs prove over a test binary printing
// TAP, as an HTTP parser's does (h2o/picohttpparser, Makefile at 00e1e0d:
// "test: test-bin" then "env $(TEST_ENV) $(PROVE) -v ./test-bin"; its CI
// runs make): make leaves no .trs, and the binary was one test, its exit
// status. Its cases are the tests, named after the script prove ran, and
// the script is one more.
func TestCbuildReadsTheCasesProveRunsUnderMakeInDocker(t *testing.T) {
	out := runCbuild(t, map[string]string{
		"Makefile": "CC?=gcc\nPROVE?=prove\n\nall:\n\ntest: test-bin\n\tenv $(TEST_ENV) $(PROVE) -v ./test-bin\n\n" +
			"test-bin: parser.c test.c\n\t$(CC) -Wall -o $@ $^\n\n.PHONY: all test\n",
		"parser.c": "int parse(const char *s) { return s[0] == 'G' ? 0 : -1; }\n",
		"test.c": "#include <stdio.h>\nint parse(const char *s);\n" +
			"int main(void) {\n  puts(\"1..3\");\n  printf(\"%sok 1 - simple\\n\", parse(\"GET\") == 0 ? \"\" : \"not \");\n" +
			"  printf(\"%sok 2 - partial\\n\", parse(\"PO\") == 0 ? \"\" : \"not \");\n  puts(\"ok 3 - headers # SKIP no fixture\");\n  return 0;\n}\n",
	}, "cp -r /app /tmp/src && export CURATE_SRC=/tmp/src && curate-cbuild build make /tmp/b >/dev/null; "+
		"curate-cbuild test make /tmp/b > /tmp/o 2>&1; echo \"exit $?\"; grep '^curate:' /tmp/o; cat /logs/verifier/c-junit.xml")
	wantAll(t, out, "exit 1", "curate: make test left no .trs",
		`<testcase classname="test-bin" name="simple"/>`,
		`<testcase classname="test-bin" name="partial"><failure`,
		`<testcase classname="test-bin" name="headers"><skipped`,
		`<testcase classname="prove" name="test-bin"><failure`)
	if strings.Contains(out, `classname="binary"`) || strings.Contains(out, `classname="make"`) {
		t.Errorf("the binary or make's target is a test besides prove's cases:\n%s", out)
	}
}

// Automake's serial harness (AM_INIT_AUTOMAKE([serial-tests]), as
// projects written before Automake 1.13 and some after keep) writes no
// .trs: make check prints PASS:/FAIL: per test, and those are the tests.
func TestCbuildReadsAutomakeSerialLinesInDocker(t *testing.T) {
	out := runCbuild(t, map[string]string{
		"configure.ac": "AC_INIT([widget], [1.0])\nAM_INIT_AUTOMAKE([foreign serial-tests])\nAC_PROG_CC\nAC_CONFIG_FILES([Makefile])\nAC_OUTPUT\n",
		"Makefile.am":  "check_PROGRAMS = t_add t_sub\nTESTS = t_add t_sub\nXFAIL_TESTS = t_sub\n",
		"t_add.c":      "int main(void) { return 1 + 1 == 3 ? 0 : 1; }\n",
		"t_sub.c":      "int main(void) { return 1; }\n",
	}, "cp -r /app /tmp/src && export CURATE_SRC=/tmp/src && curate-cbuild configure autotools /tmp/b >/dev/null 2>&1 && "+
		"curate-cbuild test autotools /tmp/b >/tmp/o 2>&1; echo \"exit $?\"; grep '^curate:' /tmp/o; cat /logs/verifier/c-junit.xml")
	wantAll(t, out, "exit 1", "curate: make check left no .trs",
		`<testcase classname="automake" name="t_add"><failure message="FAIL"/>`,
		`<testcase classname="automake" name="t_sub"/>`)
}

// The CI's prove command runs the project's Perl test scripts (the shape
// of TestPlanRunsTheCIsProve): each script's cases are tests, a script
// that dies before its plan is done fails as a script, and the other
// scripts still run.
func TestCitestRunsTheCIsProveInDocker(t *testing.T) {
	out := runCbuild(t, map[string]string{
		"Makefile": "all: hello\nhello: hello.c\n\t$(CC) -o $@ $<\n",
		"hello.c":  "#include <stdio.h>\nint main(int argc, char **argv) { printf(\"hello %s\\n\", argc > 1 ? argv[1] : \"world\"); return 0; }\n",
		"t/001-hello.t": "use Test::More tests => 2;\nis(`./hello`, \"hello world\\n\", 'greets the world');\n" +
			"is(`./hello you`, \"hello them\\n\", 'greets a name');\n",
		"t/002-dies.t": "use Test::More tests => 3;\nok(-x './hello', 'built');\ndie 'no fixture';\n",
		"t/003-ok.t":   "use Test::More tests => 1;\nok(1, 'runs after the others');\n",
	}, "cp -r /app /tmp/src && export CURATE_SRC=/tmp/src && curate-cbuild build make /tmp/b >/dev/null; "+
		"CURATE_CI_TEST='prove -I. -r t/' curate-cbuild test make /tmp/b > /tmp/o 2>&1; echo \"exit $?\"; grep '^curate:' /tmp/o; cat /logs/verifier/c-junit.xml")
	wantAll(t, out, "exit 1",
		`<testcase classname="t/001-hello.t" name="greets the world"/>`,
		`<testcase classname="t/001-hello.t" name="greets a name"><failure`,
		`<testcase classname="t/002-dies.t" name="built"/>`,
		`<testcase classname="prove" name="t/002-dies.t"><failure`,
		`<testcase classname="prove" name="t/003-ok.t"/>`,
		`<testcase classname="t/003-ok.t" name="runs after the others"/>`,
		`<testcase classname="ci" name="prove -I. -r t/"><failure`)
}
