package golang

import (
	"curate/pipeline/envgen"
	"fmt"
	"path"
	"regexp"
	"sort"
	"strings"
)

var (
	importCommentRe = regexp.MustCompile(`(?m)^package\s+\w+\s*//\s*import\s+"([^"\s]+)"`)
	quotedPathRe    = regexp.MustCompile(`"([a-z0-9.-]+\.[a-z]{2,}(?:/[A-Za-z0-9._~+-]+)+)"`)
)

// maxImportFiles bounds the files read to find the repository's own
// import path (the shallowest first: the root package imports its
// subpackages).
const maxImportFiles = 60

// ownImportPath is the import path the repository's code calls itself by:
// the root package's import comment, else the prefix that most of its
// imports of its own folders share ("github.com/o/r/json" with a json/
// folder). A GOPATH-era tree is only ever built at that path, whatever
// the clone's origin says (a mirror, a fork). "" when nothing says.
func ownImportPath(tree *envgen.Tree) (importPath, source string) {
	dirs := map[string]bool{}
	var files []string
	for _, f := range tree.Files {
		if !strings.HasSuffix(f, ".go") || strings.HasPrefix(f, "vendor/") || strings.Contains("/"+f, "/testdata/") {
			continue
		}
		files = append(files, f)
		if d := path.Dir(f); d != "." {
			dirs[d] = true
		}
	}
	sort.SliceStable(files, func(i, j int) bool { return strings.Count(files[i], "/") < strings.Count(files[j], "/") })
	votes := map[string]int{}
	example := map[string]string{}
	for i, f := range files {
		if i == maxImportFiles {
			break
		}
		text := tree.Text(f)
		if m := importCommentRe.FindStringSubmatch(text); m != nil && path.Dir(f) == "." {
			return m[1], fmt.Sprintf("the import comment of %s", f)
		}
		for _, m := range quotedPathRe.FindAllStringSubmatch(text, -1) {
			for d := range dirs {
				if prefix, ok := strings.CutSuffix(m[1], "/"+d); ok && prefix != "" {
					votes[prefix]++
					example[prefix] = m[1]
				}
			}
		}
	}
	best := ""
	for p, n := range votes {
		if best == "" || n > votes[best] || (n == votes[best] && p < best) {
			best = p
		}
	}
	if best == "" {
		return "", ""
	}
	return best, fmt.Sprintf("the repository's imports of its own folders (%d, e.g. %s)", votes[best], example[best])
}
