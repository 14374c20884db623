package cfamily

import (
	"testing"

	"curate/pipeline/validate/parse"
)

// A doctest or Catch2 binary that CTest runs is run again by the runner for
// its cases' own results. It ran in the binary's folder, not where CTest
// runs it, and after CTest had already run its cases one by one; on a
// filesystem library's suite (PR 135, Catch tests registered case by case)
// the second run failed cases CTest had passed, and the fix was
// fix_fails_tests. Now a binary whose cases CTest ran one by one keeps
// CTest's results, and a binary CTest runs whole runs again in CTest's
// WORKING_DIRECTORY.
func TestCbuildRunsFrameworkBinariesWhereCTestDoesInDocker(t *testing.T) {
	reads := "#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN\n#include <doctest/doctest.h>\n#include <fstream>\n#include <string>\n" +
		"TEST_CASE(\"reads its fixture\") { std::ifstream f(\"fixture.txt\"); std::string s; f >> s; CHECK(s == \"ok\"); }\n"
	shared := "#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN\n#include <doctest/doctest.h>\nstatic int runs = 0;\n" +
		"TEST_CASE(\"first\") { ++runs; CHECK(true); }\nTEST_CASE(\"second\") { CHECK(runs == 0); }\n"
	out := runCbuild(t, map[string]string{
		"CMakeLists.txt": "cmake_minimum_required(VERSION 3.16)\nproject(widget CXX)\nenable_testing()\nfind_package(doctest REQUIRED)\ninclude(doctest)\n" +
			"add_executable(reads_test reads.cpp)\ntarget_link_libraries(reads_test doctest::doctest)\n" +
			"add_test(NAME reads_test COMMAND reads_test)\nset_tests_properties(reads_test PROPERTIES WORKING_DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR}/data)\n" +
			"add_executable(shared_test shared.cpp)\ntarget_link_libraries(shared_test doctest::doctest)\ndoctest_discover_tests(shared_test)\n",
		"reads.cpp":        reads,
		"shared.cpp":       shared,
		"data/fixture.txt": "ok\n",
	}, "curate-cbuild configure cmake /tmp/b >/dev/null && curate-cbuild build cmake /tmp/b >/dev/null && "+
		"curate-cbuild test cmake /tmp/b >/dev/null 2>&1; echo \"exit $?\"; cat /logs/verifier/c-junit.xml")
	wantAll(t, out, "exit 0")
	rep := parse.ForFormat("ctest", []byte(out))
	for _, id := range []string{"reads its fixture", "first", "second"} {
		found := false
		for got, st := range rep.Tests {
			if got == id || len(got) > len(id) && got[len(got)-len(id)-1:] == "."+id {
				found = true
				if st != parse.Passed {
					t.Errorf("%s: %q, want passed", got, st)
				}
			}
		}
		if !found {
			t.Errorf("no result for %q in %v", id, rep.Tests)
		}
	}
	if t.Failed() {
		t.Logf("%s", out)
	}
}
