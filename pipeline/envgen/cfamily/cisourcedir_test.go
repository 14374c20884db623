package cfamily

import (
	"strings"
	"testing"

	"curate/pipeline/envgen"
)

// A header-only hash map's root CMakeLists.txt only declares and installs
// the library; its CI configures the tests with `cmake ... -S
// ${{github.workspace}}/tests`. Configured from the root, no test was
// built and 2 of 4 PRs were nop_not_run. The CI's folder is used when it
// holds the PR's tests and the root does not add it.
func TestPlanConfiguresFromTheFolderTheCIGivesCMake(t *testing.T) {
	ci := "    - run: cmake -DCMAKE_BUILD_TYPE=${{matrix.build}} -S ${{github.workspace}}/tests -B ${{github.workspace}}/build\n"
	files := map[string]string{
		"CMakeLists.txt":           "project(map CXX)\nadd_library(map INTERFACE)\n",
		"include/map.h":            "#pragma once\n",
		"tests/CMakeLists.txt":     "project(map_tests)\nadd_executable(map_tests main.cpp)\nadd_test(map_tests map_tests)\n",
		"tests/main.cpp":           "int main() {}\n",
		".github/workflows/ci.yml": ci,
	}
	p, err := (lang{"cpp"}).Plan(envgen.MapTree("o/map", files), envgen.Tests{Files: []string{"tests/main.cpp"}})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.Join(p.Env, " "), "CURATE_SRC=/app/tests") || !strings.Contains(strings.Join(p.Notes, "\n"), "the CI configures CMake from tests/") {
		t.Errorf("env %v notes %v", p.Env, p.Notes)
	}
	// An older Travis file changes into the folder, then runs cmake.
	delete(files, ".github/workflows/ci.yml")
	files[".travis.yml"] = "script:\n  - cd tests\n  - mkdir build\n  - cd build\n  - cmake -DCMAKE_BUILD_TYPE=Debug ..\n"
	p, _ = (lang{"cpp"}).Plan(envgen.MapTree("o/map", files), envgen.Tests{Files: []string{"tests/main.cpp"}})
	if !strings.Contains(strings.Join(p.Env, " "), "CURATE_SRC=/app/tests") {
		t.Errorf("travis: env %v notes %v", p.Env, p.Notes)
	}
	// The root adds the folder: its build reaches the tests.
	files["CMakeLists.txt"] += "add_subdirectory(tests)\n"
	p, _ = (lang{"cpp"}).Plan(envgen.MapTree("o/map", files), envgen.Tests{Files: []string{"tests/main.cpp"}})
	if strings.Contains(strings.Join(p.Env, " "), "CURATE_SRC") {
		t.Errorf("the root adds tests/, yet env %v", p.Env)
	}
	// The PR's tests are elsewhere.
	files["CMakeLists.txt"] = "project(map CXX)\n"
	p, _ = (lang{"cpp"}).Plan(envgen.MapTree("o/map", files), envgen.Tests{Files: []string{"other/t.cpp"}})
	if strings.Contains(strings.Join(p.Env, " "), "CURATE_SRC") {
		t.Errorf("the PR's tests are not in tests/, yet env %v", p.Env)
	}
}
