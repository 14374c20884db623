package cfamily

import (
	"strings"
	"testing"

	"curate/pipeline/envgen"
)

// libusb/libusb PR 1913 (held out in the thirteenth set, 2026-11-27): its
// tests are built only with --enable-tests-build, which every CI job
// passes; curate ran configure with no switch and `make check` ran
// nothing (nop_not_run). The tests' switch is passed; the examples', a
// long stress test's and a switch that turns tests off are not.
func TestConfigureTurnsTheTestsSwitchOn(t *testing.T) {
	files := map[string]string{
		"configure.ac": `AC_INIT([libusb-1.0], [1.0.29])
dnl AC_ARG_ENABLE([unit-tests], [commented out])
AC_ARG_ENABLE([examples-build],
	[AS_HELP_STRING([--enable-examples-build], [build example applications [default=no]])],
	[build_examples=$enableval], [build_examples=no])
AC_ARG_ENABLE([tests-build],
	[AS_HELP_STRING([--enable-tests-build], [build test applications [default=no]])],
	[build_tests=$enableval], [build_tests=no])
AC_ARG_ENABLE([testcore],
	[AS_HELP_STRING([--enable-testcore], [include the testcore stress test in make check [default=no]])])
AC_ARG_ENABLE(no-tests, [skip them])
AM_CONDITIONAL([BUILD_TESTS], [test "x$build_tests" != xno])
`,
		"Makefile.am":   "SUBDIRS = libusb\nif BUILD_TESTS\nSUBDIRS += tests\nendif\n",
		"libusb/core.c": "", "tests/stress.c": "", "tests/Makefile.am": "",
	}
	p, err := (lang{"c"}).Plan(envgen.MapTree("o/n", files), envgen.Tests{Files: []string{"tests/stress.c"}})
	if err != nil {
		t.Fatal(err)
	}
	configure := strings.Join(p.Install, "\n")
	if !strings.Contains(configure, "--enable-tests-build") {
		t.Errorf("configure step lacks --enable-tests-build:\n%s", configure)
	}
	for _, not := range []string{"--enable-examples-build", "--enable-testcore", "--enable-no-tests", "--enable-unit-tests"} {
		if strings.Contains(configure, not) {
			t.Errorf("configure step passes %s:\n%s", not, configure)
		}
	}
}

// jedisct1/libsodium (held out, fourteenth set): AM_MAINTAINER_MODE kept
// the Makefiles of the PR head on the buggy tree, whose Makefile.am no
// longer lists the PR's new sources (NOP nop_not_run: "No rule to make
// target"). configure gets --enable-maintainer-mode when curate runs
// autoreconf; not when the project says [enable] already, nor when it
// ships its own configure script (made by another automake).
func TestConfigureMakesTheMakefilesAgainInMaintainerMode(t *testing.T) {
	for _, c := range []struct {
		ac        string
		configure bool
		want      bool
	}{
		{"AM_INIT_AUTOMAKE([foreign])\nAM_MAINTAINER_MODE\n", false, true},
		{"AM_INIT_AUTOMAKE([foreign])\nAM_MAINTAINER_MODE([disable])\n", false, true},
		{"AM_INIT_AUTOMAKE([foreign])\nAM_MAINTAINER_MODE([enable])\n", false, false},
		{"AM_INIT_AUTOMAKE([foreign])\ndnl AM_MAINTAINER_MODE\n", false, false},
		{"AM_INIT_AUTOMAKE([foreign])\nAM_MAINTAINER_MODE\n", true, false},
	} {
		files := map[string]string{"configure.ac": "AC_INIT([w], [1])\n" + c.ac, "Makefile.am": "TESTS = t\n", "w.c": "", "t.c": ""}
		if c.configure {
			files["configure"] = "#!/bin/sh\n"
		}
		p, err := (lang{"c"}).Plan(envgen.MapTree("o/n", files), envgen.Tests{Files: []string{"t.c"}})
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(strings.Join(p.Install, "\n"), "--enable-maintainer-mode"); got != c.want {
			t.Errorf("%q (configure script %v): --enable-maintainer-mode %v, want %v", c.ac, c.configure, got, c.want)
		}
	}
}
