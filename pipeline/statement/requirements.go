package statement

import (
	"regexp"
	"strings"
	"unicode"

	"curate/pipeline/sanitize"
	"curate/pipeline/unidiff"
)

// Requirement is one value the hidden tests check that the fix
// introduces: a piece of a string literal on an added line of the fix,
// absent from the buggy tree, that a literal (or an expected-output line)
// the PR's tests add contains. It is what the tests observe, never a line
// of the solution: only the value is shown, with where it is checked.
type Requirement struct {
	Value   string `json:"value"`
	Context string `json:"context"` // error, output, expected_file or value
	Exact   bool   `json:"exact,omitempty"`
	// Tests are the tests that check it (the names their files open them
	// with), so a curator sees which hidden test needs which value.
	Tests []string `json:"tests,omitempty"`
}

// maxRequirements keeps the section readable: a PR whose tests pin dozens
// of new strings (a new message catalogue) gets the first ones, in the
// fix's order.
const maxRequirements = 12

// Requirements derives the Requirements section from the fix and test
// diffs. files.Fixed reads the fixed tree; inBase reports whether a value
// occurs anywhere in the buggy tree (nil: only the fix's own files before
// it are searched).
func Requirements(fix, tests []unidiff.File, files Files, inBase func(string) bool) []Requirement {
	return capped(keepLongest(derive(fix, tests, files, inBase)))
}

// derive is every requirement, uncapped: what Strict compares the shown
// statement with.
func derive(fix, tests []unidiff.File, files Files, inBase func(string) bool) []Requirement {
	if files.Fixed == nil || len(tests) == 0 {
		return nil
	}
	checked := testValues(tests, files.Fixed)
	if len(checked) == 0 {
		return nil
	}
	var out []Requirement
	seen := map[string]bool{}
	for _, f := range fix {
		lang := languageOf(f.Name())
		if lang == "" || f.Binary || f.NewName == "/dev/null" {
			continue
		}
		added := addedLines(f)
		src, err := files.Fixed(f.Name())
		if err != nil || len(src) > maxSource || len(added) == 0 {
			continue
		}
		var base string
		if files.Base != nil && f.OldName != "/dev/null" {
			b, _ := files.Base(f.OldName)
			base = string(b)
		}
		for _, l := range stringLiterals(lang, f.Name(), src) {
			if !added[l.line] {
				continue
			}
			for _, c := range candidatesOf(l.value) {
				if seen[c.template] {
					continue
				}
				seen[c.template] = true
				if r, ok := requirementOf(c, checked, base, inBase); ok {
					out = append(out, r)
				}
			}
		}
	}
	return out
}

// requirementOf is c as a requirement when every piece of it is in what
// the tests check and it is new: its longest piece is neither in the
// file before the fix nor (inBase) anywhere in the buggy tree.
func requirementOf(c candidate, checked []testValue, base string, inBase func(string) bool) (Requirement, bool) {
	var where testValue
	longest := ""
	for i, p := range c.pieces {
		v, ok := checkedIn(p, checked)
		if !ok {
			return Requirement{}, false
		}
		if i == 0 {
			where = v
		}
		if len(p) > len(longest) {
			longest = p
		}
	}
	if inText(base, longest) || inBase != nil && inBase(longest) {
		return Requirement{}, false
	}
	r := Requirement{Value: c.template, Context: where.context, Exact: where.value == c.template}
	seen := map[string]bool{}
	for _, v := range checked {
		if !strings.Contains(v.value, longest) {
			continue
		}
		for _, t := range v.tests {
			if !seen[t] {
				seen[t] = true
				r.Tests = append(r.Tests, t)
			}
		}
	}
	return r, true
}

// inText reports whether the buggy file holds v as a value: a word
// (an enum member's name, a key) only in quotes, since the same word as
// a name in code is not the value a test compares with; any other value
// anywhere.
func inText(text, v string) bool {
	if !IsWord(v) {
		return strings.Contains(text, v)
	}
	for _, q := range []string{`"`, "'", "`"} {
		if strings.Contains(text, q+v+q) {
			return true
		}
	}
	return false
}

// IsWord reports whether v is one identifier-like word.
func IsWord(v string) bool {
	if v == "" {
		return false
	}
	for _, r := range v {
		if !(r == '_' || r == '-' || unicode.IsLetter(r) || unicode.IsDigit(r)) {
			return false
		}
	}
	return true
}

// testValue is a value the tests' added lines hold, with how it is used.
type testValue struct {
	value   string
	context string
	tests   []string // the tests it is checked in (none outside one)
}

