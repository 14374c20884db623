package cfamily

import (
	"strings"
	"testing"

	"curate/pipeline/envgen"
)

// A test framework's self-tests: CATCH_BUILD_TESTING is a
// cmake_dependent_option on CATCH_DEVELOPMENT_BUILD, so the switch alone
// builds no test; the option its condition names is turned on too.
func TestATestSwitchsDependentOptionIsTurnedOn(t *testing.T) {
	files := map[string]string{
		"CMakeLists.txt": `project(Catch2 LANGUAGES CXX VERSION 3.8.1)
include(CMakeDependentOption)
option(CATCH_INSTALL_DOCS "Install documentation alongside library" ON)
option(CATCH_DEVELOPMENT_BUILD "Build tests, enable warnings, enable Werror, etc" OFF)
option(CATCH_ENABLE_REPRODUCIBLE_BUILD "Add compiler flags for reproducible builds" ON)
cmake_dependent_option(CATCH_BUILD_TESTING "Build the SelfTest project" ON "CATCH_DEVELOPMENT_BUILD" OFF)
cmake_dependent_option(CATCH_BUILD_EXAMPLES "Build code examples" OFF "CATCH_DEVELOPMENT_BUILD" OFF)
# cmake_dependent_option(CATCH_BUILD_TESTING "old" ON "CATCH_INSTALL_DOCS" OFF)
cmake_dependent_option(CATCH_TESTS_EXTRA "x" OFF "NOT CATCH_ENABLE_REPRODUCIBLE_BUILD" OFF)
if (CATCH_BUILD_TESTING)
  add_subdirectory(tests)
endif()
`,
		"src/catch.cpp": "", "tests/SelfTest/TestMain.cpp": "",
	}
	p, err := (lang{"cpp"}).Plan(envgen.MapTree("o/n", files), envgen.Tests{Files: []string{"tests/SelfTest/TestMain.cpp"}})
	if err != nil {
		t.Fatal(err)
	}
	configure := strings.Join(p.Install, "\n")
	for _, want := range []string{"-DCATCH_BUILD_TESTING=ON", "-DCATCH_DEVELOPMENT_BUILD=ON"} {
		if !strings.Contains(configure, want) {
			t.Errorf("configure step lacks %s:\n%s", want, configure)
		}
	}
	for _, not := range []string{"CATCH_BUILD_EXAMPLES", "CATCH_INSTALL_DOCS=ON", "CATCH_ENABLE_REPRODUCIBLE_BUILD=ON"} {
		if strings.Contains(configure, not) {
			t.Errorf("configure step sets %s, which no test switch needs:\n%s", not, configure)
		}
	}
	if !strings.Contains(strings.Join(p.Notes, "\n"), "CATCH_DEVELOPMENT_BUILD=ON: the test switch CATCH_BUILD_TESTING is a cmake_dependent_option on it") {
		t.Errorf("no note says why CATCH_DEVELOPMENT_BUILD is on: %q", p.Notes)
	}
}

// nghttp2/nghttp2 (held out, thirteenth set): CMakeOptions.txt, which the
// root CMakeLists.txt includes, declares cmake_dependent_option(BUILD_TESTING
// "Enable tests" ON "BUILD_STATIC_LIBS" OFF), and BUILD_STATIC_LIBS is off
// by default: with -DBUILD_TESTING=ON alone the tests were never
// configured (nop_not_run once its submodules were in the archive).
func TestBuildTestingsDependentOptionInAnIncludedFileIsTurnedOn(t *testing.T) {
	files := map[string]string{
		"CMakeLists.txt": "project(nghttp2 C)\ninclude(CMakeDependentOption)\ninclude(CMakeOptions.txt)\n# include(Other.txt)\n" +
			"if(BUILD_TESTING)\n  add_subdirectory(tests)\nendif()\n",
		"CMakeOptions.txt": "option(BUILD_SHARED_LIBS \"shared\" ON)\noption(BUILD_STATIC_LIBS \"static also\" OFF)\n" +
			"option(ENABLE_DOC \"docs\" ON)\ncmake_dependent_option(BUILD_TESTING \"Enable tests\" ON \"BUILD_STATIC_LIBS\" OFF)\n",
		"Other.txt":             "option(UNRELATED \"x\" OFF)\ncmake_dependent_option(BUILD_TESTING \"x\" ON \"UNRELATED\" OFF)\n",
		"lib/nghttp2_session.c": "", "tests/nghttp2_session_test.c": "",
	}
	p, err := (lang{"c"}).Plan(envgen.MapTree("o/n", files), envgen.Tests{Files: []string{"tests/nghttp2_session_test.c"}})
	if err != nil {
		t.Fatal(err)
	}
	configure := strings.Join(p.Install, "\n")
	if !strings.Contains(configure, "-DBUILD_STATIC_LIBS=ON") {
		t.Errorf("configure step lacks -DBUILD_STATIC_LIBS=ON:\n%s", configure)
	}
	if strings.Contains(configure, "UNRELATED") {
		t.Errorf("configure step reads a commented-out include:\n%s", configure)
	}
}
