package cfamily

import (
	"reflect"
	"strings"
	"testing"

	"curate/pipeline/envgen"
)

// A Markdown library's layout at an older PR: src/CMakeLists.txt runs
// re2c (set(RE2C re2c), so a PR that changes scanners.re regenerates
// scanners.c) and test/CMakeLists.txt runs its spec tests with `python`,
// which Debian names python3: every test was "Not Run" and the build
// stopped on "re2c: not found". Words that only look alike are no need.
func TestNeedsTheProgramsABuildFileRuns(t *testing.T) {
	tree := envgen.MapTree("o/n", map[string]string{
		"CMakeLists.txt":      "project(n C)\n# python is optional\nadd_subdirectory(src)\nadd_subdirectory(test)\n",
		"src/CMakeLists.txt":  "set(RE2C re2c)\nadd_custom_command(OUTPUT scanners.c COMMAND ${RE2C} -b -o scanners.c scanners.re)\n",
		"test/CMakeLists.txt": "add_test(spectest\n   python \"${CMAKE_CURRENT_SOURCE_DIR}/spec_tests.py\" --spec spec.txt)\nfind_package(Python3)\nmessage(STATUS \"flexible /usr/bin/bison2\")\n",
		"meson.build":         "project('n', 'c')\nlex = find_program('flex')\n",
		// An audio library's test sources are made by autogen from .def
		// templates: "make: *** [Makefile:1392: test_endswap.c] Error 127".
		"configure.ac": "AC_CHECK_PROG([HAVE_AUTOGEN], [autogen], [yes], [no])\n",
	})
	pkgs, _ := DebianPackages(Needs(tree))
	want := []string{"autogen", "flex", "python-is-python3", "python3", "re2c"}
	if !reflect.DeepEqual(pkgs, want) {
		t.Errorf("packages %v, want %v", pkgs, want)
	}
}

// The same check in its older form, without brackets (the audio
// library's 2015 configure.ac).
func TestNeedsAutogenUnquoted(t *testing.T) {
	tree := envgen.MapTree("o/n", map[string]string{"configure.ac": "AC_CHECK_PROG(HAVE_AUTOGEN, autogen, yes, no)\n"})
	if pkgs, _ := DebianPackages(Needs(tree)); !reflect.DeepEqual(pkgs, []string{"autogen"}) {
		t.Errorf("packages %v, want autogen", pkgs)
	}
}

// An EXIF library with no configure script in its tree: autoreconf runs
// autopoint for AM_GNU_GETTEXT, and every PR stopped at "Can't exec
// autopoint". A macro in a dnl comment, or one whose name only starts
// alike, asks for nothing.
func TestNeedsWhatAutoreconfRunsForTheMacros(t *testing.T) {
	tree := envgen.MapTree("o/n", map[string]string{"configure.ac": "AM_GNU_GETTEXT_VERSION([0.18.3])\nAM_GNU_GETTEXT([external])\ndnl GTK_DOC_CHECK([1.14])\nAC_PROG_YACCX\nLT_INIT\n"})
	if pkgs, _ := DebianPackages(Needs(tree)); !reflect.DeepEqual(pkgs, []string{"autopoint", "gettext"}) {
		t.Errorf("packages %v, want autopoint gettext", pkgs)
	}
	if _, err := parseTable("t.csv", "m4,AM_(GNU,x\n"); err == nil || !strings.Contains(err.Error(), "t.csv:1:") {
		t.Errorf("a macro name that is no identifier: %v", err)
	}
}

// A public-suffix library probes three IDNA libraries, none required; one
// PR's meson.build then used a variable only the found library's branch
// set ("Unknown variable libiconv_dep"). Debian's packages for each are
// in the table, as its CI installs them.
func TestNeedsTheIDNALibrariesAMesonBuildProbes(t *testing.T) {
	tree := envgen.MapTree("o/n", map[string]string{"meson.build": "project('n', 'c')\nlibidn2_dep = dependency('libidn2', required : false)\nlibicu_dep = dependency('icu-uc', required : false)\nlibidn_dep = dependency('libidn', required : false)\n"})
	if pkgs, unknown := DebianPackages(Needs(tree)); !reflect.DeepEqual(pkgs, []string{"libicu-dev", "libidn-dev", "libidn2-dev"}) || len(unknown) > 0 {
		t.Errorf("packages %v, unknown %v", pkgs, unknown)
	}
}

// An EXIF library's CI installs its packages through a matrix variable
// (apt-get install ${{ matrix.packages }}): the -dev ones among them are
// needs, read at the job's matrix entry.
func TestNeedsTheCIPackagesOfAMatrixVariable(t *testing.T) {
	ci := "on: push\njobs:\n  linux:\n    runs-on: ubuntu-24.04\n    strategy:\n      matrix:\n        packages: [libfoo-dev autopoint]\n    steps:\n      - run: sudo apt-get install -y ${{ matrix.packages }}\n      - run: make check\n"
	tree := envgen.MapTree("o/n", map[string]string{".github/workflows/ci.yml": ci})
	if got := CIPackages(Needs(tree), nil); !reflect.DeepEqual(got, []string{"apt:libfoo-dev"}) {
		t.Errorf("CI packages %v, want apt:libfoo-dev", got)
	}
}