// testValues are the string literals on the tests' added lines (and the
// added lines of expected-output files the tests read), each with the
// context its line gives.
func testValues(tests []unidiff.File, read func(string) ([]byte, error)) []testValue {
	var out []testValue
	for _, f := range tests {
		if f.Binary || f.NewName == "/dev/null" {
			continue
		}
		added := addedLines(f)
		lang := languageOf(f.Name())
		if lang == "" { // golden files, fixtures: compared as a whole
			for _, h := range f.Hunks {
				for _, l := range h.Lines {
					if l.Kind == '+' {
						out = append(out, testValue{value: strings.TrimSpace(l.Text), context: "expected_file"})
					}
				}
			}
			continue
		}
		src, err := read(f.Name())
		if err != nil || len(src) > maxSource {
			continue
		}
		lines := strings.Split(string(src), "\n")
		for _, l := range stringLiterals(lang, f.Name(), src) {
			if !added[l.line] || l.line-1 >= len(lines) {
				continue
			}
			ctx := lines[l.line-1]
			if lintSuppressionRe.MatchString(ctx) {
				continue // a linter's argument, not a value the test checks
			}
			if l.line >= 2 {
				ctx = lines[l.line-2] + "\n" + ctx // the assertion may open on the line before
			}
			out = append(out, testValue{value: l.value, context: contextOf(ctx), tests: enclosingTests(lang, lines, l.line)})
		}
	}
	return out
}

// checkedIn finds the test value that contains p: an exact one first.
func checkedIn(p string, vs []testValue) (testValue, bool) {
	var found testValue
	ok := false
	for _, v := range vs {
		if v.value == p || v.value == strings.TrimSpace(p) {
			return v, true
		}
		if !ok && strings.Contains(v.value, p) {
			found, ok = v, true
		}
	}
	return found, ok
}

var (
	// A lint suppression: Java's @SuppressWarnings("x"), Kotlin's
	// @Suppress, Rust's #[allow(x)] / #[expect(x)].
	lintSuppressionRe = regexp.MustCompile(`^\s*(?:@(?:java\.lang\.)?Suppress(?:Warnings)?\b|#!?\[(?:allow|expect)\()`)
	errorLineRe       = regexp.MustCompile(`(?i)err|exception|raise|throw|panic|fail|reject|invalid|warn`)
	outputLineRe      = regexp.MustCompile(`(?i)stdout|stderr|output|usage|help|print|\.string\(|\bstr\(|repr|render|format|message|\blog`)
)

func contextOf(line string) string {
	switch {
	case errorLineRe.MatchString(line):
		return "error"
	case outputLineRe.MatchString(line):
		return "output"
	}
	return "value"
}

// capped keeps the first maxRequirements.
func capped(rs []Requirement) []Requirement {
	if len(rs) > maxRequirements {
		return rs[:maxRequirements]
	}
	return rs
}

// keepLongest drops a requirement another one contains.
func keepLongest(rs []Requirement) []Requirement {
	var out []Requirement
	for i, r := range rs {
		inside := false
		for j, o := range rs {
			if i != j && len(o.Value) > len(r.Value) && strings.Contains(o.Value, r.Value) {
				inside = true
				break
			}
		}
		if !inside {
			out = append(out, r)
		}
	}
	return out
}

// RequirementsSection is the markdown the agent reads about the values
// the tests check ("" when there are none). Values that name a hidden
// test or a changed file are left out: redacted they would say nothing.
func RequirementsSection(rs []Requirement, hide []string) string {
	var lines []string
	for _, r := range rs {
		v := sanitize.Line(r.Value)
		if redact(v, hide) != v {
			continue
		}
		lines = append(lines, "- "+requirementWords(r.Context, r.Exact)+" "+codeSpan(v))
	}
	if len(lines) == 0 {
		return ""
	}
	intro := "The hidden tests check these exact values, which the change introduces"
	if strings.Contains(strings.Join(lines, ""), "…") {
		intro += " (… stands for a part that varies)"
	}
	return "## Requirements\n\n" + intro + ":\n\n" + strings.Join(lines, "\n") + "\n"
}

func requirementWords(context string, exact bool) string {
	switch {
	case context == "error" && exact:
		return "an error message the tests check reads"
	case context == "error":
		return "an error message the tests check contains"
	case context == "output" && exact:
		return "output the tests check reads"
	case context == "output":
		return "output the tests check contains"
	case context == "expected_file":
		return "the expected output the tests compare with contains"
	case exact:
		return "a value the tests compare is"
	}
	return "a value the tests compare contains"
}

// codeSpan quotes v as inline code, with a longer fence when v holds
// backticks.
func codeSpan(v string) string {
	fence := "`"
	for strings.Contains(v, fence) {
		fence += "`"
	}
	if strings.HasPrefix(v, "`") || strings.HasSuffix(v, "`") {
		return fence + " " + v + " " + fence
	}
	return fence + v + fence
}
