package cfamily

import (
	"path"
	"regexp"
	"sort"
	"strings"
)

// testMacroRe is a GoogleTest test's first line: TEST(Suite, Name) and
// its fixture, parameterized and typed forms.
var testMacroRe = regexp.MustCompile(`(?m)^[ \t]*(TYPED_TEST|TEST_P|TEST_F|TEST)\s*\(\s*(\w+)\s*,\s*(\w+)\s*\)`)

// ChangedTestNames are the GoogleTest tests (Suite.Name) whose bodies the
// PR adds or changes in one test file. A whole suite in one file (15,000
// lines, 800 cases, each run minutes long) then runs only those. ok is
// false, and the suite runs whole, when anything outside the tests'
// bodies changed (a helper or fixture every test may use; lines only
// added there, a new helper for the new tests, are fine), when a changed
// test is parameterized or typed (its run names are not Suite.Name), when
// no test changed, or when the file does not read as C/C++.
func (lang) ChangedTestNames(file, before, after string) ([]string, bool) {
	if e := strings.ToLower(path.Ext(file)); !cExts[e] && !cxxExts[e] {
		return nil, false
	}
	old, oldRest, ok1 := testBodies(before)
	cur, curRest, ok2 := testBodies(after)
	// A new file's helpers are new too, and every test in it is selected.
	if !ok1 || !ok2 || len(cur) == 0 || (before != "" && !onlyAdded(oldRest, curRest)) {
		return nil, false
	}
	var names []string
	for _, b := range cur {
		if prev, ok := old[b.name]; ok && squash(prev.text) == squash(b.text) {
			continue
		}
		if b.kind == "TEST_P" || b.kind == "TYPED_TEST" {
			return nil, false
		}
		names = append(names, b.name)
	}
	sort.Strings(names)
	return names, len(names) > 0
}

type testBody struct{ kind, name, text string }

// testBodies splits a source file into its tests (macro line to closing
// brace) and the rest. ok is false when a body's braces do not close.
func testBodies(src string) (map[string]testBody, string, bool) {
	bodies := map[string]testBody{}
	var rest strings.Builder
	at := 0
	for _, m := range testMacroRe.FindAllStringSubmatchIndex(src, -1) {
		if m[0] < at {
			continue // a macro inside the previous body (a string, a comment)
		}
		end := bodyEnd(src, m[1])
		if end < 0 {
			return nil, "", false
		}
		rest.WriteString(src[at:m[0]])
		b := testBody{kind: src[m[2]:m[3]], name: src[m[4]:m[5]] + "." + src[m[6]:m[7]], text: src[m[0]:end]}
		bodies[b.name] = b
		at = end
	}
	rest.WriteString(src[at:])
	return bodies, rest.String(), true
}

// bodyEnd is the offset just past the brace that closes the body opening
// at or after from, skipping comments, string and character literals and
// raw strings; -1 when it does not close.
func bodyEnd(s string, from int) int {
	depth := 0
	for i := from; i < len(s); i++ {
		switch c := s[i]; {
		case c == '/' && i+1 < len(s) && s[i+1] == '/':
			j := strings.IndexByte(s[i:], '\n')
			if j < 0 {
				return -1
			}
			i += j
		case c == '/' && i+1 < len(s) && s[i+1] == '*':
			j := strings.Index(s[i+2:], "*/")
			if j < 0 {
				return -1
			}
			i += j + 3
		case c == 'R' && i+1 < len(s) && s[i+1] == '"' && (i == 0 || !isIdent(s[i-1]) || s[i-1] == 'u' || s[i-1] == 'U' || s[i-1] == 'L' || s[i-1] == '8'):
			open := strings.IndexByte(s[i+2:], '(')
			if open < 0 || open > 16 {
				return -1
			}
			delim := ")" + s[i+2:i+2+open] + `"`
			j := strings.Index(s[i+3+open:], delim)
			if j < 0 {
				return -1
			}
			i += 3 + open + j + len(delim) - 1
		case c == '"' || c == '\'':
			j := i + 1
			for j < len(s) && s[j] != c && s[j] != '\n' {
				if s[j] == '\\' {
					j++
				}
				j++
			}
			if j >= len(s) {
				return -1
			}
			i = j
		case c == '{':
			depth++
		case c == '}':
			depth--
			if depth == 0 {
				return i + 1
			}
			if depth < 0 {
				return -1
			}
		}
	}
	return -1
}

func isIdent(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// onlyAdded says whether after is before with lines added and none
// changed or removed (white space aside): a new helper only the new tests
// call changes no existing test.
func onlyAdded(before, after string) bool {
	next := lines(after)
	for _, l := range lines(before) {
		for len(next) > 0 && next[0] != l {
			next = next[1:]
		}
		if len(next) == 0 {
			return false
		}
		next = next[1:]
	}
	return true
}

func lines(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if l = squash(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}

// squash is s with each run of white space one space: a re-indented test
// is not a changed one.
func squash(s string) string { return strings.Join(strings.Fields(s), " ") }

// clip shortens s to n bytes for a note.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}
