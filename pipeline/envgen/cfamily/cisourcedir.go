package cfamily

import (
	"path"
	"regexp"
	"strings"

	"curate/pipeline/envgen"
)

// ciSourceRe is a CMake source folder a CI command names: `cmake -S tests`,
// `-S ${{github.workspace}}/tests`, `-S "$GITHUB_WORKSPACE/test"`; ciCdRe
// a folder a CI script changes into (`cd tests`, then `mkdir build && cd
// build && cmake ..` in an older Travis file).
var (
	ciSourceRe = regexp.MustCompile(`(?m)\bcmake\b[^\n]*?\s-S\s*` + ciDirPattern)
	ciCdRe     = regexp.MustCompile(`(?m)(?:^|[\s;&|])cd\s+` + ciDirPattern)
	cmakeRunRe = regexp.MustCompile(`\bcmake\b`)
)

const ciDirPattern = `"?(?:\$\{\{\s*github\.workspace\s*\}\}/|\$\{?(?:GITHUB_WORKSPACE|TRAVIS_BUILD_DIR|APPVEYOR_BUILD_FOLDER)\}?/|\./)?([A-Za-z0-9_.-]+(?:/[A-Za-z0-9_.-]+)*)/?"?(?:[\s;&]|$)`

// ciSourceDir is the folder the CI configures CMake from when it is not
// the root and the root's CMakeLists.txt never adds it: a header-only
// library whose root CMakeLists.txt only installs the headers, and whose
// CI runs `cmake -S ${{github.workspace}}/tests` (configured from the
// root, its tests were never built: nop_not_run), or whose Travis file
// did `cd tests` before `cmake ..`. It must hold a
// CMakeLists.txt and the PR's test files. "" otherwise; else the folder
// and the CI file that names it.
func ciSourceDir(tree *envgen.Tree, tests []string) (dir, from string) {
	if BuildSystem(tree.Files) != "cmake" || len(tests) == 0 {
		return "", ""
	}
	root := stripComments(tree.Text("CMakeLists.txt"), "#")
	for _, f := range tree.Files {
		text := tree.Text(f)
		if !ciFile(f) || !cmakeRunRe.MatchString(text) {
			continue
		}
		for _, m := range append(ciSourceRe.FindAllStringSubmatch(text, -1), ciCdRe.FindAllStringSubmatch(text, -1)...) {
			d := path.Clean(m[1])
			if d == "." || strings.HasPrefix(d, "..") || !tree.Has(d+"/CMakeLists.txt") || addsSubdirectory(root, d) {
				continue
			}
			for _, t := range tests {
				if strings.HasPrefix(t, d+"/") {
					return d, f
				}
			}
		}
	}
	return "", ""
}

// addsSubdirectory says whether a CMakeLists.txt's text adds folder d
// (add_subdirectory(tests), add_subdirectory(${PROJECT_SOURCE_DIR}/tests)).
func addsSubdirectory(text, d string) bool {
	re := regexp.MustCompile(`(?i)\badd_subdirectory\s*\(\s*"?(?:\$\{[A-Z_]+\}/)?` + regexp.QuoteMeta(d) + `/?"?[\s)]`)
	return re.MatchString(text)
}
