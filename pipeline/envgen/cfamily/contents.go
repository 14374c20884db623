package cfamily

import (
	_ "embed"
	"path"
	"regexp"
	"strings"

	"curate/pipeline/envgen"
)

// cdepsScript looks needs up in Debian's Contents index (apt-file) at
// image build time and installs the packages that provide them.
//
//go:embed curate-cdeps.sh
var cdepsScript string

// acHeaderRe is a configure.ac header check that stops configure when
// the header is missing (an optional probe is left alone).
var acHeaderRe = regexp.MustCompile(`AC_CHECK_HEADERS?\(\s*\[?([A-Za-z0-9_/.+-]+\.h)\]?\s*,[^\n]*AC_MSG_ERROR`)

// headerNeeds are the headers configure.ac requires.
func headerNeeds(tree *envgen.Tree) []Need {
	var out []Need
	for _, f := range []string{"configure.ac", "configure.in"} {
		for _, m := range acHeaderRe.FindAllStringSubmatch(stripComments(tree.Text(f), "dnl"), -1) {
			out = append(out, Need{Kind: "header", Name: m[1], From: f, Required: true})
		}
	}
	return out
}

// LookUps are the needs cdeps.csv has no entry for that the build in use
// requires (a REQUIRED find_package or pkg-config module of the build
// system that configures, a header configure stops without), as
// kind:name words for curate-cdeps. Optional probes and the needs of a
// second build system the project also ships are not looked up: pulling
// them in would change what the build turns on.
func LookUps(needs []Need, sys string) []string {
	var out []string
	for _, n := range needs {
		if !n.Required || n.Kind == "apt" || n.Kind == "lib" {
			continue
		}
		if _, ok := debTable[n.Kind+":"+strings.ToLower(n.Name)]; ok {
			continue
		}
		b := path.Base(n.From)
		ofSys := false
		switch sys {
		case "cmake":
			ofSys = b == "CMakeLists.txt" || strings.HasSuffix(b, ".cmake")
		case "meson":
			ofSys = b == "meson.build"
		case "autotools":
			ofSys = b == "configure.ac" || b == "configure.in"
		}
		if ofSys && !strings.ContainsAny(n.Name, " '\"$`\\") {
			out = append(out, n.Kind+":"+n.Name)
		}
	}
	return out
}
