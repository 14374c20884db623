package validate

import (
	"regexp"
	"strings"

	"curate/pipeline/validate/parse"
)

// plainIDRe is a test id made of words and separators only: no digit (a
// time, a counter, an address or a random number carries one), no
// bracket, quote or "=" (a parametrized id carries a value).
var plainIDRe = regexp.MustCompile(`^[A-Za-z_][A-Za-z_.:/ -]*$`)

// plainIDs reports whether every test id in rep is a plain name, the same
// in every run: a fixed state whose ids are all plain needs no second run
// to find ids that change. A temporary path's random letters are not
// plain ("tmp", "temp").
func plainIDs(rep *parse.Report) bool {
	if rep == nil || len(rep.Tests) == 0 {
		return false
	}
	for id := range rep.Tests {
		low := strings.ToLower(id)
		if !plainIDRe.MatchString(id) || strings.Contains(low, "tmp") || strings.Contains(low, "temp") {
			return false
		}
	}
	return true
}
