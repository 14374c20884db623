package cfamily

import (
	"strings"
	"testing"
)

// One CTest test that runs a project's whole home-grown runner, which
// prints TAP: its cases are the tests ("suite.alpha"), so a case that
// fails in both states (it needs the network) does not fail the others
// with it. The CTest test itself goes; it stays only when it failed and no
// case did (the runner crashed between cases). Output longer than CTest's
// 1024-byte default for a passed test is read whole.
func TestCbuildSplitsATAPSuiteIntoItsCasesInDocker(t *testing.T) {
	filler := strings.Repeat("echo '# a long line of diagnostics that pads the output past a kilobyte'\n", 40)
	out := runCbuild(t, map[string]string{
		"CMakeLists.txt": "cmake_minimum_required(VERSION 3.16)\nproject(t C)\nenable_testing()\n" +
			"add_test(NAME suite COMMAND sh ${CMAKE_SOURCE_DIR}/suite.sh)\n" +
			"add_test(NAME passing COMMAND sh ${CMAKE_SOURCE_DIR}/passing.sh)\n" +
			"add_test(NAME crashed COMMAND sh ${CMAKE_SOURCE_DIR}/crashed.sh)\n",
		"suite.sh": "echo 1..4\necho 'ok 1 - alpha'\necho 'not ok 2 - beta'\necho '# beta: expected 1'\n" +
			"echo 'ok 3 - gamma # SKIP no IPv6'\necho 'not ok 4 - delta # TODO later'\nexit 1\n",
		"passing.sh": "echo 1..2\n" + filler + "echo 'ok 1 - first'\necho 'ok 2 - second'\n",
		"crashed.sh": "echo 1..3\necho 'ok 1 - one'\necho 'ok 2 - two'\nexit 139\n",
	}, "curate-cbuild configure cmake /tmp/b >/dev/null && curate-cbuild build cmake /tmp/b >/dev/null && "+
		"curate-cbuild test cmake /tmp/b >/dev/null; python3 -c \"import sys,xml.etree.ElementTree as E; "+
		"r=E.fromstring('<r>'+open('/logs/verifier/c-junit.xml').read().replace('<?xml version=\\\"1.0\\\" encoding=\\\"UTF-8\\\"?>','')+'</r>'); "+
		"[print('case', c.get('classname')+'.'+c.get('name'), 'fail' if c.find('failure') is not None else 'skip' if c.find('skipped') is not None else 'pass') for c in r.iter('testcase')]\"")
	wantAll(t, out, "case suite.alpha pass", "case suite.beta fail", "case suite.gamma skip", "case suite.delta skip",
		"case passing.first pass", "case passing.second pass", "case crashed.one pass", "case crashed.two pass", "case crashed.crashed fail")
	for _, gone := range []string{"case suite.suite", "case passing.passing"} {
		if strings.Contains(out, gone) {
			t.Errorf("the CTest test split into its cases is still there (%s):\n%s", gone, out)
		}
	}
}

// An Automake test run by its TAP driver has one result per case in its
// .trs: its first case passed, its second failed, and the test read PASS.
// The worst case's result counts.
func TestCbuildAutomakeTAPTestFailsOnAnyCaseInDocker(t *testing.T) {
	out := runCbuild(t, map[string]string{
		"configure.ac": "AC_INIT([widget], [1.0])\nAC_CONFIG_AUX_DIR([build-aux])\nAM_INIT_AUTOMAKE([foreign])\nAC_PROG_AWK\n" +
			"AC_REQUIRE_AUX_FILE([tap-driver.sh])\nAC_CONFIG_FILES([Makefile])\nAC_OUTPUT\n",
		"Makefile.am": "TESTS = t_tap.sh\nLOG_DRIVER = env AM_TAP_AWK='$(AWK)' $(SHELL) $(top_srcdir)/build-aux/tap-driver.sh\n",
		"t_tap.sh":    "#!/bin/sh\necho 1..2\necho 'ok 1 - first'\necho 'not ok 2 - second'\n",
	}, "cp -r /app /tmp/src && chmod +x /tmp/src/t_tap.sh && export CURATE_SRC=/tmp/src && curate-cbuild configure autotools /tmp/b >/dev/null && "+
		"curate-cbuild test autotools /tmp/b >/dev/null 2>&1; echo \"exit $?\"; cat /logs/verifier/c-junit.xml")
	wantAll(t, out, "exit 1", `<testcase classname="automake" name="t_tap.sh"><failure message="FAIL"/>`)
}
