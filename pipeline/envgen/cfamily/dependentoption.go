package cfamily

import (
	"regexp"
	"strings"
)

// dependentOptionRe is cmake_dependent_option(NAME "help" DEFAULT DEPENDS
// FORCE), capturing NAME and DEPENDS (quoted, or one bare word).
var dependentOptionRe = regexp.MustCompile(`(?is)\bcmake_dependent_option\s*\(\s*([A-Za-z0-9_]+)\s+"(?:[^"\\]|\\.)*"\s+\S+\s+("[^"]*"|[A-Za-z0-9_]+)`)

// dependentDefaultRe is cmake_dependent_option(NAME "help" DEFAULT
// DEPENDS ...), capturing NAME, DEFAULT and DEPENDS.
var dependentDefaultRe = regexp.MustCompile(`(?is)\bcmake_dependent_option\s*\(\s*([A-Za-z0-9_]+)\s+"(?:[^"\\]|\\.)*"\s+(\S+)\s+("[^"]*"|[A-Za-z0-9_]+)`)

// extraTestSwitches are the test switches that are a
// cmake_dependent_option on another of switches, off by default: a
// flavour of the tests the project keeps off once they are on (a test
// framework's X_TEST_GTEST, "Test GoogleTest integration", on
// X_BUILD_TESTING, needs GoogleTest's own sources; its CI never turns it
// on, and turned on it failed every Oracle). They keep their default.
func extraTestSwitches(cmake string, switches []string) []string {
	var out []string
	for _, m := range dependentDefaultRe.FindAllStringSubmatch(stripComments(cmake, "#"), -1) {
		if !contains(switches, m[1]) || !contains([]string{"OFF", "FALSE", "NO", "0"}, strings.ToUpper(m[2])) {
			continue
		}
		for _, cond := range strings.Split(strings.Trim(m[3], `"`), ";") {
			if cond = strings.TrimSpace(cond); cond != m[1] && contains(switches, cond) {
				out = append(out, m[1])
				break
			}
		}
	}
	return out
}

var bareWordRe = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// switchDependencies maps each option a test switch's
// cmake_dependent_option condition names to the switch that needs it: the
// conditions that are a bare name of an option() the same file declares.
// Such a switch is forced to its FORCE value, whatever -D says, until
// its condition holds: a test framework's CATCH_BUILD_TESTING needs
// CATCH_DEVELOPMENT_BUILD (its CI sets it), and with only the switch on
// no test was built (all six PRs tried were nop_not_run). A condition
// that is an expression (NOT X, X AND Y) is left to the project.
func switchDependencies(cmake string, switches, declared []string) map[string]string {
	text := stripComments(cmake, "#")
	out := map[string]string{}
	for _, m := range dependentOptionRe.FindAllStringSubmatch(text, -1) {
		if !contains(switches, m[1]) {
			continue
		}
		for _, cond := range strings.Split(strings.Trim(m[2], `"`), ";") {
			cond = strings.TrimSpace(cond)
			if bareWordRe.MatchString(cond) && contains(declared, cond) && !contains(switches, cond) && out[cond] == "" {
				out[cond] = m[1]
			}
		}
	}
	return out
}

// cmakeIncludeRe is an include() of a file by its path (not a module
// name): include(CMakeOptions.txt), include(cmake/Options.cmake).
var cmakeIncludeRe = regexp.MustCompile(`(?im)^\s*include\s*\(\s*"?([A-Za-z0-9_./-]+\.(?:txt|cmake))"?\s*\)`)

// withIncludedFiles is a CMakeLists.txt's text followed by the files it
// include()s by path from its folder (one level): an HTTP/2 library
// declares its options, and BUILD_TESTING as a cmake_dependent_option on
// BUILD_STATIC_LIBS, in CMakeOptions.txt.
func withIncludedFiles(text string, read func(string) string) string {
	var b strings.Builder
	b.WriteString(text)
	for _, m := range cmakeIncludeRe.FindAllStringSubmatch(stripComments(text, "#"), -1) {
		if strings.Contains("/"+m[1]+"/", "/../") || strings.HasPrefix(m[1], "/") {
			continue
		}
		b.WriteString("\n")
		b.WriteString(read(m[1]))
	}
	return b.String()
}

// declaredOptions are the option() and cmake_dependent_option() names of
// a CMake text, and those it declares through wrappers (optionWrappers).
func declaredOptions(text string, wrappers []string) []string {
	var out []string
	for _, m := range declaredOptionRe(wrappers).FindAllStringSubmatch(stripComments(text, "#"), -1) {
		out = append(out, m[1])
	}
	return out
}
