package cfamily

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"curate/internal/testenv"
	"curate/pipeline/envgen"
	"curate/pipeline/validate/parse"
)

// cToolchain is what the runner's Docker tests install on the test base
// image: one image for all of them.
var cToolchain = []string{"g++", "make", "cmake", "ninja-build", "meson", "autoconf", "automake", "libtool", "doctest-dev", "libgtest-dev", "libboost-test-dev", "ccache", "pkg-config"}

// runCbuild writes a project to /app (read-only) and runs a shell command
// with curate-cbuild on the path; it returns the combined output.
func runCbuild(t *testing.T, files map[string]string, command string) string {
	t.Helper()
	return runCbuildWith(t, nil, files, command)
}

// runCbuildWith is runCbuild with more `docker run` flags (a memory limit).
func runCbuildWith(t *testing.T, flags []string, files map[string]string, command string) string {
	t.Helper()
	img := testenv.PackagesImage(t, cToolchain...)
	dir := t.TempDir()
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	args := append([]string{"run", "--rm"}, flags...)
	// The helper programs, as the image has them (Plan.Tools).
	for _, tool := range []string{"curate-cbuild.sh", "curate-cc.sh", "curate-ctestids.py", "curate-citest.sh", "curate-testlines.py", "curate-automake.sh", "curate-cmakeoff.py", "curate-cmakeconf.sh", "curate-cdeps.sh", "curate-pydeps.py", "curate-gtestsrc.sh"} {
		file, err := filepath.Abs(tool)
		if err != nil {
			t.Fatal(err)
		}
		args = append(args, "-v", file+":/usr/local/bin/"+strings.TrimSuffix(strings.TrimSuffix(tool, ".sh"), ".py")+":ro")
	}
	args = append(args,
		"-v", dir+":/app:ro", img, "bash", "-c", command)
	out, err := exec.Command("docker", args...).CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	return string(out)
}

