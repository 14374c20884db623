package cfamily

import (
	"strings"
	"testing"

	"curate/pipeline/envgen"
)

// rootRefusingTest is a test runner that stops at once as root, as an
// event-loop library's does, and writes into its working folder.
const rootRefusingTest = `#include <stdio.h>
#include <unistd.h>
int main(void) {
  if (getuid() == 0) {
    fprintf(stderr, "The widget test suite cannot be run as root.\n");
    return 1;
  }
  FILE *f = fopen("scratch.txt", "w");
  if (!f) return 2;
  fputs("ok\n", f);
  return fclose(f) != 0;
}
`

// An event-loop library's test runner refuses root ("The libuv test
// suite cannot be run as root."); validation containers run as root, so
// all six of its PRs failed in both states. A suite whose test sources
// say so runs as nobody; one that only mentions root does not.
func TestPlanRunsARootRefusingSuiteAsNobody(t *testing.T) {
	for _, c := range []struct {
		src  string
		want bool
	}{
		{rootRefusingTest, true},
		{"/* run as root for the raw socket test */\nint main(void) { return 0; }\n", false},
		{"#include <stdio.h>\nint main(void) { puts(\"do not run as root\"); return 0; }\n", false},
		// A terminal escape in the message never reaches the task's notes.
		{"int main(void) { if (geteuid() == 0) { puts(\"\x1b[2J cannot be run as root\"); return 1; } return 0; }\n", false},
	} {
		tree := envgen.MapTree("o/n", map[string]string{"CMakeLists.txt": "project(w C)\n", "test/runner.c": c.src})
		p, err := (lang{"c"}).Plan(tree, envgen.Tests{Files: []string{"test/runner.c"}})
		if err != nil {
			t.Fatal(err)
		}
		if strings.ContainsRune(strings.Join(p.Notes, ""), 0x1b) {
			t.Errorf("a terminal escape reached the notes: %q", p.Notes)
		}
		if got := contains(p.Env, "CURATE_TEST_USER=nobody"); got != c.want {
			t.Errorf("CURATE_TEST_USER=nobody: %v, want %v (env %q)", got, c.want, p.Env)
		}
	}
}

// Built as root, the suite runs as CURATE_TEST_USER and can write into
// its build folder.
func TestCbuildRunsTheTestsAsTheTestUserInDocker(t *testing.T) {
	out := runCbuild(t, map[string]string{
		"CMakeLists.txt": "cmake_minimum_required(VERSION 3.16)\nproject(w C)\nenable_testing()\nadd_executable(runner runner.c)\nadd_test(NAME runner COMMAND runner)\n",
		"runner.c":       rootRefusingTest,
	}, "curate-cbuild configure cmake /tmp/b >/dev/null && curate-cbuild build cmake /tmp/b >/dev/null && "+
		"CURATE_TEST_USER=nobody curate-cbuild test cmake /tmp/b; echo \"exit $?\"; cat /logs/verifier/c-junit.xml; echo; echo owner: $(stat -c '%U' /tmp/b/scratch.txt)")
	wantAll(t, out, "curate: the tests run as nobody", "exit 0", `<testcase name="runner" classname="runner"`, "owner: nobody")
	if strings.Contains(out, "cannot be run as root") {
		t.Errorf("the suite ran as root:\n%s", out)
	}
}
