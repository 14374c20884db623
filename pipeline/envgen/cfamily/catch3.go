package cfamily

import (
	"path"
	"regexp"
	"strings"

	"curate/pipeline/envgen"
)

// Debian 12 has Catch2 2.13; Catch2 3 (a compiled library whose headers
// are catch2/catch_*.hpp, not one catch.hpp) is in bookworm-backports,
// built for Debian 12, on the same archive.
const catch3Suite = "bookworm-backports"

// catch3IncludeRe is a source including one of Catch2 3's headers.
const catch3IncludeRe = `#[[:space:]]*include[[:space:]]*[<"]catch2/catch_[a-z_]+\.hpp`

// catch3CMakeRe is CMake asking for Catch2 3: find_package(Catch2 3 ...)
// or a FetchContent/CPM tag v3.x.
var catch3CMakeRe = regexp.MustCompile(`(?i)find_package\s*\(\s*Catch2\s+3|Catch2[^)]*?(?:GIT_TAG|VERSION)\s+"?v?3\.`)

// needsCatch3 names why the project needs Catch2 3, "" when it does not.
func needsCatch3(tree *envgen.Tree) string {
	for _, ext := range []string{".cpp", ".cc", ".cxx", ".hpp", ".h"} {
		if fs := tree.Grep(catch3IncludeRe, ext); len(fs) > 0 {
			return fs[0] + " includes Catch2 3's headers (catch2/catch_*.hpp)"
		}
	}
	for _, f := range tree.Files {
		if (path.Base(f) == "CMakeLists.txt" || strings.HasSuffix(f, ".cmake")) && catch3CMakeRe.MatchString(stripComments(tree.Text(f), "#")) {
			return f + " asks for Catch2 3"
		}
	}
	return ""
}

// catch3Step installs Catch2 3 from bookworm-backports, on the mirror the
// image's apt already reads; deps_unreachable when the archive does not
// answer for that suite.
func catch3Step() string {
	return `mirror=$(sed -n -E 's#^deb (\[[^]]*\] )?(https?://[^ ]+) bookworm( |$).*#\2#p' /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null | head -n1); ` +
		`echo "deb ${mirror:-http://deb.debian.org/debian} ` + catch3Suite + ` main" > /etc/apt/sources.list.d/curate-` + catch3Suite + `.list && ` +
		`apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends -t ` + catch3Suite + ` catch2 && ` +
		`rm -f /etc/apt/sources.list.d/curate-` + catch3Suite + `.list && rm -rf /var/lib/apt/lists/* || { ` +
		envgen.FailStep("deps_unreachable", "Catch2 3 could not be installed from the Debian archive (suite %s)", catch3Suite) + `; }`
}
