package cfamily

import (
	"fmt"
	"path"
	"regexp"
	"strings"

	"curate/pipeline/envgen"
)

// fixedSigStackRe is a vendored Catch2 (before 2.13.5) or doctest (before
// 2.4.6) header that sizes its signal stack with SIGSTKSZ or MINSIGSTKSZ
// as a constant. Since glibc 2.34 (Debian 12 has 2.36) they call
// sysconf(), so the header no longer compiles ("size of array
// 'altStackMem' is not an integral constant-expression") and every test
// target fails in both states.
var fixedSigStackRe = regexp.MustCompile(`\[\s*(?:\d+\s*\*\s*)?SIGSTKSZ\s*\]|>=\s*MINSIGSTKSZ\s*\?`)

// signalHeaders maps a header's name to the macro that turns its POSIX
// signal handling off: the frameworks' own switch for platforms without
// it, which costs only the report of a crash inside a case (the case
// still fails).
var signalHeaders = []struct{ prefix, macro string }{
	{"catch", "CATCH_CONFIG_NO_POSIX_SIGNALS"},
	{"doctest", "DOCTEST_CONFIG_NO_POSIX_SIGNALS"},
}

// signalFlags turns off the signal handling of vendored test-framework
// headers that do not compile against Debian 12's glibc, through
// CXXFLAGS (CMake, Meson and configure read it; a Makefile's implicit
// rules use it), with a note naming each header.
func signalFlags(p *envgen.Plan, tree *envgen.Tree) {
	var macros, why []string
	for _, f := range tree.Files {
		base := strings.ToLower(path.Base(f))
		if e := path.Ext(base); e != ".h" && e != ".hpp" && e != ".hh" {
			continue
		}
		for _, h := range signalHeaders {
			if !strings.HasPrefix(base, h.prefix) || contains(macros, "-D"+h.macro) {
				continue
			}
			if fixedSigStackRe.MatchString(tree.Text(f)) {
				macros = append(macros, "-D"+h.macro)
				why = append(why, fmt.Sprintf("%s (%s)", f, h.macro))
			}
		}
	}
	if len(macros) == 0 {
		return
	}
	p.Env = append(p.Env, "CXXFLAGS="+strings.Join(macros, " "))
	p.Note("the vendored test-framework header sizes its signal stack with SIGSTKSZ as a constant, which glibc 2.34+ no longer is, so it would not compile: its POSIX signal handling is off (CXXFLAGS): %s", strings.Join(why, ", "))
}
