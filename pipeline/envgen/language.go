// Package envgen turns a mined candidate into a Harbor task directory:
// Dockerfile with the repo at the PR head and bug.patch applied, solution,
// fail-closed verifier, instruction, task.toml and a SWE-bench record.
package envgen

import (
	"path"
	"sort"
	"strings"
)

// Languages the builder knows how to install and test.
var Languages = []string{"python", "go", "rust", "javascript", "typescript", "java"}

// markers are root files that say what a repository is built with.
var markers = map[string]string{
	"go.mod": "go", "Cargo.toml": "rust", "package.json": "javascript", "tsconfig.json": "typescript",
	"pom.xml": "java", "build.gradle": "java", "build.gradle.kts": "java",
	"pyproject.toml": "python", "setup.py": "python", "setup.cfg": "python", "requirements.txt": "python",
	"tox.ini": "python", "Pipfile": "python",
}

var extLang = map[string]string{
	".py": "python", ".go": "go", ".rs": "rust", ".js": "javascript", ".jsx": "javascript", ".mjs": "javascript",
	".cjs": "javascript", ".ts": "typescript", ".tsx": "typescript", ".java": "java", ".kt": "java",
}

// Detector is a Language that recognises a repository from its whole
// file list (build files and source extensions).
type Detector interface {
	Detect(files []string) string
}

// DetectLanguage picks the repository's language from its root marker
// files; hint (the language of the changed files) breaks ties between
// several markers, and file extensions decide when there is no marker.
func DetectLanguage(tree []string, hint string) string {
	found := map[string]bool{}
	exts := map[string]int{}
	for _, p := range tree {
		if l, ok := markers[p]; ok {
			found[l] = true
		}
		if l := extLang[strings.ToLower(path.Ext(p))]; l != "" {
			exts[l]++
		}
	}
	if found["typescript"] {
		found["javascript"] = false
	}
	var langs []string
	for l, ok := range found {
		if ok {
			langs = append(langs, l)
		}
	}
	sort.Strings(langs)
	// A marker of a language the tree has no source file of is packaging
	// metadata (a C library's package.json for a package index), not its
	// build: the languages known by their build files decide then.
	if len(langs) > 0 && !hasSources(langs, exts) {
		if l := detectByBuildFiles(tree); l != "" {
			return l
		}
	}
	switch {
	case len(langs) == 1:
		return langs[0]
	case len(langs) > 1:
		for _, l := range langs {
			if l == hint {
				return l
			}
		}
		best := langs[0]
		for _, l := range langs {
			if exts[l] > exts[best] {
				best = l
			}
		}
		return best
	}
	// Languages known by their build files rather than one marker (C and
	// C++) are asked only when no other language's marker is there.
	if l := detectByBuildFiles(tree); l != "" {
		return l
	}
	best := ""
	for l, n := range exts {
		if best == "" || n > exts[best] || (n == exts[best] && l < best) {
			best = l
		}
	}
	return best
}

// detectByBuildFiles asks the languages known by their build files rather
// than one marker (C and C++), in name order.
func detectByBuildFiles(tree []string) string {
	names := make([]string, 0, len(languages))
	for n := range languages {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if d, ok := languages[n].(Detector); ok {
			if l := d.Detect(tree); l != "" {
				return l
			}
		}
	}
	return ""
}

// hasSources says whether the tree has a source file of one of langs
// (JavaScript and TypeScript count for each other).
func hasSources(langs []string, exts map[string]int) bool {
	for _, l := range langs {
		if exts[l] > 0 || ((l == "javascript" || l == "typescript") && exts["javascript"]+exts["typescript"] > 0) {
			return true
		}
	}
	return false
}

// cFamilySource are the extensions of C and C++ sources and headers.
var cFamilySource = map[string]bool{".c": true, ".h": true, ".cc": true, ".cpp": true, ".cxx": true, ".c++": true, ".hpp": true, ".hh": true, ".hxx": true, ".ipp": true}

// cFamilyBuildFile says whether f is a build file a C or C++ test change
// comes with (a new test registered in test/CMakeLists.txt).
func cFamilyBuildFile(f string) bool {
	b := path.Base(f)
	return b == "CMakeLists.txt" || strings.HasSuffix(b, ".cmake") || b == "meson.build" || b == "Makefile" || b == "Makefile.am" || strings.HasSuffix(b, ".mk")
}

// DetectForTests is DetectLanguage, except that the PR's test files decide
// when every one of them is C or C++ source or a C/C++ build file (the
// ones that register them), the tree has a C or C++ build and none of
// them is in the language a root marker names: the tests need that
// build's runner (a C++ library's package.json and one .js helper for a
// package index made it JavaScript, and no runner loaded its C++ tests; a
// PR whose only test change was test/CMakeLists.txt in a C++ library with
// Python bindings went to pytest, which collected nothing). A project
// with a C extension and tests in its own language keeps its language.
func DetectForTests(tree []string, hint string, tests []string) string {
	lang := DetectLanguage(tree, hint)
	if len(tests) == 0 || lang == "" {
		return lang
	}
	if _, ok := languages[lang].(Detector); ok {
		return lang // already a build-file language
	}
	for _, f := range tests {
		if !cFamilySource[strings.ToLower(path.Ext(f))] && !cFamilyBuildFile(f) {
			return lang
		}
	}
	if l := detectByBuildFiles(tree); l != "" {
		return l
	}
	return lang
}
