package cfamily

import (
	"strings"
	"testing"

	"curate/pipeline/envgen"
)

// Catch2 3 is not in Debian 12 (2.13 is): a project whose tests include
// catch2/catch_test_macros.hpp, or whose CMake asks for Catch2 3, gets it
// from bookworm-backports; one on Catch2 2 (catch2/catch.hpp) keeps
// Debian 12's package.
func TestPlanCatch2Version(t *testing.T) {
	for _, c := range []struct {
		name  string
		files map[string]string
		want3 bool
	}{
		{"v3 header", map[string]string{"CMakeLists.txt": "enable_testing()\nfind_package(Catch2 REQUIRED)\n", "src/a.cpp": "",
			"tests/t.cpp": "#include <catch2/catch_test_macros.hpp>\nTEST_CASE(\"x\") {}\n"}, true},
		{"v3 fetched", map[string]string{"CMakeLists.txt": "enable_testing()\ninclude(FetchContent)\nFetchContent_Declare(Catch2\n  GIT_REPOSITORY https://github.com/catchorg/Catch2.git\n  GIT_TAG v3.4.0)\nFetchContent_MakeAvailable(Catch2)\n",
			"src/a.cpp": "", "tests/t.cpp": "#include \"catch2/catch_all.hpp\"\n"}, true},
		{"v3 asked", map[string]string{"tests/CMakeLists.txt": "find_package(Catch2 3 REQUIRED)\n", "CMakeLists.txt": "enable_testing()\n", "src/a.cpp": ""}, true},
		{"v2", map[string]string{"CMakeLists.txt": "enable_testing()\nfind_package(Catch2 REQUIRED)\n", "src/a.cpp": "",
			"tests/t.cpp": "#include <catch2/catch.hpp>\n// catch2/catch_test_macros.hpp is for v3\n"}, false},
	} {
		p, err := (lang{"cpp"}).Plan(envgen.MapTree("o/n", c.files), envgen.Tests{Files: []string{"tests/t.cpp"}})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		steps := strings.Join(p.ToolchainSteps, "\n")
		got3 := strings.Contains(steps, "-t bookworm-backports catch2")
		if got3 != c.want3 {
			t.Errorf("%s: Catch2 3 step = %v, want %v\n%s", c.name, got3, c.want3, steps)
		}
		if got2 := contains(p.Packages, "catch2"); got2 == c.want3 {
			t.Errorf("%s: Debian 12's catch2 in the packages = %v, want %v: %v", c.name, got2, !c.want3, p.Packages)
		}
	}
}

// The step really installs Catch2 3 from the Debian archive, and a
// project that fetches it with FetchContent builds offline against it
// (FETCHCONTENT_TRY_FIND_PACKAGE_MODE=ALWAYS) and reports its cases.
func TestCatch3FromBackportsInDocker(t *testing.T) {
	out := runCbuild(t, map[string]string{
		"CMakeLists.txt": "cmake_minimum_required(VERSION 3.16)\nproject(widget CXX)\nenable_testing()\ninclude(FetchContent)\n" +
			"FetchContent_Declare(Catch2 GIT_REPOSITORY https://github.com/catchorg/Catch2.git GIT_TAG v3.4.0)\nFetchContent_MakeAvailable(Catch2)\n" +
			"add_executable(tests tests/t.cpp)\ntarget_link_libraries(tests PRIVATE Catch2::Catch2WithMain)\ninclude(Catch)\ncatch_discover_tests(tests)\n",
		"tests/t.cpp": "#include <catch2/catch_test_macros.hpp>\nTEST_CASE(\"adds\") { REQUIRE(1 + 1 == 2); }\nTEST_CASE(\"subtracts\") { REQUIRE(3 - 2 == 2); }\n",
	}, "("+catch3Step()+") >/dev/null 2>&1 || { echo 'catch3 step failed'; exit 0; }; "+
		"curate-cbuild configure cmake /tmp/b -DFETCHCONTENT_TRY_FIND_PACKAGE_MODE=ALWAYS >/dev/null && curate-cbuild build cmake /tmp/b >/dev/null && "+
		"curate-cbuild test cmake /tmp/b >/dev/null; echo \"exit $?\"; cat /logs/verifier/c-junit.xml")
	wantAll(t, out, "exit 1", `name="adds"`, `name="subtracts"`)
	// Each case once: catch_discover_tests makes CTest run it on its own
	// too, and CTest's copy is dropped (it counted twice before).
	if strings.Contains(out, "catch3 step failed") || strings.Count(out, "<failure") != 1 || strings.Count(out, `name="adds"`) != 1 {
		t.Errorf("want Catch2 3 installed, each case once and 1 failure (subtracts):\n%s", out)
	}
}
