package cfamily

import (
	"strings"
	"testing"

	"curate/pipeline/envgen"
)

// FuzzPlanFromBuildFiles feeds untrusted build files, a CI workflow and a
// vendored test header to the planner: it must not panic, and nothing it
// read may break the Dockerfile out of its lines (an ENV, a RUN or a note
// that spills onto a line of its own would be an instruction of its own).
func FuzzPlanFromBuildFiles(f *testing.F) {
	f.Add("cmake_minimum_required(VERSION 3.16)\nproject(x CXX)\nenable_testing()\nfind_package(ZLIB REQUIRED)\nFetchContent_Declare(googletest URL x)\noption(X_BUILD_TESTS \"\" OFF)\nset(GOOGLETEST_PATH \"${CMAKE_CURRENT_SOURCE_DIR}/g\" CACHE PATH \"\")\n",
		"jobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n      - run: sudo apt-get install -y libssl-dev locales\n      - run: cmake -B b -DCMAKE_CXX_STANDARD=20 && ctest\n        env: {GTEST_FILTER: '-*Online*'}\n",
		"    constexpr static std::size_t sigStackSize = 32768 >= MINSIGSTKSZ ? 32768 : MINSIGSTKSZ;\n")
	f.Add("project(y C)\nadd_test(NAME t COMMAND t)\nExternalProject_Add(s GIT_REPOSITORY x)\n# LC_ALL=de_DE.UTF-8 re2c\n", "", "static char altStackMem[4 * SIGSTKSZ];\n")
	f.Add("include(CTest)\nset(CMAKE_CXX_STANDARD 99)\n", "jobs:\n  t:\n    steps:\n      - run: cmake -DCMAKE_CXX_STANDARD=\"1\n7\" .\n", "\x1b[2J")
	f.Fuzz(func(t *testing.T, cmake, ci, header string) {
		tree := envgen.MapTree("o/n", map[string]string{
			"CMakeLists.txt": cmake, "tests/CMakeLists.txt": cmake, "src/a.cpp": "", "tests/t.cpp": "TEST(A, B) {}\n",
			"tests/catch.hpp": header, ".github/workflows/ci.yml": ci, "meson.build": cmake,
		})
		p, err := (lang{"cpp"}).Plan(tree, envgen.Tests{Files: []string{"tests/t.cpp"}, Changed: []string{"A.B"}})
		if err != nil {
			return
		}
		for _, e := range p.Env {
			if k, _, ok := strings.Cut(e, "="); !ok || k == "" || strings.ContainsAny(e, "\n\r") {
				t.Errorf("env %q is not KEY=VALUE on one line", e)
			}
		}
		df := envgen.Dockerfile("o__n-1", "curate/base:bookworm", p, envgen.Network{}, envgen.RepoConfig{}, true)
		for _, l := range strings.Split(df, "\n") {
			if l == "" || strings.HasPrefix(l, "#") || strings.HasPrefix(l, " ") {
				continue
			}
			switch strings.Fields(l)[0] {
			case "FROM", "ARG", "RUN", "ENV", "COPY", "ADD", "WORKDIR":
			default:
				t.Fatalf("a line of the Dockerfile is no instruction: %q\n%s", l, df)
			}
		}
	})
}
