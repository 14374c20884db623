package cfamily

import (
	"regexp"
	"sort"
	"strings"

	"curate/pipeline/envgen"
)

var (
	// gtestFilterRe is GTEST_FILTER set in a workflow's env, or a
	// --gtest_filter argument of a step.
	gtestFilterRe = regexp.MustCompile(`(?m)(?:\bGTEST_FILTER\s*[:=]|--gtest_filter[= ])\s*(.+)$`)
	// exprDefaultRe is the literal default of a GitHub expression:
	// ${{ github.event.inputs.gtest_filter || '-*_Online' }}.
	exprDefaultRe = regexp.MustCompile(`\|\|\s*'([^']*)'\s*}}`)
	// globRe is one GoogleTest filter pattern.
	globRe = regexp.MustCompile(`^[A-Za-z0-9_.*?/]+$`)
)

// ciGTestExcluded are the GoogleTest patterns the CI leaves out of every
// run by default (GTEST_FILTER: '-*_Online': tests that need the internet,
// which the CI's own offline workflow excludes too). A filter that selects
// tests (one job's subset) is not read.
func ciGTestExcluded(tree *envgen.Tree) []string {
	seen := map[string]bool{}
	for _, f := range tree.Glob(".github/workflows/*") {
		for _, m := range gtestFilterRe.FindAllStringSubmatch(tree.Text(f), -1) {
			v := strings.TrimSpace(m[1])
			if strings.Contains(v, "${{") {
				d := exprDefaultRe.FindStringSubmatch(v)
				if d == nil {
					continue
				}
				v = d[1]
			}
			v = strings.Trim(v, `"'`)
			if !strings.HasPrefix(v, "-") {
				continue
			}
			for _, g := range strings.Split(v[1:], ":") {
				if globRe.MatchString(g) && strings.Trim(g, "*.?") != "" {
					seen[g] = true
				}
			}
		}
	}
	var out []string
	for g := range seen {
		out = append(out, g)
	}
	sort.Strings(out)
	return out
}
