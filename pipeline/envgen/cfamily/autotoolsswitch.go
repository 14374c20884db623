package cfamily

import (
	"regexp"
	"strings"

	"curate/pipeline/envgen"
)

// acEnableRe is an AC_ARG_ENABLE's switch name, quoted or not:
// AC_ARG_ENABLE([tests-build], ...).
var acEnableRe = regexp.MustCompile(`(?m)^\s*AC_ARG_ENABLE\(\s*\[?\s*([A-Za-z0-9_-]+)`)

// autotoolsTestSwitches are the --enable switches of configure.ac that
// turn the project's tests on (--enable-tests, --enable-tests-build,
// --enable-unit-tests), as CMake's test options are (testOptions): a USB
// library builds its tests only with --enable-tests-build, which every CI
// job passes, and `make check` ran nothing without it (nop_not_run). The
// same words decide: a test word, and nothing but test words and the
// project's prefix, so a long stress test (--enable-testcore) or a
// switch that turns tests off keeps its default.
func autotoolsTestSwitches(tree *envgen.Tree, dir string) []string {
	var out []string
	for _, f := range []string{"configure.ac", "configure.in"} {
		text := stripComments(stripComments(tree.Text(join(dir, f)), "dnl "), "#")
		for _, m := range acEnableRe.FindAllStringSubmatch(text, -1) {
			u := strings.ToUpper(strings.ReplaceAll(m[1], "-", "_"))
			if enablesTests(u) && plainTestSwitch(u, "") && !contains(out, "--enable-"+m[1]) {
				out = append(out, "--enable-"+m[1])
			}
		}
	}
	return out
}

// enablesTests says whether an upper-cased switch name has a word that
// means tests and none that turns them off.
func enablesTests(u string) bool {
	test := false
	for _, w := range strings.Split(u, "_") {
		switch w {
		case "TEST", "TESTS", "TESTING", "UNITTESTS", "GTEST":
			test = true
		case "DISABLE", "NO", "WITHOUT", "SKIP", "SYSTEM":
			return false
		}
	}
	return test
}

// maintainerModeRe is configure.ac's AM_MAINTAINER_MODE, which turns off
// the rules that make Makefile.in and Makefile again when Makefile.am
// changes, unless called with [enable].
var maintainerModeRe = regexp.MustCompile(`(?m)^\s*AM_MAINTAINER_MODE\b(\s*\(\s*\[?\s*(\w+))?`)

// maintainerMode says whether configure needs --enable-maintainer-mode:
// the build tree is configured once, at the PR head, and built again on
// the buggy tree, so a bug.patch that changes a Makefile.am (drops the
// sources a PR adds) must make the Makefiles again. A cryptography
// library's AM_MAINTAINER_MODE kept them, and Make looked for the PR's
// new sources on the buggy tree ("No rule to make target ... vrf.c"), so
// the suite never ran. Only when curate runs autoreconf itself (the tree
// has no configure script): the rules then call the same automake.
func maintainerMode(tree *envgen.Tree, dir string) bool {
	if tree.Text(join(dir, "configure")) != "" {
		return false
	}
	m := maintainerModeRe.FindStringSubmatch(stripComments(stripComments(tree.Text(join(dir, "configure.ac")), "dnl "), "#"))
	return m != nil && m[2] != "enable"
}
