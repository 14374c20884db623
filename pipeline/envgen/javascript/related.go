package javascript

import (
	"curate/pipeline/envgen"
	"path"
	"regexp"
	"sort"
	"strings"
)

// A PR's test files are not all suites: shared cases (a *.spec.ts that
// only exports data other specs import), helpers and fixtures
// (test/fixtures/*.js, __fixtures__/Documents/*.html) are loaded by the
// suites that use them. Run alone, a runner reports "No test suite found"
// for such a file; refusing the PR loses a good task. So the suites that
// use them run instead: those in the tree that import them (ES import,
// require, dynamic import; a TypeScript "./x.js" names x.ts) or name
// them by path (readFileSync, new URL, path.join pieces). Scanning the
// tree works the same for every runner (vitest, jest, mocha, ava, tap,
// node --test) and sees file reads, which vitest related and jest
// --findRelatedTests (module graphs) do not.

// suiteCallRe finds a test declaration: describe/it/test/suite calls (with
// .each, .only, .skip...), tap's t.test and tap.test, mocha's
// context/specify.
var suiteCallRe = regexp.MustCompile(`(?m)(?:^|[^.\w$])(?:t\.|tap\.)?(?:describe|context|it|specify|test|suite|fdescribe|xit)(?:\.\w+)*\s*\(`)

// pathLiteralRe finds string literals that may be paths: quoted or
// template strings up to their first ${.
var pathLiteralRe = regexp.MustCompile("['\"`]([^'\"`$\\s]{1,200})")

// maxScan bounds the files read when looking for the suites that use a
// helper (a monorepo's test tree).
const maxScan = 3000

// isSuite says whether a test file's content declares tests.
func isSuite(content string) bool { return suiteCallRe.MatchString(content) }

// testNamed says whether a file's name marks it a test (x.test.ts,
// x.spec.js).
func testNamed(f string) bool {
	base := path.Base(f)
	return strings.Contains(base, ".test.") || strings.Contains(base, ".spec.")
}

// testish says whether a path is where tests and their helpers live.
func testish(f string) bool {
	if strings.Contains(f, "node_modules/") || strings.HasSuffix(f, ".d.ts") || !jsExtensions[path.Ext(f)] {
		return false
	}
	base := path.Base(f)
	if strings.Contains(base, ".test.") || strings.Contains(base, ".spec.") || strings.HasPrefix(base, "test.") || strings.HasPrefix(base, "test-") {
		return true
	}
	for _, seg := range strings.Split(path.Dir(f), "/") {
		switch seg {
		case "test", "tests", "__tests__", "spec", "specs", "__fixtures__", "fixtures", "helpers":
			return true
		}
	}
	return false
}

// splitSuites divides the PR's test files into suites a runner loads and
// the helpers, cases and fixtures they use; for the latter it finds the
// suites in the tree that use them. It returns the suites to run and, when
// it had to look, a note saying what and why.
func splitSuites(tree *envgen.Tree, files []string) ([]string, string) {
	runnable := map[string]bool{}
	for _, f := range runnableJSTests(files) {
		runnable[f] = true
	}
	var suites, helpers []string
	for _, f := range files {
		switch {
		case runnable[f] && (!tree.Has(f) || isSuite(tree.Text(f))):
			suites = append(suites, f)
		case strings.Contains(f, "__snapshots__/"):
			// vitest/jest: __snapshots__/x.spec.ts.snap belongs to ../x.spec.ts.
			own := path.Join(path.Dir(path.Dir(f)), strings.TrimSuffix(path.Base(f), ".snap"))
			if tree.Has(own) && !contains(suites, own) {
				suites = append(suites, own)
			}
		case strings.Contains(path.Base(f), ".bench.") || strings.Contains(path.Base(f), ".test-d.") || strings.HasSuffix(f, ".d.ts"):
		default:
			helpers = append(helpers, f)
		}
	}
	if len(helpers) == 0 {
		return suites, ""
	}
	users := suitesUsing(tree, helpers)
	var added []string
	for _, u := range users {
		if !contains(suites, u) {
			suites = append(suites, u)
			added = append(added, u)
		}
	}
	if len(added) == 0 && len(suites) == 0 {
		// A *.test.* or *.spec.* file that declares its tests through a
		// function of its own (runCases(cases)) is run as it is: a runner
		// that finds none says so, classed no_tests_collected.
		for _, h := range helpers {
			if runnable[h] && testNamed(h) {
				suites = append(suites, h)
			}
		}
		if len(suites) > 0 {
			return suites, ""
		}
		// Nothing names them (a fixture found by listing its folder): the
		// suites of the nearest folder above them that has any, as pytest
		// collects a package.
		suites = folderSuites(tree, helpers)
		if len(suites) == 0 {
			return nil, ""
		}
		return suites, "the PR's test files " + strings.Join(helpers, ", ") + " declare no tests and no suite names them: the suites of their folder run (" + strings.Join(suites, ", ") + ")"
	}
	if len(added) == 0 {
		return suites, ""
	}
	return suites, "the PR's test files " + strings.Join(helpers, ", ") + " declare no tests (shared cases, helpers or fixtures): the suites that use them run instead (" + strings.Join(added, ", ") + ")"
}

