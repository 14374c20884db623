package python

import (
	"regexp"

	"curate/pipeline/envgen"
)

// A project whose pytest configuration turns on pytest-cov (--cov in
// addopts) measures coverage on every run, and with --cov-fail-under (or
// coverage's own fail_under) it fails the run when the total is below its
// bar. A task runs a few of the project's test files, so the total is
// always low: both states fail on coverage, not on a test, and the task is
// lost ("Coverage failure: total of 71 is less than fail-under=99").
// Coverage is no part of a task's verdict, and tracing slows every test,
// so runs pass pytest-cov's own --no-cov, which turns the plugin off with
// its options still accepted. A pytest-cov too old to know --no-cov
// (before 2.5, 2017) is left as the project configured it.

// coverageOptRe finds a pytest-cov option in pytest's configuration.
var coverageOptRe = regexp.MustCompile(`(^|[\s"'=\[,])--cov([=\s"'\],-]|$)`)

// noCovIfKnown expands to --no-cov when the installed pytest-cov knows it.
const noCovIfKnown = `$(python -c 'import pytest_cov.plugin as p, sys; sys.exit("no_cov" not in open(p.__file__).read())' 2>/dev/null && echo --no-cov) `

// coverageOff returns the pytest option turning pytest-cov off, and why,
// or "" when the project's pytest configuration does not turn it on.
func coverageOff(tree *envgen.Tree) (opts, why string) {
	for _, f := range pytestConfigs {
		text := tree.Text(f)
		if f != "pytest.ini" {
			text = pytestSection(text)
		}
		if coverageOptRe.MatchString(text) {
			return noCovIfKnown, f + " turns pytest-cov on (--cov): runs pass --no-cov, since a task's few test files never reach the project's coverage bar and coverage is no part of the verdict"
		}
	}
	return "", ""
}
