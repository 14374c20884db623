package cfamily

import (
	"path"
	"slices"
	"strings"

	"curate/pipeline/envgen"
)

// bareFrameworkHeaders maps a test framework's header, when a test file
// includes it by its bare name, to the folder Debian installs it in: a
// Meson wrap or a vendored copy puts doctest.h on the include path, and
// Debian's doctest-dev has /usr/include/doctest/doctest.h (a hash map
// library's tests found doctest through CMake and still did not compile:
// "doctest.h: No such file or directory").
var bareFrameworkHeaders = map[string]string{"doctest.h": "/usr/include/doctest", "catch.hpp": "/usr/include/catch2"}

// frameworkIncludePath puts those folders on the C++ include path
// (CPLUS_INCLUDE_PATH, searched after the project's -I) when one of the
// PR's test files includes such a header and the tree has no file of
// that name.
func frameworkIncludePath(p *envgen.Plan, tree *envgen.Tree, testFiles []string) {
	var dirs []string
	for _, f := range testFiles {
		for _, m := range includeRe.FindAllStringSubmatch(tree.Text(f), -1) {
			dir, ok := bareFrameworkHeaders[m[1]]
			if !ok || slices.Contains(dirs, dir) || treeHasBase(tree, m[1]) {
				continue
			}
			dirs = append(dirs, dir)
			p.Note("%s on the C++ include path: %s includes %s by its bare name, which Debian installs in that folder", dir, f, m[1])
		}
	}
	if len(dirs) > 0 {
		slices.Sort(dirs)
		p.Env = append(p.Env, "CPLUS_INCLUDE_PATH="+strings.Join(dirs, ":"))
	}
}

// treeHasBase says whether a file of the tree is named base.
func treeHasBase(tree *envgen.Tree, base string) bool {
	for _, f := range tree.Files {
		if path.Base(f) == base {
			return true
		}
	}
	return false
}
