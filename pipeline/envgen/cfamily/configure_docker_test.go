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