// suitesUsing finds the suites that import or name any of the helpers,
// through helpers that import helpers (three levels).
func suitesUsing(tree *envgen.Tree, helpers []string) []string {
	var candidates []string
	for _, f := range tree.Files {
		if testish(f) {
			candidates = append(candidates, f)
			if len(candidates) == maxScan {
				break
			}
		}
	}
	found := map[string]bool{}
	seen := map[string]bool{}
	wanted := helpers
	for depth := 0; depth < 3 && len(wanted) > 0; depth++ {
		var next []string
		for _, c := range candidates {
			if seen[c] {
				continue
			}
			text := tree.Text(c)
			if !uses(c, text, wanted) {
				continue
			}
			seen[c] = true
			if isSuite(text) {
				found[c] = true
			} else {
				next = append(next, c)
			}
		}
		wanted = next
	}
	out := make([]string, 0, len(found))
	for f := range found {
		out = append(out, f)
	}
	sort.Strings(out)
	return out
}

// uses says whether file (with content text) names one of the helpers: a
// string literal that, taken relative to the file's folder or the
// repository root, is the helper (a script's extension aside: "./x.js"
// and "./x" name x.ts), its folder's index, or a folder holding it; or
// the helper's base name (a fixture loaded by name).
func uses(file, text string, helpers []string) bool {
	dir := path.Dir(file)
	for _, m := range pathLiteralRe.FindAllStringSubmatch(text, -1) {
		lit := m[1]
		var cands []string
		switch {
		case strings.HasPrefix(lit, "./") || strings.HasPrefix(lit, "../"):
			cands = []string{path.Join(dir, lit)}
		case strings.Contains(lit, "/"):
			cands = []string{path.Join(dir, lit), path.Clean(lit)}
		default:
			cands = []string{path.Join(dir, lit)}
		}
		for _, h := range helpers {
			hb := path.Base(h)
			if lit == hb || (len(stripExt(hb)) >= 3 && lit == stripExt(hb) && path.Ext(hb) != "") {
				return true
			}
			for _, r := range cands {
				if r == "." || strings.HasPrefix(r, "..") || strings.HasPrefix(file, r+"/") {
					continue // the file's own folder or an ancestor: names everything
				}
				if r == h || (jsExtensions[path.Ext(h)] && stripExt(r) == stripExt(h)) || r+"/index" == stripExt(h) {
					return true
				}
				// A folder: named with a slash, or one below the file's own
				// (path.join(__dirname, "fixtures", name)).
				if strings.HasPrefix(h, r+"/") && (strings.Contains(lit, "/") || strings.HasPrefix(r, dir+"/") || dir == ".") {
					return true
				}
			}
		}
	}
	return false
}

// folderSuites lists the suites under the nearest folder above the
// helpers that holds any.
func folderSuites(tree *envgen.Tree, helpers []string) []string {
	var out []string
	for _, h := range helpers {
		for dir := path.Dir(h); ; dir = path.Dir(dir) {
			prefix := dir + "/"
			if dir == "." {
				prefix = ""
			}
			var here []string
			for _, f := range tree.Files {
				if strings.HasPrefix(f, prefix) && testish(f) && isSuite(tree.Text(f)) {
					here = append(here, f)
				}
			}
			if len(here) > 0 {
				for _, f := range here {
					if !contains(out, f) {
						out = append(out, f)
					}
				}
				break
			}
			if dir == "." {
				break
			}
		}
	}
	sort.Strings(out)
	return out
}

func stripExt(p string) string {
	if jsExtensions[path.Ext(p)] {
		return strings.TrimSuffix(p, path.Ext(p))
	}
	return p
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
