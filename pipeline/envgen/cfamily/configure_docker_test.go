package cfamily

import (
	"strings"
	"testing"
)

// A configure step that fails says why from CMake's error, not from a
// package an optional find_package missed: a CLI parser's CUDA test
// switch found no nvcc and the task was classed deps_missing "Doxygen"
// (its docs are optional: "-- Could NOT find Doxygen"). A REQUIRED
// package that is missing is still deps_missing, naming it.
func TestCbuildConfigureFailureNamesTheErrorInDocker(t *testing.T) {
	for _, c := range []struct {
		cmake, want, not string
	}{
		{"find_package(Doxygen)\nenable_language(CUDA)\n", "compile_error: the project does not configure at the PR head: CMake Error", "Doxygen"},
		{"find_package(Doxygen)\nfind_package(Zzzlib REQUIRED)\n", "deps_missing: Zzzlib (the cmake configure step", "Doxygen"},
		{"find_package(PkgConfig REQUIRED)\npkg_check_modules(ZZZ REQUIRED zzz-nothere)\n", "deps_missing: zzz-nothere", "Doxygen"},
	} {
		out := runCbuild(t, map[string]string{
			"CMakeLists.txt": "cmake_minimum_required(VERSION 3.16)\nproject(widget CXX)\n" + c.cmake,
		}, "curate-cbuild configure cmake /tmp/b 2>&1 | grep '^curate:'; true")
		if !strings.Contains(out, c.want) || strings.Contains(out, c.not) {
			t.Errorf("%q: want %q and no %q:\n%s", c.cmake, c.want, c.not, out)
		}
	}
}

// A Makefile that compiles and links the test in one command: a PR's
// test that does not compile on the buggy tree (it calls a method the bug
// lacks) is a failing test named by its source, not a run with no report
// (an HTTP library's 2020 PR: nop_not_run, gold infra_error).
func TestCbuildMakeCompileErrorIsAFailingTestInDocker(t *testing.T) {
	out := runCbuild(t, map[string]string{
		"Makefile": "all : test\n\t./test\ntest : test.c\n\t$(CC) -o $@ test.c\nclean:\n\trm -f test\n",
		"test.c":   "int missing(void);\nint main(void) { return missing(; }\n",
	}, "cp -r /app /tmp/src && export CURATE_SRC=/tmp/src && curate-cbuild test make /tmp/b >/dev/null; echo \"exit $?\"; cat /logs/verifier/c-junit.xml")
	wantAll(t, out, "exit 1", `<testcase classname="compile" name="test.c"><failure message="did not compile: test.c:2:`)
}
