package cfamily

import (
	"regexp"
	"strings"
)

// boostWordRe is a Boost component as find_package names it (CMake's own
// keywords are upper-case; versions start with a digit).
var boostWordRe = regexp.MustCompile(`^[a-z][a-z0-9_]*$`)

// boostComponents are the components a find_package(Boost ...) call asks
// for, with or without the COMPONENTS keyword ("1.65 REQUIRED COMPONENTS
// serialization system", "REQUIRED serialization"). Each is a Debian
// package of its own (libboost-serialization-dev): libboost-dev has the
// headers only, and CMake's BoostConfig fails on a missing component's
// config file.
func boostComponents(args string) []string {
	var out []string
	for _, w := range strings.Fields(strings.NewReplacer("\"", " ", "(", " ", ")", " ").Replace(args)) {
		if boostWordRe.MatchString(w) {
			out = append(out, w)
		}
	}
	return out
}

// boostPackage is the cdeps.csv row for a component; a Python-versioned
// one (python311, numpy39) falls back to its unversioned row.
func boostPackage(name string) (string, bool) {
	name = strings.ToLower(name)
	if p, ok := debTable["boost:"+name]; ok {
		return p, true
	}
	p, ok := debTable["boost:"+strings.TrimRight(name, "0123456789")]
	return p, ok
}