func wantAll(t *testing.T, out string, wants ...string) {
	t.Helper()
	for _, want := range wants {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// One doctest binary built from several test files, one of which does not
// compile against the buggy tree (a PR's new test for a function the bug
// lacks): the runner leaves that file out and the other files' cases still
// run and pass, and the file is one failing compile test. Shape found on
// a header-only C++ library whose 35 test files make one binary: before,
// the binary did not link and every case of every file became
// FAIL_TO_PASS ("error: 'store_into' is not a member" in the new file).
// Make too: a project built with Make (an ExternalProject) lost the whole
// binary to one file, since only Ninja's "FAILED:" lines were read
// (jbeder/yaml-cpp, 2019's PR 530, make's "*** [...build.make:N: ...o]").
func TestCbuildLeavesOutATestFileThatDoesNotCompileInDocker(t *testing.T) {
	for _, gen := range []string{"Ninja", "Unix Makefiles"} {
		t.Run(strings.Fields(gen)[0], func(t *testing.T) { leavesOutATestFile(t, gen) })
	}
}

func leavesOutATestFile(t *testing.T, gen string) {
	out := runCbuild(t, map[string]string{
		"CMakeLists.txt":      "cmake_minimum_required(VERSION 3.16)\nproject(widget CXX)\nenable_testing()\nadd_subdirectory(test)\n",
		"include/widget.hpp":  "inline int add(int a, int b) { return a + b; }\n",
		"test/CMakeLists.txt": "find_package(doctest REQUIRED)\nadd_executable(widget_tests main.cpp test_add.cpp test_sub.cpp)\ntarget_include_directories(widget_tests PRIVATE ${PROJECT_SOURCE_DIR}/include)\ntarget_link_libraries(widget_tests doctest::doctest)\nadd_test(NAME widget_tests COMMAND widget_tests)\n",
		"test/main.cpp":       "#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN\n#include <doctest/doctest.h>\n",
		"test/test_add.cpp":   "#include <doctest/doctest.h>\n#include \"widget.hpp\"\nTEST_CASE(\"add works\") { CHECK(add(1, 2) == 3); }\n",
		"test/test_sub.cpp":   "#include <doctest/doctest.h>\n#include \"widget.hpp\"\nTEST_CASE(\"sub works\") { CHECK(sub(3, 2) == 1); }\n",
	}, "export CURATE_CMAKE_GENERATOR='"+gen+"'; curate-cbuild configure cmake /tmp/b >/dev/null && curate-cbuild build cmake /tmp/b --lenient >/dev/null; "+
		"curate-cbuild test cmake /tmp/b test_sub; echo \"exit $?\"; cat /logs/verifier/c-junit.xml")
	wantAll(t, out,
		"left out of their targets (they do not compile), so the other tests still run: /app/test/test_sub.cpp",
		`name="add works"`,
		`<testcase classname="compile" name="test_sub.cpp"><failure message="did not compile: /app/test/test_sub.cpp:3:`,
		"exit 1")
	if strings.Contains(out, `name="sub works"`) {
		t.Errorf("a case of the file left out ran:\n%s", out)
	}
}

// A bug that makes a GoogleTest binary crash leaves no XML report, so none
// of its tests had a result and all of them became FAIL_TO_PASS (found on
// a YAML library: 1063 FAIL_TO_PASS for a bug one test catches, "yaml-cpp
// tests ...***Exception: SegFault"). The runner runs the binary again
// without the test that crashed: that test fails, the others keep theirs.
func TestCbuildGoogleTestCrashInDocker(t *testing.T) {
	out := runCbuild(t, map[string]string{
		"CMakeLists.txt": "cmake_minimum_required(VERSION 3.16)\nproject(widget CXX)\nenable_testing()\nfind_package(GTest REQUIRED)\n" +
			"add_executable(widget_tests widget_test.cpp)\ntarget_link_libraries(widget_tests GTest::gtest_main)\nadd_test(NAME widget_tests COMMAND widget_tests)\n",
		"widget_test.cpp": "#include <gtest/gtest.h>\n#include <csignal>\n" +
			"TEST(A, Passes) { EXPECT_EQ(1 + 1, 2); }\nTEST(B, Crashes) { std::raise(SIGSEGV); }\nTEST(C, AlsoPasses) { EXPECT_EQ(2 + 2, 4); }\nTEST(C, Fails) { EXPECT_EQ(2 + 2, 5); }\n",
	}, "curate-cbuild configure cmake /tmp/b >/dev/null && curate-cbuild build cmake /tmp/b >/dev/null && "+
		"curate-cbuild test cmake /tmp/b; echo \"exit $?\"; cat /logs/verifier/c-junit.xml")
	wantAll(t, out, "exit 1",
		"curate: widget_tests crashed in B.Crashes; run again without it",
		`<testcase classname="B" name="Crashes"><failure message="crashed`)
	for _, re := range []string{`<testcase name="Passes"[^>]*classname="A" */>`, `<testcase name="AlsoPasses"[^>]*classname="C" */>`, `<testcase name="Fails"[^>]*classname="C"[^/]*>\s*<failure`} {
		if !regexp.MustCompile(re).MatchString(out) {
			t.Errorf("report lacks %s:\n%s", re, out)
		}
	}
}

// The same crash where CTest runs each case on its own
// (gtest_discover_tests): the crashed case has no GoogleTest report, and
// CTest's entry for it keeps its id, Suite.Test, not Suite.Test.Suite.Test
// (an HTTP library's case crashed in one repeat and was then two tests:
// HttpToHttpsRedirectTest.CertFile and its doubled name, "unstable").
// A CTest test with no dot in its name keeps its id as before.
func TestCbuildDiscoveredGoogleTestCrashKeepsItsIdInDocker(t *testing.T) {
	out := runCbuild(t, map[string]string{
		"CMakeLists.txt": "cmake_minimum_required(VERSION 3.16)\nproject(widget CXX)\nenable_testing()\nfind_package(GTest REQUIRED)\ninclude(GoogleTest)\n" +
			"add_executable(widget_tests widget_test.cpp)\ntarget_link_libraries(widget_tests GTest::gtest_main)\ngtest_discover_tests(widget_tests)\n" +
			"add_test(NAME plain_check COMMAND false)\n",
		"widget_test.cpp": "#include <gtest/gtest.h>\n#include <csignal>\n" +
			"TEST(A, Passes) { EXPECT_EQ(1 + 1, 2); }\nTEST(B, Crashes) { std::raise(SIGSEGV); }\n",
	}, "curate-cbuild configure cmake /tmp/b >/dev/null && curate-cbuild build cmake /tmp/b >/dev/null && "+
		"curate-cbuild test cmake /tmp/b >/dev/null 2>&1; echo \"exit $?\"; cat /logs/verifier/c-junit.xml")
	rep := parse.ForFormat("ctest", []byte(out))
	want := map[string]parse.Status{"A.Passes": parse.Passed, "B.Crashes": parse.Failed, "plain_check.plain_check": parse.Failed}
	for id, st := range want {
		if rep.Tests[id] != st {
			t.Errorf("%s: %q, want %q", id, rep.Tests[id], st)
		}
	}
	for id := range rep.Tests {
		if _, ok := want[id]; !ok {
			t.Errorf("unexpected test id %s", id)
		}
	}
	if t.Failed() {
		t.Logf("%s", out)
	}
}

// A GoogleTest binary with one test that waits forever (a server that
// never started: cpp-httplib's PR 1015, 2021, whose ./test slept in
// hrtimer_nanosleep until the 900 s limit) wrote no XML, so every test
// of the suite was lost. The runner stops a binary that prints nothing
// for CURATE_TEST_STALL seconds and runs it again without the test it
// hung in: that test fails, the others keep their results. Plain Make,
// the path where no CTest runs the binary.
func TestCbuildGoogleTestHangInDocker(t *testing.T) {
	out := runCbuild(t, map[string]string{
		"Makefile": "all : test\n\t./test\ntest : test.cc\n\t$(CXX) -o $@ test.cc -lgtest -lgtest_main -pthread\nclean:\n\trm -f test\n",
		"test.cc": "#include <gtest/gtest.h>\n#include <unistd.h>\n" +
			"TEST(A, Passes) { EXPECT_EQ(1 + 1, 2); }\nTEST(B, WaitsForever) { for (;;) sleep(1); }\nTEST(C, Fails) { EXPECT_EQ(2 + 2, 5); }\n",
	}, "cp -r /app /tmp/src && export CURATE_SRC=/tmp/src CURATE_TEST_STALL=3 && curate-cbuild build make /tmp/b >/dev/null; "+
		"curate-cbuild test make /tmp/b; echo \"exit $?\"; cat /logs/verifier/c-junit.xml")
	wantAll(t, out, "exit 1",
		"curate: test hung (no output for 3 s or 900 s in all) in B.WaitsForever; run again without it",
		`<testcase classname="B" name="WaitsForever"><failure message="hung`)
	for _, re := range []string{`<testcase name="Passes"[^>]*classname="A" */>`, `<testcase name="Fails"[^>]*classname="C"[^/]*>\s*<failure`} {
		if !regexp.MustCompile(re).MatchString(out) {
			t.Errorf("report lacks %s:\n%s", re, out)
		}
	}
}

// A suite in one file whose whole run takes minutes (cpp-httplib's
// test.cc: 800 cases, 5 to 20 minutes a run) runs only the cases the PR
// changed (CURATE_TESTS), both where the runner runs the binary itself
// (plain Make) and where CTest lists each case (gtest_discover_tests). A
// name the binary lacks is dropped, not a filter that runs nothing.
func TestCbuildRunsOnlyTheChangedGoogleTestCasesInDocker(t *testing.T) {
	src := "#include <gtest/gtest.h>\nTEST(A, Passes) { EXPECT_EQ(1 + 1, 2); }\nTEST(B, Changed) { EXPECT_EQ(2 + 2, 5); }\nTEST(C, AlsoChanged) { EXPECT_EQ(3, 3); }\n"
	out := runCbuild(t, map[string]string{
		"Makefile": "all : test\n\t./test\ntest : test.cc\n\t$(CXX) -o $@ test.cc -lgtest -lgtest_main -pthread\nclean:\n\trm -f test\n",
		"test.cc":  src,
	}, "cp -r /app /tmp/src && export CURATE_SRC=/tmp/src CURATE_TESTS=B.Changed:C.AlsoChanged:D.Gone && curate-cbuild build make /tmp/b >/dev/null; "+
		"curate-cbuild test make /tmp/b; echo \"exit $?\"; cat /logs/verifier/c-junit.xml")
	wantAll(t, out, "exit 1", "curate: test: the cases the PR changed: B.Changed C.AlsoChanged", `name="Changed"`, `name="AlsoChanged"`)
	if strings.Contains(out, `name="Passes"`) {
		t.Errorf("make: a case the PR did not change ran:\n%s", out)
	}
	out = runCbuild(t, map[string]string{
		"CMakeLists.txt": "cmake_minimum_required(VERSION 3.16)\nproject(widget CXX)\nenable_testing()\nfind_package(GTest REQUIRED)\ninclude(GoogleTest)\n" +
			"add_executable(widget_tests test.cc)\ntarget_link_libraries(widget_tests GTest::gtest_main)\ngtest_discover_tests(widget_tests)\n",
		"test.cc": src,
	}, "export CURATE_TESTS=B.Changed:C.AlsoChanged && curate-cbuild configure cmake /tmp/b >/dev/null && curate-cbuild build cmake /tmp/b >/dev/null && "+
		"curate-cbuild test cmake /tmp/b test; echo \"exit $?\"; cat /logs/verifier/c-junit.xml")
	wantAll(t, out, "exit 1", `name="Changed"`, `name="AlsoChanged"`)
	if strings.Contains(out, `name="Passes"`) {
		t.Errorf("ctest: a case the PR did not change ran:\n%s", out)
	}
	// Each case is reported once, by GoogleTest (Suite.Test), not again
	// by CTest as "B.Changed.B.Changed" (found on cpp-httplib PR 2544:
	// 2 FAIL_TO_PASS for its one changed case).
	if n := strings.Count(out, `name="B.Changed"`); n != 0 {
		t.Errorf("ctest: CTest's entry for a case GoogleTest reported stays (%d):\n%s", n, out)
	}
}

// A home-grown test runner that prints its failures and exits 0
// ("Tests failed: 1", a C JSON library's tests.c): the binary fails.
// One that prints "Tests failed: 0" passes.
func TestCbuildBinaryThatCountsFailuresInDocker(t *testing.T) {
	for failed, want := range map[string]string{"1": `<failure message="exit 0, but it printed: Tests failed: 1"/>`, "0": `<testcase classname="binary" name="test"/>`} {
		out := runCbuild(t, map[string]string{
			"Makefile": "all : test\n\t./test\ntest : test.c\n\t$(CC) -o $@ test.c\nclean:\n\trm -f test\n",
			"test.c":   "#include <stdio.h>\nint main(void) { printf(\"Tests failed: " + failed + "\\nTests passed: 12\\n\"); return 0; }\n",
		}, "cp -r /app /tmp/src && export CURATE_SRC=/tmp/src && curate-cbuild build make /tmp/b >/dev/null; curate-cbuild test make /tmp/b >/dev/null; echo \"exit $?\"; cat /logs/verifier/c-junit.xml")
		wantAll(t, out, want)
	}
}

// A Makefile whose default goal builds the test binary and runs it
// ("all : test" then "./test": cpp-httplib's test/Makefile, 2015-2021,
// whose suite then ran at image build and again in every build of
// test.sh, minutes each, and whose test_split, the same suite, ran too):
// only the goal's prerequisites are built, and the runner runs the binary
// the recipe runs, once, with its report.
func TestCbuildMakeBuildsWithoutRunningTheDefaultGoalsTestsInDocker(t *testing.T) {
	out := runCbuild(t, map[string]string{
		"Makefile": "all : test test_split\n\t./test\ntest : test.c Makefile\n\t$(CC) -o $@ test.c\ntest_split : test.c\n\t$(CC) -o $@ test.c\nclean:\n\trm -f test test_split\n",
		"test.c":   "#include <stdio.h>\nint main(void) { FILE *f = fopen(\"/tmp/runs\", \"a\"); fputs(\"ran\\n\", f); fclose(f); return 0; }\n",
	}, "cp -r /app /tmp/src && export CURATE_SRC=/tmp/src && curate-cbuild build make /tmp/b >/dev/null; echo \"runs after build: $(cat /tmp/runs 2>/dev/null | wc -l)\"; "+
		"curate-cbuild test make /tmp/b >/dev/null; echo \"exit $?; runs after test: $(wc -l < /tmp/runs)\"; cat /logs/verifier/c-junit.xml")
	// test_split is built (the project checks that it links) but the
	// recipe does not run it, so the runner does not either.
	wantAll(t, out, "runs after build: 0", "exit 0; runs after test: 1", `<testcase classname="binary" name="test"/>`)
	if strings.Contains(out, "test_split") {
		t.Errorf("a binary the project does not run was run:\n%s", out)
	}
}

// Meson: the runner reads meson test's own JUnit log; a failing test is a
// failure, a passing one passes.
func TestCbuildMesonInDocker(t *testing.T) {
	out := runCbuild(t, map[string]string{
		"meson.build": "project('widget', 'c')\n" +
			"test('adds', executable('t_add', 't_add.c'))\ntest('subtracts', executable('t_sub', 't_sub.c'))\n",
		"t_add.c": "int main(void) { return 1 + 1 == 2 ? 0 : 1; }\n",
		"t_sub.c": "int main(void) { return 3 - 2 == 2 ? 0 : 1; }\n",
	}, "curate-cbuild configure meson /tmp/b >/dev/null && curate-cbuild build meson /tmp/b >/dev/null && "+
		"curate-cbuild test meson /tmp/b >/dev/null; echo \"exit $?\"; cat /logs/verifier/c-junit.xml")
	wantAll(t, out, "exit 1", `name="adds"`, `name="subtracts"`)
	if n := strings.Count(out, "<failure"); n != 1 {
		t.Errorf("%d failures, want 1 (subtracts):\n%s", n, out)
	}
}

// A plain Makefile whose tests are shell scripts (a compression library's
// tests/Makefile: test-fullbench, test-lz4-basic, ...) left no report, so
// all 8 PRs were nop_not_run. The target named after the PR's test file
// (fullbench.c: test-fullbench, in tests/) runs alone, as one test; with
// no such target, the whole test target is one test.
func TestCbuildMakeTargetsAsTestsInDocker(t *testing.T) {
	files := map[string]string{
		"Makefile":           "all:\n\t@true\ntest:\n\t$(MAKE) -C tests $@\n",
		"tests/Makefile":     "test: test-fullbench test-other\ntest-fullbench:\n\t./fullbench.sh\ntest-other:\n\t@echo other; exit 1\n",
		"tests/fullbench.sh": "#!/bin/sh\necho fullbench ran\n",
		"tests/fullbench.c":  "int main(void) { return 0; }\n",
	}
	cmd := "cp -r /app /tmp/src && chmod +x /tmp/src/tests/fullbench.sh && export CURATE_SRC=/tmp/src && curate-cbuild build make /tmp/b >/dev/null; curate-cbuild test make /tmp/b %s; echo \"exit $?\"; cat /logs/verifier/c-junit.xml"
	out := runCbuild(t, files, fmt.Sprintf(cmd, "fullbench"))
	wantAll(t, out, "fullbench ran", "exit 0", `<testcase classname="make" name="tests/test-fullbench"/>`)
	if strings.Contains(out, "echo other") {
		t.Errorf("the whole test target ran:\n%s", out)
	}
	out = runCbuild(t, files, fmt.Sprintf(cmd, "parser"))
	wantAll(t, out, "exit 1", "curate: make test reports no test of its own", `<testcase classname="make" name="test"><failure message="exit 2"/>`)
}

// A test that never ends (a bug that loops) is stopped after
// CURATE_TEST_TIMEOUT seconds and fails; the tests that finished keep
// their results. Before, `make check` and a doctest or Catch2 binary ran
// until the container's limit, which left no result at all (timeout).
func TestCbuildStopsATestThatNeverEndsInDocker(t *testing.T) {
	hang := "#include <stdio.h>\n#include <unistd.h>\nint main(int argc, char **argv) { if (argc > 99) { puts(\"doctest\"); puts(\"--reporters\"); } for (;;) pause(); }\n"
	out := runCbuild(t, map[string]string{
		"configure.ac": "AC_INIT([widget], [1.0])\nAM_INIT_AUTOMAKE([foreign subdir-objects])\nAC_PROG_CC\nAC_CONFIG_FILES([Makefile])\nAC_OUTPUT\n",
		"Makefile.am":  "check_PROGRAMS = t_add t_hang t_doctest\nTESTS = t_add t_hang\n",
		"t_add.c":      "int main(void) { return 0; }\n",
		"t_hang.c":     hang,
		"t_doctest.c":  hang,
	}, "cp -r /app /tmp/src && export CURATE_SRC=/tmp/src CURATE_TEST_TIMEOUT=3 && curate-cbuild configure autotools /tmp/b >/dev/null && "+
		"start=$(date +%s); curate-cbuild test autotools /tmp/b; echo \"exit $? after $(( $(date +%s) - start )) s\"; cat /logs/verifier/c-junit.xml; "+
		"grep -q '/t_hang.log$' /tmp/curate-running && echo 'running before the stop: t_hang'")
	wantAll(t, out, "exit 1 after",
		"curate: make check stopped after 3 s",
		// Automake's test driver deletes its log when signalled, and Make
		// did not always say "Deleting file" (1 CI run in 3): the logs of
		// the tests running a second before the stop name it.
		"running before the stop: t_hang",
		`<testcase classname="automake" name="t_add"/>`,
		`<testcase classname="automake" name="t_hang"><failure message="stopped after 3 s: it never finished"/>`,
		`<testcase classname="binary" name="t_doctest"><failure message="stopped after 3 s: it never finished"/>`)
}

// A test that allocates until the container's memory limit (jq's
// del(.[nan]) loop, 3490, before its fix) is the one process the kernel
// kills: make check goes on, that test fails and the others keep their
// results, which is why validation lets such a buggy-state run stand
// (validate.oomIsTheBug).
func TestCbuildATestKilledAtTheMemoryLimitFailsAloneInDocker(t *testing.T) {
	eat := "#include <stdlib.h>\n#include <string.h>\nint main(void) { for (;;) { char *p = malloc(8 << 20); if (!p) return 2; memset(p, 1, 8 << 20); } }\n"
	out := runCbuildWith(t, []string{"--memory", "512m", "--memory-swap", "512m"}, map[string]string{
		"configure.ac": "AC_INIT([widget], [1.0])\nAM_INIT_AUTOMAKE([foreign subdir-objects])\nAC_PROG_CC\nAC_CONFIG_FILES([Makefile])\nAC_OUTPUT\n",
		"Makefile.am":  "check_PROGRAMS = t_add t_eat\nTESTS = t_eat t_add\n",
		"t_add.c":      "int main(void) { return 0; }\n",
		"t_eat.c":      eat,
	}, "cp -r /app /tmp/src && export CURATE_SRC=/tmp/src && curate-cbuild configure autotools /tmp/b >/dev/null && "+
		"curate-cbuild test autotools /tmp/b; echo \"exit $?\"; cat /logs/verifier/c-junit.xml")
	wantAll(t, out, "exit 1",
		`<testcase classname="automake" name="t_add"/>`,
		`<testcase classname="automake" name="t_eat"><failure message="FAIL"/>`)
}

// Autotools: configure made by autoreconf, `make check` through
// Automake's test driver; each test's .trs is one result. A failing
// test's own log reaches the run's output (Make prints only FAIL).
func TestCbuildAutotoolsInDocker(t *testing.T) {
	out := runCbuild(t, map[string]string{
		"configure.ac": "AC_INIT([widget], [1.0])\nAM_INIT_AUTOMAKE([foreign subdir-objects])\nAC_PROG_CC\nAC_CONFIG_FILES([Makefile])\nAC_OUTPUT\n",
		"Makefile.am":  "check_PROGRAMS = t_add t_sub\nTESTS = t_add t_sub\n",
		"t_add.c":      "int main(void) { return 0; }\n",
		"t_sub.c":      "#include <stdio.h>\nint main(void) { puts(\"sub: expected 2, got 3\"); return 1; }\n",
	}, "cp -r /app /tmp/src && export CURATE_SRC=/tmp/src && curate-cbuild configure autotools /tmp/b >/dev/null && "+
		"curate-cbuild test autotools /tmp/b; echo \"exit $?\"; cat /logs/verifier/c-junit.xml")
	wantAll(t, out, "exit 1",
		`<testcase classname="automake" name="t_add"/>`,
		`<testcase classname="automake" name="t_sub"><failure message="FAIL"/>`,
		// The failing test's own log says why: Make prints only FAIL.
		"t_sub.log: sub: expected 2, got 3")
}

// Autotools with a libtool library, built again with no change (what
// test.sh does on the image's buggy tree): the library's .so went with the
// other linked outputs but its .la stayed, Make found the library up to
// date, and the program did not link ("cannot find ./.libs/libjq.so": a
// JSON processor's 7 of 8 PRs were nop_not_run).
func TestCbuildAutotoolsLibtoolRebuildInDocker(t *testing.T) {
	out := runCbuild(t, map[string]string{
		"configure.ac": "AC_INIT([widget], [1.0])\nAM_INIT_AUTOMAKE([foreign subdir-objects])\nLT_INIT\nAC_PROG_CC\nAC_CONFIG_FILES([Makefile])\nAC_OUTPUT\n",
		"Makefile.am":  "lib_LTLIBRARIES = libw.la\nlibw_la_SOURCES = w.c\ncheck_PROGRAMS = t_w\nt_w_LDADD = libw.la\nTESTS = t_w\n",
		"w.c":          "int w(void) { return 2; }\n",
		"t_w.c":        "int w(void);\nint main(void) { return w() == 2 ? 0 : 1; }\n",
	}, "cp -r /app /tmp/src && export CURATE_SRC=/tmp/src && curate-cbuild configure autotools /tmp/b >/dev/null 2>&1 && "+
		"curate-cbuild build autotools /tmp/b >/dev/null 2>&1 && curate-cbuild build autotools /tmp/b 2>&1 | grep -E 'error|cannot find'; "+
		"curate-cbuild test autotools /tmp/b >/dev/null 2>&1; echo \"exit $?\"; cat /logs/verifier/c-junit.xml")
	wantAll(t, out, "exit 0", `<testcase classname="automake" name="t_w"/>`)
	if strings.Contains(out, "cannot find") {
		t.Errorf("the second build did not link:\n%s", out)
	}
}

// Plain Make: `make test`, and a test binary nothing reports for is one
// test, its exit status.
func TestCbuildMakeInDocker(t *testing.T) {
	out := runCbuild(t, map[string]string{
		"Makefile":      "all: test_widget\ntest_widget: test_widget.c\n\t$(CC) -o $@ $<\ntest: all\n\t./test_widget\nclean:\n\trm -f test_widget\n",
		"test_widget.c": "int main(void) { return 0; }\n",
	}, "cp -r /app /tmp/src && export CURATE_SRC=/tmp/src && curate-cbuild test make /tmp/b; echo \"exit $?\"; cat /logs/verifier/c-junit.xml")
	wantAll(t, out, "exit 0", `<testcase classname="binary" name="test_widget"/>`)
}

// An ExternalProject that installs a library an IMPORTED target names,
// without BUILD_BYPRODUCTS: Ninja stops before building anything
// ("missing and no known rule to make it"; jbeder/yaml-cpp at bd7f8c60,
// PR 656, "'test/prefix/lib/libgmock.a', needed by 'test/run-tests'"), so
// the plan picks Make for such projects and the runner builds and tests
// with it.
func TestCbuildExternalProjectWithMakeInDocker(t *testing.T) {
	files := map[string]string{
		"CMakeLists.txt": "cmake_minimum_required(VERSION 3.16)\nproject(widget C)\ninclude(ExternalProject)\nenable_testing()\n" +
			"ExternalProject_Add(dep SOURCE_DIR ${PROJECT_SOURCE_DIR}/dep INSTALL_DIR ${CMAKE_BINARY_DIR}/prefix CMAKE_ARGS -DCMAKE_INSTALL_PREFIX:PATH=<INSTALL_DIR>)\n" +
			"add_library(dep_lib STATIC IMPORTED)\nset_target_properties(dep_lib PROPERTIES IMPORTED_LOCATION ${CMAKE_BINARY_DIR}/prefix/lib/libdep.a)\n" +
			"add_executable(widget_test widget_test.c)\nadd_dependencies(widget_test dep)\ntarget_link_libraries(widget_test dep_lib)\nadd_test(NAME widget_test COMMAND widget_test)\n",
		"dep/CMakeLists.txt": "cmake_minimum_required(VERSION 3.16)\nproject(dep C)\nadd_library(dep STATIC dep.c)\ninstall(TARGETS dep ARCHIVE DESTINATION lib)\n",
		"dep/dep.c":          "int dep(void) { return 42; }\n",
		"widget_test.c":      "int dep(void);\nint main(void) { return dep() == 42 ? 0 : 1; }\n",
	}
	if got := externalProjectWithoutByproducts(envgen.MapTree("o/r", files)); got != "CMakeLists.txt" {
		t.Errorf("plan: %q, want the root CMakeLists.txt named", got)
	}
	out := runCbuild(t, files, "export CURATE_CMAKE_GENERATOR='Unix Makefiles'; curate-cbuild configure cmake /tmp/b >/dev/null && curate-cbuild build cmake /tmp/b >/dev/null && "+
		"curate-cbuild test cmake /tmp/b; echo \"exit $?\"; cat /logs/verifier/c-junit.xml")
	wantAll(t, out, "exit 0", `name="widget_test"`)
	if strings.Contains(out, "no known rule") {
		t.Errorf("Ninja's error with Make chosen:\n%s", out)
	}
}

// A project that makes every warning an error, compiled by a newer g++
// than its CI's: CMake's compiler launcher keeps warnings warnings and
// compiles through ccache (jbeder/yaml-cpp at 2019's PR 807: its bundled
// GoogleTest 1.10 under the project's -Werror stopped on g++ 12's
// "'dummy' may be used uninitialized [-Werror=maybe-uninitialized]" in
// both states).
func TestCbuildLauncherCapsWerrorInDocker(t *testing.T) {
	out := runCbuild(t, map[string]string{
		"CMakeLists.txt": "cmake_minimum_required(VERSION 3.16)\nproject(widget C)\nset(CMAKE_C_FLAGS \"${CMAKE_C_FLAGS} -Wall -Werror\")\nenable_testing()\n" +
			"add_executable(widget_test widget_test.c)\nadd_test(NAME widget_test COMMAND widget_test)\n",
		"widget_test.c": "int main(void) { int unused = 1; return 0; }\n",
	}, "export CCACHE_DIR=/tmp/cc; curate-cbuild configure cmake /tmp/b -DCMAKE_C_COMPILER_LAUNCHER=curate-cc >/dev/null && curate-cbuild build cmake /tmp/b && "+
		"curate-cbuild test cmake /tmp/b; echo \"exit $?\"; ccache -s | grep -i 'cache size\\|misses'")
	wantAll(t, out, "exit 0", "warning: unused variable", "Misses:             1")
	if strings.Contains(out, "error: unused variable") {
		t.Errorf("-Werror still makes the warning an error:\n%s", out)
	}
}

// A bug that loops (libgit2's zstream, in the eleventh held-out set): its
// test never ends on the buggy tree, and at load 9 the suite before it
// took 20 minutes, so the container's 30-minute limit cut the run with no
// result and both NOP and gold were classed timeout. Given the verifier's
// limit, the tests stop a margin before it: the looping test fails, the
// others keep their results.
func TestCbuildStopsALoopingTestBeforeTheVerifierLimitInDocker(t *testing.T) {
	out := runCbuild(t, map[string]string{
		"CMakeLists.txt": "cmake_minimum_required(VERSION 3.16)\nproject(widget C)\nenable_testing()\n" +
			"add_executable(quick_test quick_test.c)\nadd_test(NAME quick_test COMMAND quick_test)\n" +
			"add_executable(loop_test loop_test.c)\nadd_test(NAME loop_test COMMAND loop_test)\n",
		"quick_test.c": "int main(void) { return 0; }\n",
		"loop_test.c":  "int main(void) { volatile int spin = 1; while (spin) {} return 0; }\n",
	}, "curate-cbuild configure cmake /tmp/b >/dev/null && curate-cbuild build cmake /tmp/b >/dev/null && "+
		"s=$(date +%s); CURATE_VERIFIER_TIMEOUT=75 timeout 200 curate-cbuild test cmake /tmp/b; echo \"exit $? after $(($(date +%s) - s)) s\"; cat /logs/verifier/c-junit.xml")
	wantAll(t, out, `name="quick_test"`, `name="loop_test"`)
	if !regexp.MustCompile(`exit 1 after [0-9] s|exit 1 after [1-5][0-9] s`).MatchString(out) {
		t.Errorf("the looping test was not stopped before the verifier's limit (75 s, 60 s margin):\n%s", out)
	}
	if !regexp.MustCompile(`<testcase[^>]*name="loop_test"[^>]*>\s*<failure`).MatchString(out) {
		t.Errorf("the looping test is not a failure:\n%s", out)
	}
}

// A bug.patch that drops a source from Makefile.am, on a tree configured
// at the PR head with AM_MAINTAINER_MODE: with --enable-maintainer-mode
// (the plan passes it) Make makes the Makefiles again and the suite runs;
// without it Make looked for the dropped file (a cryptography library's
// NOP: "No rule to make target", nop_not_run).
func TestCbuildMaintainerModeFollowsAChangedMakefileAmInDocker(t *testing.T) {
	out := runCbuild(t, map[string]string{
		"configure.ac": "AC_INIT([widget], [1.0])\nAM_INIT_AUTOMAKE([foreign subdir-objects])\nAM_MAINTAINER_MODE\nAC_PROG_CC\nAC_CONFIG_FILES([Makefile])\nAC_OUTPUT\n",
		"Makefile.am":  "check_PROGRAMS = t_w\nt_w_SOURCES = t_w.c extra.c\nTESTS = t_w\n",
		"t_w.c":        "int main(void) { return 0; }\n",
		"extra.c":      "int extra(void) { return 1; }\n",
	}, "cp -r /app /tmp/src && export CURATE_SRC=/tmp/src && curate-cbuild configure autotools /tmp/b --enable-maintainer-mode >/dev/null 2>&1 && "+
		"curate-cbuild build autotools /tmp/b >/dev/null 2>&1 && sleep 1 && rm /tmp/src/extra.c && "+
		"printf 'check_PROGRAMS = t_w\\nt_w_SOURCES = t_w.c\\nTESTS = t_w\\n' > /tmp/src/Makefile.am && "+
		"curate-cbuild test autotools /tmp/b >/tmp/o 2>&1; echo \"exit $?\"; grep -m1 'No rule' /tmp/o; cat /logs/verifier/c-junit.xml")
	wantAll(t, out, "exit 0", `<testcase classname="automake" name="t_w"/>`)
	if strings.Contains(out, "No rule") {
		t.Errorf("Make looked for the dropped source:\n%s", out)
	}
}

// A Boost.Test binary that CI runs directly (no add_test): a hash map's
// suite was one test, "binary.tsl_robin_map_tests", so a PR whose new
// cases do not compile on the bug (left out of the binary there) had no
// FAIL_TO_PASS. Its own JUnit names each case, and a failing one fails.
func TestCbuildBoostTestBinaryReportsItsCasesInDocker(t *testing.T) {
	out := runCbuild(t, map[string]string{
		"CMakeLists.txt": "cmake_minimum_required(VERSION 3.16)\nproject(map_tests CXX)\nfind_package(Boost REQUIRED COMPONENTS unit_test_framework)\n" +
			"add_executable(map_tests main.cpp)\ntarget_link_libraries(map_tests Boost::unit_test_framework)\ntarget_compile_definitions(map_tests PRIVATE BOOST_TEST_DYN_LINK)\n",
		"main.cpp": "#define BOOST_TEST_MODULE map\n#include <boost/test/unit_test.hpp>\nBOOST_AUTO_TEST_SUITE(test_map)\n" +
			"BOOST_AUTO_TEST_CASE(test_insert) { BOOST_CHECK(1 + 1 == 2); }\nBOOST_AUTO_TEST_CASE(test_erase) { BOOST_CHECK(1 + 1 == 3); }\nBOOST_AUTO_TEST_SUITE_END()\n",
	}, "curate-cbuild configure cmake /tmp/b >/dev/null && curate-cbuild build cmake /tmp/b >/dev/null && "+
		"curate-cbuild test cmake /tmp/b; echo \"exit $?\"; cat /logs/verifier/c-junit.xml")
	wantAll(t, out, `name="test_insert"`, `name="test_erase"`, "<failure", "exit 1")
	if strings.Contains(out, `classname="binary"`) {
		t.Errorf("the Boost.Test binary was one test:\n%s", out)
	}
}
