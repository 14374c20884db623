package cfamily

import (
	"path"
	"regexp"
	"strings"

	"curate/pipeline/envgen"
)

// gtestPathRe is a cache variable a CMake file declares for the folder
// of GoogleTest's sources (set(GOOGLETEST_PATH "${...}/googletest" CACHE
// PATH "")), which the project then builds with add_subdirectory or an
// ExternalProject pointed at it, and downloads only when told to.
var gtestPathRe = regexp.MustCompile(`(?i)\bset\s*\(\s*((?:GOOGLETEST|GTEST)_(?:PATH|SOURCE_DIR|SRC_DIR|DIR|ROOT_DIR))\s+[^)]*\bCACHE\s+PATH\b`)

// gtestSourcePath points such a variable at Debian's GoogleTest source
// (/usr/src/googletest, with its googletest and googlemock folders), so
// a project that expects the sources in its tree, or a download, builds
// its GoogleTest tests offline. It returns the -D arguments.
func gtestSourcePath(p *envgen.Plan, tree *envgen.Tree) []string {
	var args []string
	for _, f := range tree.Files {
		if (path.Base(f) != "CMakeLists.txt" && !strings.HasSuffix(f, ".cmake")) || vendored(f) {
			continue
		}
		for _, m := range gtestPathRe.FindAllStringSubmatch(stripComments(tree.Text(f), "#"), -1) {
			arg := "-D" + m[1] + "=/usr/src/googletest"
			if contains(args, arg) {
				continue
			}
			args = append(args, arg)
			if !contains(p.Packages, "googletest") {
				p.Packages = append(p.Packages, "googletest")
			}
			p.Note("%s declares %s, the folder of GoogleTest's sources: Debian's googletest source stands in (%s=/usr/src/googletest), so the build needs no download", f, m[1], m[1])
		}
	}
	return args
}
