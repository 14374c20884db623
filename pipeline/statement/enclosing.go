package statement

import (
	"regexp"
	"strings"
)

// testStartRes find where a test opens, per language: the name a test
// runner reports (or a word of it), in the first group that matched.
var testStartRes = map[string][]*regexp.Regexp{
	"go":         {regexp.MustCompile(`^func\s+(Test\w+)\s*\(`)},
	"python":     {regexp.MustCompile(`^\s*(?:async\s+)?def\s+(test\w*)\s*\(`)},
	"javascript": {regexp.MustCompile(`\b(?:it|test)(?:\.\w+)?\s*\(\s*(?:'([^']+)'|"([^"]+)"|` + "`([^`]+)`" + `)`)},
	"rust":       {regexp.MustCompile(`\bfn\s+(\w+)\s*[(<]`)},
	"java":       {regexp.MustCompile(`\bvoid\s+(\w+)\s*\(`)},
	"cpp": {
		regexp.MustCompile(`\b(?:TEST|TEST_F|TEST_P|TYPED_TEST)\s*\(\s*(\w+\s*,\s*\w+)\s*\)`),
		regexp.MustCompile(`\bTEST_CASE\s*\(\s*"([^"]+)"`),
	},
}

func init() {
	testStartRes["typescript"] = testStartRes["javascript"]
	testStartRes["c"] = testStartRes["cpp"]
}

// funcStartRes find where any function opens, per language, so a value
// checked in a helper is credited to the tests that call the helper.
var funcStartRes = map[string]*regexp.Regexp{
	"go":         regexp.MustCompile(`^func\s+(?:\([^)]*\)\s*)?(\w+)\s*[\[(]`),
	"python":     regexp.MustCompile(`^\s*(?:async\s+)?def\s+(\w+)\s*\(`),
	"javascript": regexp.MustCompile(`\bfunction\s+(\w+)\s*\(|\b(?:const|let|var)\s+(\w+)\s*=\s*(?:async\s*)?(?:function\b|\([^)]*\)\s*=>)`),
	"rust":       regexp.MustCompile(`\bfn\s+(\w+)\s*[(<]`),
}

func init() { funcStartRes["typescript"] = funcStartRes["javascript"] }

// enclosingTests are the tests that line (1-based) of a test file is
// checked in: the test opening nearest above it, or, when the nearest
// function is a helper, the tests of the file that call it. None when
// neither opens above it (a table or fixture at file level).
func enclosingTests(lang string, lines []string, line int) []string {
	for i := min(line, len(lines)) - 1; i >= 0; i-- {
		if name := testAt(lang, lines[i]); name != "" {
			return []string{name}
		}
		if helper := funcAt(lang, lines[i]); helper != "" {
			return callersOf(lang, lines, helper)
		}
	}
	return nil
}

// testAt is the name of the test that opens on line, if one does.
func testAt(lang, line string) string {
	for _, re := range testStartRes[lang] {
		m := re.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		for _, g := range m[1:] {
			if (lang == "c" || lang == "cpp") && strings.Contains(g, ",") {
				// A C++ "Suite, Name" is reported as Suite.Name.
				return strings.Join(strings.Fields(strings.ReplaceAll(g, ",", " ")), ".")
			}
			if g != "" {
				return g
			}
		}
	}
	return ""
}

// funcAt is the name of the function that opens on line, if one does.
func funcAt(lang, line string) string {
	re := funcStartRes[lang]
	if re == nil {
		return ""
	}
	for _, g := range re.FindStringSubmatch(line) {
		if g != "" && g != strings.TrimSpace(line) && !strings.ContainsAny(g, " (") {
			return g
		}
	}
	return ""
}

// callersOf are the tests of the file whose bodies (from their opening to
// the next test's) call helper.
func callersOf(lang string, lines []string, helper string) []string {
	var out []string
	current := ""
	for _, l := range lines {
		if name := testAt(lang, l); name != "" {
			current = name
			continue
		}
		if funcAt(lang, l) != "" {
			current = ""
			continue
		}
		if current != "" && strings.Contains(l, helper+"(") && (len(out) == 0 || out[len(out)-1] != current) {
			out = append(out, current)
		}
	}
	return out
}

// MatchesTest reports whether a runner's test id names test: the same
// name, or the name as a word of it (a package, class or file prefix, a
// subtest suffix, a describe block's words around it).
func MatchesTest(id, test string) bool {
	if id == test || test == "" {
		return id == test
	}
	if strings.Contains(test, " ") {
		return strings.Contains(id, test)
	}
	return containsWord(id, test)
}
