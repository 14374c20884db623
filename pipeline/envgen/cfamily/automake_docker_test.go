package cfamily

import (
	"strings"
	"testing"
)

// jedisct1/libsodium (held out, fourteenth set; dev rerun): the PR's new
// test program (vrf.c) does not compile on the buggy tree, and Automake's
// check then ran no test of its folder (NOP nop_not_run, 83 tests
// "FAIL_TO_PASS"). The folder's other tests run through check-TESTS; the
// program that did not compile has no result, and the run fails.
func TestCbuildAutomakeRunsTheTestsBesideOneThatDoesNotCompileInDocker(t *testing.T) {
	out := runCbuild(t, map[string]string{
		"configure.ac":     "AC_INIT([widget], [1.0])\nAM_INIT_AUTOMAKE([foreign subdir-objects])\nAC_PROG_CC\nAC_CONFIG_FILES([Makefile test/Makefile])\nAC_OUTPUT\n",
		"Makefile.am":      "SUBDIRS = test\n",
		"test/Makefile.am": "check_PROGRAMS = t_add t_vrf\nTESTS = t_add t_vrf\n",
		"test/t_add.c":     "int main(void) { return 1 + 1 == 2 ? 0 : 1; }\n",
		"test/t_vrf.c":     "int main(void) { return crypto_vrf_BYTES; }\n",
	}, "cp -r /app /tmp/src && export CURATE_SRC=/tmp/src && curate-cbuild configure autotools /tmp/b >/dev/null 2>&1 && "+
		"curate-cbuild test autotools /tmp/b >/tmp/o 2>&1; echo \"exit $?\"; grep '^curate:' /tmp/o; cat /logs/verifier/c-junit.xml")
	wantAll(t, out, "exit 1", "curate: a test program in /test did not compile", `<testcase classname="automake" name="test/t_add"/>`)
	if strings.Contains(out, `name="test/t_vrf"/>`) {
		t.Errorf("the test that did not compile passed:\n%s", out)
	}
}
