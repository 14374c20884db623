package cfamily

import (
	"path"
	"slices"
	"strings"

	"curate/pipeline/envgen"
)

// ciSubprojectTestOptions are the test switches a folder's own
// CMakeLists.txt declares (gtest_build_tests in a testing framework's
// googletest/ and googlemock/ folders) that the CI turns on (-DX=ON in a
// workflow or a ci/ script): the root's switches are testOptions', and a
// subproject's stay off unless the project's CI says otherwise, so a
// vendored framework's own tests are not built. Without them a
// framework's suite was never configured: 6 of 6 PRs were nop_not_run.
func ciSubprojectTestOptions(p *envgen.Plan, tree *envgen.Tree, dir string, have []string) []string {
	ci := ciFilesText(tree)
	if ci == "" {
		return nil
	}
	var out []string
	for _, f := range tree.Files {
		prefix := ""
		if dir != "" {
			prefix = dir + "/"
		}
		rel, ok := strings.CutPrefix(f, prefix)
		if !ok || path.Base(rel) != "CMakeLists.txt" || rel == "CMakeLists.txt" {
			continue
		}
		for _, o := range declaredOptions(tree.Text(f), optionWrappers(tree)) {
			if turnsTestsOn(strings.ToUpper(o)) && !slices.Contains(have, o) && !slices.Contains(out, o) && turnedOn(ci, o) {
				out = append(out, o)
				p.Note("%s=ON: a test switch of %s that the CI (workflows and ci/ scripts) turns on", o, f)
			}
		}
	}
	return out
}
