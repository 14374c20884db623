package cfamily

import (
	"fmt"
	"path"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"curate/pipeline/envgen"
)

// ifOptionRe opens a branch on one project option (IF (X_CXX17),
// ELSEIF (X_CXX11)); branchEndRe ends its body.
var (
	ifOptionRe  = regexp.MustCompile(`(?i)\b(?:else)?if\s*\(\s*([A-Za-z][A-Za-z0-9_]*)\s*\)`)
	branchEndRe = regexp.MustCompile(`(?i)\b(?:elseif|else|endif)\s*\(`)
	// branchStdRe is the standard a branch sets: SET (CMAKE_CXX_STANDARD
	// 17), or -std=c++17 in the flags of an older CMakeLists.
	branchStdRe = regexp.MustCompile(`(?i)(?:\bCMAKE_CXX_STANDARD\s+|-std=(?:c|gnu)\+\+)(\d+)\b`)
)

// stdOptions are the project's options that pick the C++ standard
// (option name → standard), read from its top-level CMake files: a
// branch on an option named for the standard (X_CXX17) that sets
// CMAKE_CXX_STANDARD or -std=c++N to it.
func stdOptions(tree *envgen.Tree, dir string) map[string]int {
	out := map[string]int{}
	for _, f := range tree.Files {
		if path.Dir(f) != path.Clean(dir) && path.Dir(f) != path.Join(dir, "cmake") {
			continue
		}
		if base := path.Base(f); base != "CMakeLists.txt" && !strings.HasSuffix(base, ".cmake") {
			continue
		}
		text := stripComments(tree.Text(f), "#")
		for _, loc := range ifOptionRe.FindAllStringSubmatchIndex(text, -1) {
			body := text[loc[1]:]
			if end := branchEndRe.FindStringIndex(body); end != nil {
				body = body[:end[0]]
			}
			m := branchStdRe.FindStringSubmatch(body)
			if m == nil {
				continue
			}
			// The option names its standard (X_CXX17 sets 17): an option
			// that raises the standard for what it adds (a fuzz-target
			// switch that sets C++17, whose configure needs clang) is
			// not a choice of standard.
			if n, err := strconv.Atoi(m[1]); err == nil && strings.Contains(text[loc[2]:loc[3]], m[1]) {
				out[text[loc[2]:loc[3]]] = n
			}
		}
	}
	return out
}

// ciStdOption is -DX=ON for the option that picks the newest C++
// standard g++ 12 knows among those the CI turns on (X=ON in a workflow
// or a script the CI runs), as for a CI matrix of CMAKE_CXX_STANDARD.
// Without it such a project builds at its default, often C++98, where
// Debian's GoogleTest does not compile.
func ciStdOption(p *envgen.Plan, tree *envgen.Tree, dir string) []string {
	opts := stdOptions(tree, dir)
	if len(opts) == 0 {
		return nil
	}
	names := make([]string, 0, len(opts))
	for o := range opts {
		names = append(names, o)
	}
	sort.Strings(names)
	ci := ciFilesText(tree)
	best := ""
	for _, o := range names {
		if n := opts[o]; n <= 20 && turnedOn(ci, o) && (best == "" || n > opts[best]) {
			best = o
		}
	}
	if best == "" {
		return nil
	}
	p.Note("%s=ON: the project's option for C++%d, the newest standard its CI (workflows and ci/ scripts) turns on", best, opts[best])
	return []string{fmt.Sprintf("-D%s=ON", best)}
}

// turnedOn says whether CI text turns option o on: o=ON, or -Do=${V}
// with V=ON (or V="ON") set elsewhere in it.
func turnedOn(ci, o string) bool {
	q := regexp.QuoteMeta(o)
	if regexp.MustCompile(`(?:\b|-D)` + q + `=["']?ON\b`).MatchString(ci) {
		return true
	}
	for _, m := range regexp.MustCompile(`(?:\b|-D)`+q+`=\$\{?([A-Za-z_][A-Za-z0-9_]*)`).FindAllStringSubmatch(ci, -1) {
		if regexp.MustCompile(`\b` + m[1] + `=["']?ON\b`).MatchString(ci) {
			return true
		}
	}
	return false
}

// ciFilesText is the text of every CI file (ciFile), one after another.
func ciFilesText(tree *envgen.Tree) string {
	var ci strings.Builder
	for _, f := range tree.Files {
		if ciFile(f) {
			ci.WriteString(tree.Text(f) + "\n")
		}
	}
	return ci.String()
}

// ciFile says whether a file is CI configuration or a script CI runs.
func ciFile(f string) bool {
	switch ext := path.Ext(f); {
	case strings.HasPrefix(f, ".github/workflows/"):
		return ext == ".yml" || ext == ".yaml"
	case f == ".travis.yml" || f == ".gitlab-ci.yml" || f == "appveyor.yml" || f == ".cirrus.yml" || f == "azure-pipelines.yml":
		return true
	default:
		top, _, _ := strings.Cut(f, "/")
		return (top == "ci" || top == ".ci" || top == "scripts" || top == ".github") && (ext == ".sh" || ext == ".yml" || ext == ".yaml")
	}
}
