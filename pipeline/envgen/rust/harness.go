package rust

import (
	"path"
	"regexp"
	"strings"

	"curate/pipeline/envgen"
)

var (
	testTableRe = regexp.MustCompile(`(?m)^\s*\[\[test\]\]\s*$`)
	harnessRe   = regexp.MustCompile(`(?m)^\s*harness\s*=\s*false\b`)
	pathKeyRe   = regexp.MustCompile(`(?m)^\s*path\s*=\s*"([^"]+)"`)
)

// harnessFree are the PR's test files that are `harness = false` targets
// of their crate ([[test]] tables): each is its own main(), which prints
// no "test ... ok" line, so the runner's check looks for its Running line.
func harnessFree(tree *envgen.Tree, files []string) []string {
	var out []string
	for _, f := range files {
		dir, _, ok := rustTestCrate(tree, f)
		if !ok {
			continue
		}
		rel := strings.TrimPrefix(f, dir)
		for _, table := range testTables(tree.Text(dir + "Cargo.toml")) {
			if !harnessRe.MatchString(table) {
				continue
			}
			p := ""
			if m := pathKeyRe.FindStringSubmatch(table); m != nil {
				p = path.Clean(m[1])
			} else if m := cargoNameRe.FindStringSubmatch(table); m != nil {
				p = "tests/" + m[1] + ".rs"
			}
			if p == rel {
				out = append(out, rel)
				break
			}
		}
	}
	return out
}

// testTables are the bodies of a manifest's [[test]] tables.
func testTables(manifest string) []string {
	var out []string
	for _, loc := range testTableRe.FindAllStringIndex(manifest, -1) {
		body := manifest[loc[1]:]
		if j := sectionStartRe.FindStringIndex(body); j != nil {
			body = body[:j[0]]
		}
		out = append(out, body)
	}
	return out
}
