package cfamily

import (
	"path"
	"regexp"
	"strings"

	"curate/pipeline/envgen"
)

var (
	// excludedExecutableRe is add_executable(NAME EXCLUDE_FROM_ALL ...).
	excludedExecutableRe = regexp.MustCompile(`(?i)\badd_executable\s*\(\s*([A-Za-z0-9_.+-]+)\s+EXCLUDE_FROM_ALL\b`)
	// addTestRe is add_test(NAME n COMMAND exe ...) or add_test(n exe ...);
	// the command may be $<TARGET_FILE:exe>.
	addTestRe = regexp.MustCompile(`(?i)\badd_test\s*\(\s*(?:NAME\s+\S+\s+COMMAND\s+|[A-Za-z0-9_.+-]+\s+)(?:\$<TARGET_FILE:)?([A-Za-z0-9_.+-]+)`)
)

// excludedTestTargets are the executables CTest runs that the default
// build leaves out (EXCLUDE_FROM_ALL): a project builds them through its
// own "check" target, which also runs the suite. An HTTP/2 library's
// tests were "Not Run" in both states: "Unable to find executable: main".
// They are built after the default build (CURATE_BUILD_TARGETS).
func excludedTestTargets(p *envgen.Plan, tree *envgen.Tree) []string {
	excluded := map[string]string{}
	var texts []string
	for _, f := range tree.Files {
		if (path.Base(f) != "CMakeLists.txt" && !strings.HasSuffix(f, ".cmake")) || vendored(f) {
			continue
		}
		text := stripComments(tree.Text(f), "#")
		texts = append(texts, text)
		for _, m := range excludedExecutableRe.FindAllStringSubmatch(text, -1) {
			excluded[m[1]] = f
		}
	}
	if len(excluded) == 0 {
		return nil
	}
	var out []string
	for _, text := range texts {
		for _, m := range addTestRe.FindAllStringSubmatch(text, -1) {
			if f, ok := excluded[m[1]]; ok && !contains(out, m[1]) {
				out = append(out, m[1])
				p.Note("builds the test executable %s after the default build: %s leaves it out of it (EXCLUDE_FROM_ALL) and CTest runs it", m[1], f)
			}
		}
	}
	return out
}
