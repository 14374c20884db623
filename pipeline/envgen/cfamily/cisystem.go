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

// cmakeTestRe is a CMake file declaring a test.
const cmakeTestRe = `(add_test|enable_testing|_discover_tests|_add_tests)[[:space:]]*\(|include[[:space:]]*\([[:space:]]*CTest`

// ciBuildSystem is the root's build system that has the tests, when the
// root has several (sys is the default pick, CMake first):
//   - the one the CI runs, when it runs no CMake: a C JSON library with a
//     CMakeLists.txt (no test in it), a meson.build and a Makefile whose
//     test goal builds and runs the tests, and whose CI runs only "make
//     all", is built with make (kgabis/parson: CMake found no test,
//     nop_not_run);
//   - Meson's (when meson.build declares a test), the Makefile's, or
//     Automake's (when a Makefile.am declares tests), when there is no
//     such CI and no CMake file declares a test (the same library before
//     it had a CI; a regular expression library of 2020 whose CMake built
//     only the library and whose tests were Automake's: nop_not_run).
func ciBuildSystem(tree *envgen.Tree, sys string) string {
	if ci := ciText(tree); ci != "" && !ciRuns[0].re.MatchString(ci) {
		for _, r := range ciRuns[1:] {
			if r.re.MatchString(ci) && hasBuildFiles(tree.Files, r.sys) {
				return r.sys
			}
		}
	}
	if sys != "cmake" || len(tree.Grep(cmakeTestRe, ".txt"))+len(tree.Grep(cmakeTestRe, ".cmake")) > 0 {
		return sys
	}
	if hasBuildFiles(tree.Files, "meson") && len(tree.Grep(`(^|[^_a-z])test[[:space:]]*\(`, "meson.build")) > 0 {
		return "meson"
	}
	if hasBuildFiles(tree.Files, "make") {
		return "make"
	}
	if hasBuildFiles(tree.Files, "autotools") && len(tree.Grep(automakeTestRe, "Makefile.am")) > 0 {
		return "autotools"
	}
	return sys
}

// automakeTestRe is a Makefile.am declaring tests ("make check" runs
// them).
const automakeTestRe = `^[[:space:]]*(TESTS|check_PROGRAMS|check_SCRIPTS)[[:space:]]*[+]?=|^check-local[[:space:]]*:`

// hasBuildFiles says whether the root has sys's build files.
func hasBuildFiles(files []string, sys string) bool {
	for _, f := range files {
		if BuildSystem([]string{f}) == sys {
			return true
		}
	}
	return false
}
