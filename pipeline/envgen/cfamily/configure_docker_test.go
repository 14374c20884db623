package cfamily

import (
	"strings"
	"testing"

	"curate/pipeline/validate/parse"
)

// A configure step that fails says why from CMake's error, not from a
// package an optional find_package missed: a CLI parser's CUDA test
// switch found no nvcc and the task was classed deps_missing "Doxygen"
// (its docs are optional: "-- Could NOT find Doxygen"). A REQUIRED
// package that is missing is still deps_missing, naming it, also when
// CMake wraps its name onto the next line.
func TestCbuildConfigureFailureNamesTheErrorInDocker(t *testing.T) {
	for _, c := range []struct {
		cmake, want, not string
	}{
		{"find_package(Doxygen)\nenable_language(CUDA)\n", "compile_error: the project does not configure at the PR head: CMake Error", "Doxygen"},
		{"find_package(Doxygen)\nfind_package(Zzzlib REQUIRED)\n", "deps_missing: Zzzlib (the cmake configure step", "Doxygen"},
		{"find_package(PkgConfig REQUIRED)\npkg_check_modules(ZZZ REQUIRED zzz-nothere)\n", "deps_missing: zzz-nothere", "Doxygen"},
		// CMake wraps the package's name onto the next line (a Boost
		// component's config: "provided by\n  \"boost_serialization\"").
		{"find_package(zzzlib_serialization_component 1.74.0 CONFIG REQUIRED)\n", "deps_missing: zzzlib_serialization_component (the cmake", "compile_error"},
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

// The failing tests are in the run's log as a JUnit suite, which is all
// validation has of an Oracle run: the log parser of the task's format
// finds exactly them (an HTTP library's Oracle runs failed only on tests
// that need the internet, were classed nop_not_run for want of names, and
// never got their known-failures pass).
func TestCbuildPrintsTheFailingTestsInDocker(t *testing.T) {
	out := runCbuild(t, map[string]string{
		"meson.build": "project('widget', 'c')\n" +
			"test('adds', executable('t_add', 't_add.c'))\ntest('subtracts', executable('t_sub', 't_sub.c'))\n",
		"t_add.c": "int main(void) { return 1 + 1 == 2 ? 0 : 1; }\n",
		"t_sub.c": "int main(void) { return 3 - 2 == 2 ? 0 : 1; }\n",
	}, "curate-cbuild configure meson /tmp/b >/dev/null && curate-cbuild build meson /tmp/b >/dev/null && "+
		"curate-cbuild test meson /tmp/b 2>&1; echo \"exit $?\"")
	rep := parse.ForFormat("ctest", []byte(out))
	var failing []string
	for name, st := range rep.Tests {
		if st.Fail() {
			failing = append(failing, name)
		}
	}
	if len(failing) != 1 || !strings.HasSuffix(failing[0], "subtracts") || !strings.Contains(out, "curate: failing tests:") {
		t.Errorf("failing tests read from the log %v, want the one that subtracts:\n%s", failing, out)
	}
}

// A git submodule the archive lacks, when the configure step needs it, is
// deps_missing naming it (a UTF-8 library's add_subdirectory(extern/gtest)
// on a clone without submodules was classed compile_error; so was an
// HTTP/2 library whose third-party/CMakeLists.txt compiles
// urlparse/urlparse.c, a submodule's file, on all six PRs tried).
func TestCbuildMissingSubmoduleIsDepsMissingInDocker(t *testing.T) {
	const project = "cmake_minimum_required(VERSION 3.16)\nproject(widget C)\n"
	for _, c := range []struct {
		files     map[string]string
		submodule string
	}{
		// A directory without the submodule's CMakeLists.txt (git archive
		// leaves a gitlink's directory empty) and none at all.
		{map[string]string{"CMakeLists.txt": project + "add_subdirectory(extern/benchlib)\n", "extern/benchlib/README": ""}, "extern/benchlib"},
		{map[string]string{"CMakeLists.txt": project + "add_subdirectory(extern/benchlib)\n", "README": ""}, "extern/benchlib"},
		{map[string]string{"CMakeLists.txt": project + "add_subdirectory(third-party)\n",
			"third-party/CMakeLists.txt": "add_library(urlparse STATIC urlparse/urlparse.c)\n"}, "third-party/urlparse"},
	} {
		out := runCbuild(t, c.files, "export CURATE_MISSING_SUBMODULES="+c.submodule+":docs/theme && curate-cbuild configure cmake /tmp/b 2>&1 | grep '^curate:'; true")
		wantAll(t, out, "curate: deps_missing: git submodule "+c.submodule+" (not in the repository archive")
		if strings.Contains(out, "docs/theme") || strings.Contains(out, "compile_error") {
			t.Errorf("%v: named a submodule the error does not, or kept compile_error:\n%s", c.files, out)
		}
	}
}

// A logging library enables only C++; its samples, on by default, enable
// C and fetch an RTOS from GitHub. With the samples off, its tests'
// check_type_size (a C probe) stopped the configure: "try_compile() works
// only for enabled languages". C is enabled after project(), and the
// build tree keeps the file that does it.
func TestCbuildCProbeInACxxProjectConfiguresInDocker(t *testing.T) {
	files := map[string]string{
		"CMakeLists.txt":         "cmake_minimum_required(VERSION 3.16)\nproject(widget LANGUAGES CXX)\noption(W_SAMPLES \"\" ON)\nif(W_SAMPLES)\n  add_subdirectory(samples)\nendif()\ninclude(CheckTypeSize)\ncheck_type_size(wchar_t W_SIZEOF_WCHAR)\n",
		"samples/CMakeLists.txt": "enable_language(C)\nmessage(FATAL_ERROR \"no RTOS\")\n",
	}
	out := runCbuild(t, files, "curate-cbuild configure cmake /tmp/b >/tmp/o 2>&1; echo \"exit $?\"; grep '^curate:' /tmp/o; grep -c '^W_SIZEOF_WCHAR:INTERNAL=4$' /tmp/b/CMakeCache.txt; cmake /tmp/b >/dev/null 2>&1; echo \"again $?\"")
	wantAll(t, out, "configured again with W_SAMPLES off", "configured again with C enabled after project()", "exit 0", "\n1\n", "again 0")
}

// An optional part on by default whose toolchain is missing stops the
// configure (a calendar library's Java bindings: "a Java compiler could
// not be found ... disable Java binding generation using the
// -DX_JAVA_BINDINGS=False CMake option"; all six PRs were compile_error):
// the option whose if() block stopped it is turned off, also one of an
// OR, and the configure goes on, saying so. An option curate turned on (a
// test switch) is never turned off; nor is one whose block is not where
// the error is.
func TestCbuildOptionalPartThatStopsTheConfigureIsTurnedOffInDocker(t *testing.T) {
	const project = "cmake_minimum_required(VERSION 3.16)\nproject(widget C)\n"
	for _, c := range []struct {
		cmake, args string
		want        []string
	}{
		{"option(W_JAVA \"Java bindings\" ON)\nif(W_JAVA)\n  # no javac here\n  message(FATAL_ERROR \"no Java compiler: pass -DW_JAVA=False\")\nendif()\n", "",
			[]string{"curate: note: configured again with W_JAVA off: its if() block stopped the configure at CMakeLists.txt:6", "exit 0"}},
		{"option(W_GLIB \"\" ON)\noption(W_VZIC \"\" OFF)\nif(W_GLIB OR\n   W_VZIC)\n  if(NOT TRUE)\n  else()\n    include(sub.cmake)\n  endif()\nendif()\n", "",
			[]string{"configured again with W_GLIB off: its if() block stopped the configure at CMakeLists.txt:9", "exit 0"}},
		// A path with a space stays one word: the option, not a piece of it.
		{"option(W_VALA \"\" ON)\nif(W_VALA)\n  include(\"sub dir/vala.cmake\")\nendif()\n", "",
			[]string{"configured again with W_VALA off: its if() block stopped the configure at sub_dir/vala.cmake:2", "exit 0"}},
		// add_subdirectory() is not on CMake's call stack: the directory's
		// error is traced to where its parent adds it (samples that fetch a
		// windowing library from GitHub).
		{"option(W_SAMPLES \"\" ON)\nif(W_SAMPLES)\n  add_subdirectory(${CMAKE_CURRENT_SOURCE_DIR}/samples)\nendif()\n", "",
			[]string{"configured again with W_SAMPLES off: its if() block stopped the configure at CMakeLists.txt:5", "exit 0"}},
		{"option(W_EXTRA_TESTS \"\" OFF)\nif(W_EXTRA_TESTS)\n  message(FATAL_ERROR \"no\")\nendif()\n", "-DW_EXTRA_TESTS=ON",
			[]string{"compile_error: the project does not configure", "exit 1"}},
		{"option(W_JAVA \"\" ON)\nif(W_JAVA)\n  set(x 1)\nelse()\nendif()\nmessage(FATAL_ERROR \"no\")\n", "",
			[]string{"compile_error: the project does not configure", "exit 1"}},
	} {
		out := runCbuild(t, map[string]string{"CMakeLists.txt": project + c.cmake, "sub.cmake": "message(FATAL_ERROR \"no GLib\")\n", "sub dir/vala.cmake": "if(W_VALA)\n  message(FATAL_ERROR \"no valac\")\nendif()\n",
			"samples/CMakeLists.txt": "message(STATUS \"samples\")\nmessage(FATAL_ERROR \"no glfw\")\n"},
			"curate-cbuild configure cmake /tmp/b "+c.args+" >/tmp/o 2>&1; echo \"exit $?\"; grep '^curate:' /tmp/o; true")
		wantAll(t, out, c.want...)
		if strings.Contains(out, "configured again") && strings.Contains(c.want[len(c.want)-1], "exit 1") {
			t.Errorf("%q: an option was turned off:\n%s", c.cmake, out)
		}
	}
}

// In Docker, offline: a project that clones GoogleTest's release-1.8.1
// from GitHub at configure time configures, builds and runs its test
// with Debian's source served under GitHub's URL.
func TestCbuildGoogleTestClonedAtConfigureTimeComesFromDebianInDocker(t *testing.T) {
	files := map[string]string{
		"CMakeLists.txt": "cmake_minimum_required(VERSION 3.16)\nproject(w CXX)\nset(CMAKE_CXX_STANDARD 14)\n" +
			"configure_file(CMakeLists.txt.in googletest-download/CMakeLists.txt)\n" +
			"execute_process(COMMAND ${CMAKE_COMMAND} -G \"${CMAKE_GENERATOR}\" . WORKING_DIRECTORY ${CMAKE_BINARY_DIR}/googletest-download)\n" +
			"execute_process(COMMAND ${CMAKE_COMMAND} --build . WORKING_DIRECTORY ${CMAKE_BINARY_DIR}/googletest-download)\n" +
			"add_subdirectory(${CMAKE_BINARY_DIR}/googletest-src ${CMAKE_BINARY_DIR}/googletest-build)\n" +
			"enable_testing()\nadd_executable(t t.cpp)\ntarget_link_libraries(t gtest_main)\nadd_test(t t)\n",
		"CMakeLists.txt.in": "cmake_minimum_required(VERSION 3.5)\nproject(googletest-download NONE)\ninclude(ExternalProject)\n" +
			"ExternalProject_Add(googletest\n  GIT_REPOSITORY https://github.com/google/googletest.git\n  GIT_TAG release-1.8.1\n" +
			"  SOURCE_DIR \"${CMAKE_BINARY_DIR}/googletest-src\"\n  BINARY_DIR \"${CMAKE_BINARY_DIR}/googletest-build\"\n" +
			"  CONFIGURE_COMMAND \"\"\n  BUILD_COMMAND \"\"\n  INSTALL_COMMAND \"\"\n  TEST_COMMAND \"\"\n)\n",
		"t.cpp": "#include <gtest/gtest.h>\nTEST(Served, Runs) { EXPECT_EQ(1, 1); }\n",
	}
	out := runCbuildWith(t, []string{"--network", "none"}, files, "curate-gtestsrc release-1.8.1; curate-cbuild configure cmake /tmp/b >/tmp/o 2>&1; echo \"exit $?\"; "+
		"cmake --build /tmp/b >/tmp/o2 2>&1 && /tmp/b/t | tail -n 1")
	wantAll(t, out, "GoogleTest's GitHub URLs are Debian's source", "exit 0", "[  PASSED  ] 1 test.")
}

// In Docker: g++ 12's headers no longer bring in <limits> (a
// serialization library's stream adapter used std::numeric_limits with
// only its other headers, and 3 of its PRs were compile errors in both
// states). The launcher compiles again with the header GCC names, in C
// and C++; an error no header mends still fails.
func TestCcCompilesAgainWithTheHeaderGCCNamesInDocker(t *testing.T) {
	files := map[string]string{
		"limits.cpp": "#include <ios>\nint biggest() { return std::numeric_limits<int>::max(); }\n",
		"except.cpp": "#include <string>\nvoid fail() { throw std::runtime_error(\"no\"); }\n",
		"u8.c":       "uint8_t small(void) { return 1; }\n",
		"broken.cpp": "int f() { return missing_name; }\n",
	}
	out := runCbuild(t, files, "for f in limits.cpp except.cpp u8.c broken.cpp; do c=g++; [ \"${f##*.}\" = c ] && c=gcc; "+
		"curate-cc $c -c /app/$f -o /tmp/$f.o 2>/tmp/err; echo \"$f exit $?\"; grep '^curate:' /tmp/err; done; true")
	wantAll(t, out, "limits.cpp exit 0", "-include limits", "except.cpp exit 0", "-include stdexcept", "u8.c exit 0", "-include stdint.h", "broken.cpp exit 1")
}
