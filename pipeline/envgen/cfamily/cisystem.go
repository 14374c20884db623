package cfamily

import (
	"regexp"

	"curate/pipeline/envgen"
)

// ciRuns are the commands that say a CI runs a build system.
var ciRuns = []struct {
	sys string
	re  *regexp.Regexp
}{
	{"cmake", regexp.MustCompile(`\b(cmake|ctest)\b`)},
	{"meson", regexp.MustCompile(`\bmeson\b`)},
	{"autotools", regexp.MustCompile(`\./configure\b|\bautoreconf\b|\./autogen\.sh\b`)},
	{"make", regexp.MustCompile(`(^|[\s;&|(])make\b`)},
}

// ciBuildSystem is the root's build system the CI runs, when the root has
// several and the CI runs no CMake: a C JSON library with a CMakeLists.txt
// (no tests in it), a meson.build and a Makefile whose test goal builds
// and runs the tests, and whose CI runs only "make all", is built with
// make (kgabis/parson: CMake found no test, nop_not_run). sys otherwise
// (the CI runs CMake, or names none of them).
func ciBuildSystem(tree *envgen.Tree, sys string) string {
	ci := ciText(tree)
	if ci == "" || ciRuns[0].re.MatchString(ci) {
		return sys
	}
	for _, r := range ciRuns[1:] {
		if r.re.MatchString(ci) && hasBuildFiles(tree.Files, r.sys) {
			return r.sys
		}
	}
	return sys
}

// hasBuildFiles says whether the root has sys's build files.
func hasBuildFiles(files []string, sys string) bool {
	for _, f := range files {
		if BuildSystem([]string{f}) == sys {
			return true
		}
	}
	return false
}
