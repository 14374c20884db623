package cfamily

import (
	"path"
	"regexp"
	"strings"

	"curate/pipeline/envgen"
)

// wrapperDefRe is a CMake function or macro definition: its name, its
// first parameter and its body.
var wrapperDefRe = regexp.MustCompile(`(?is)\b(?:function|macro)\s*\(\s*([A-Za-z0-9_]+)\s+([A-Za-z0-9_]+)[^)]*\)(.*?)\bend(?:function|macro)\s*\(`)

// optionWrappers are the functions and macros in the tree's CMake files
// that declare their first parameter as an option (a calendar library's
// libx_option(LIBX_BUILD_TESTING "Build tests." False) calls option()
// inside): a call of one declares an option as option() does. Without
// them that library's test switch stayed off and no test was built.
func optionWrappers(tree *envgen.Tree) []string {
	var out []string
	for _, f := range tree.Files {
		if b := path.Base(f); b != "CMakeLists.txt" && !strings.HasSuffix(b, ".cmake") {
			continue
		}
		for _, m := range wrapperDefRe.FindAllStringSubmatch(stripComments(tree.Text(f), "#"), -1) {
			body := strings.ToLower(strings.Join(strings.Fields(m[3]), ""))
			name := strings.ToLower(m[1])
			if name != "option" && strings.Contains(body, "option(${"+strings.ToLower(m[2])+"}") && !contains(out, name) {
				out = append(out, name)
			}
		}
	}
	return out
}

// declaredOptionRe is a declaration of an option by option(),
// cmake_dependent_option() or one of wrappers.
func declaredOptionRe(wrappers []string) *regexp.Regexp {
	alt := `(?:cmake_dependent_)?option`
	for _, w := range wrappers {
		alt += "|" + regexp.QuoteMeta(w)
	}
	return regexp.MustCompile(`(?im)^\s*(?:` + alt + `)\s*\(\s*([A-Za-z0-9_]+)`)
}
