package cfamily

import (
	"strings"
	"testing"
)

// A test the project disabled (CTest's DISABLED property: a logging
// library's demangler test, off for this compiler) stays unrun when
// another binary crashes and curate runs the GoogleTest binaries CTest ran
// one by one to find the crashed case: before, the disabled binary ran
// too, and its three failing cases made the Oracle fail. Nor is a
// disabled doctest binary run for its cases.
func TestCbuildLeavesADisabledTestUnrunInDocker(t *testing.T) {
	out := runCbuild(t, map[string]string{
		"CMakeLists.txt": "cmake_minimum_required(VERSION 3.16)\nproject(widget CXX)\nenable_testing()\nfind_package(GTest REQUIRED)\n" +
			"add_executable(widget_tests widget_test.cpp)\ntarget_link_libraries(widget_tests GTest::gtest_main)\nadd_test(NAME widget_tests COMMAND widget_tests)\n" +
			"add_executable(demangle_unittest demangle_test.cpp)\ntarget_link_libraries(demangle_unittest GTest::gtest_main)\nadd_test(NAME demangle COMMAND demangle_unittest)\n" +
			"find_package(doctest REQUIRED)\nadd_executable(legacy_tests legacy_test.cpp)\ntarget_link_libraries(legacy_tests doctest::doctest)\nadd_test(NAME legacy COMMAND legacy_tests)\n" +
			"set_tests_properties(demangle legacy PROPERTIES DISABLED TRUE)\n",
		"widget_test.cpp":   "#include <gtest/gtest.h>\n#include <csignal>\nTEST(A, Passes) { EXPECT_EQ(1 + 1, 2); }\nTEST(B, Crashes) { std::raise(SIGSEGV); }\n",
		"demangle_test.cpp": "#include <gtest/gtest.h>\nTEST(Demangle, CornerCases) { EXPECT_EQ(1, 2); }\n",
		"legacy_test.cpp":   "#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN\n#include <doctest/doctest.h>\nTEST_CASE(\"legacy breaks\") { CHECK(1 == 2); }\n",
	}, "curate-cbuild configure cmake /tmp/b >/dev/null && curate-cbuild build cmake /tmp/b >/dev/null && "+
		"curate-cbuild test cmake /tmp/b; echo \"exit $?\"; cat /logs/verifier/c-junit.xml")
	wantAll(t, out, "exit 1", "curate: widget_tests crashed in B.Crashes; run again without it", `classname="A"`)
	for _, ran := range []string{`classname="Demangle"`, `name="legacy breaks"`} {
		if strings.Contains(out, ran) {
			t.Errorf("a disabled test's binary ran (%s):\n%s", ran, out)
		}
	}
}
