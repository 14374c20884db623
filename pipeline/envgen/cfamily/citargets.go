package cfamily

import (
	"path"
	"regexp"
	"strings"

	"curate/pipeline/envgen"
	"curate/pipeline/envgen/ciconfig"
)

// notTestTargets are targets a CI builds for other ends than its tests.
var notTestTargets = map[string]bool{"all": true, "install": true, "package": true, "clean": true, "test": true, "check": true,
	"doc": true, "docs": true, "doxygen": true, "coverage": true, "format": true, "lint": true}

// ciTargets are the targets the CI's cmake --build commands name that
// the project defines itself (add_custom_target, add_executable): a
// date library's compile-fail tests run programs only its "testit"
// target makes, so without it every one failed in both states. They
// are built after the default build (CURATE_BUILD_TARGETS).
func ciTargets(p *envgen.Plan, tree *envgen.Tree) []string {
	var cmake strings.Builder
	for _, f := range tree.Files {
		if (path.Base(f) == "CMakeLists.txt" || strings.HasSuffix(f, ".cmake")) && !vendored(f) {
			cmake.WriteString(stripComments(tree.Text(f), "#"))
		}
	}
	var out []string
	for _, t := range ciconfig.Read(tree).Targets {
		name := t.Value
		if notTestTargets[strings.ToLower(name)] || contains(out, name) {
			continue
		}
		re := regexp.MustCompile(`(?i)\badd_(?:custom_target|executable)\s*\(\s*` + regexp.QuoteMeta(name) + `[\s)]`)
		if !re.MatchString(cmake.String()) {
			continue
		}
		out = append(out, name)
		p.Note("builds the target %s after the default build, as the CI does (%s)", name, t.Source)
	}
	return out
}
