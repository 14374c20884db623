package statement

import (
	"sort"
	"strings"

	"curate/pipeline/unidiff"
)

// FlagStrictTests: a hidden test checks a value the fix introduces that
// the instruction, as the agent reads it, does not give (SWE-bench
// Verified's "tests reject valid solutions").
const FlagStrictTests = "strict_tests"

// StrictTest is one test and the values it checks that the instruction
// does not give.
type StrictTest struct {
	Test   string   `json:"test"` // "" for values checked outside a named test
	Values []string `json:"values"`
}

// AllRequirements is every value the tests check that the fix
// introduces, uncapped; Requirements shows the first of them.
func AllRequirements(fix, tests []unidiff.File, files Files, inBase func(string) bool) []Requirement {
	return keepLongest(derive(fix, tests, files, inBase))
}

// CapRequirements is the part of all the Requirements section lists.
func CapRequirements(all []Requirement) []Requirement { return capped(all) }

// Strict lists, per test, the values of all that shown (the rendered
// instruction) does not give: a value is given when each of its parts is
// in the text, whitespace folded. With failToPass known only those tests
// count; values outside a named test always do.
func Strict(all []Requirement, shown string, failToPass []string) []StrictTest {
	text := collapse(shown)
	byTest := map[string][]string{}
	for _, r := range all {
		if given(r.Value, text) {
			continue
		}
		tests := r.Tests
		if len(tests) == 0 {
			tests = []string{""}
		}
		for _, t := range tests {
			if t == "" || len(failToPass) == 0 || anyMatches(failToPass, t) {
				byTest[t] = append(byTest[t], r.Value)
			}
		}
	}
	out := make([]StrictTest, 0, len(byTest))
	for t, vs := range byTest {
		out = append(out, StrictTest{Test: t, Values: vs})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Test < out[j].Test })
	return out
}

// given reports whether every part of v (a template's parts around "…")
// is in the folded text.
func given(v, text string) bool {
	for _, p := range strings.Split(v, "…") {
		if p = collapse(p); p != "" && !strings.Contains(text, p) {
			return false
		}
	}
	return true
}

func anyMatches(ids []string, test string) bool {
	for _, id := range ids {
		if MatchesTest(id, test) {
			return true
		}
	}
	return false
}
