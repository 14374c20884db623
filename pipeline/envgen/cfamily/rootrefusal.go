package cfamily

import (
	"path"
	"regexp"
	"strings"

	"curate/pipeline/envgen"
)

var (
	// refusesRootRe is a message that a suite will not run as root, and
	// uidCheckRe the check behind it.
	refusesRootRe = regexp.MustCompile(`(?i)"[^"\x00-\x1f]*\b(?:cannot|can't|can not|must not|should not|shouldn't|do not|don't|refuses? to)\s+(?:be\s+)?run\w*(?:\s+\w+){0,3}\s+as\s+root\b[^"\x00-\x1f]*"`)
	uidCheckRe    = regexp.MustCompile(`\bgete?uid\s*\(\s*\)\s*==\s*0\b|\b0\s*==\s*gete?uid\s*\(\s*\)`)
)

// testUser is the user a suite that refuses root runs as: an event-loop
// library's test runner stops at once ("The libuv test suite cannot be
// run as root."), and validation containers run as root, so all six of
// its PRs failed in both states. A CI machine never runs as root. Read
// from the sources of the tree's test folders; "" when none refuses.
func testUser(p *envgen.Plan, tree *envgen.Tree) string {
	for _, f := range tree.Files {
		e := strings.ToLower(path.Ext(f))
		if !(cExts[e] || cxxExts[e]) || !strings.Contains(strings.ToLower(f), "test") || vendored(f) {
			continue
		}
		text := tree.Text(f)
		if m := refusesRootRe.FindString(text); m != "" && uidCheckRe.MatchString(text) {
			p.Note("the tests run as nobody: %s refuses root (%s), and validation containers run as root", f, clip(m, 80))
			return "nobody"
		}
	}
	return ""
}
