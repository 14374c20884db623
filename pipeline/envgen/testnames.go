package envgen

import (
	"regexp"
	"sort"
)

// NamesMatching lists the distinct first submatches of re in content,
// sorted: the test names a test file defines.
func NamesMatching(re *regexp.Regexp, content string) []string {
	seen := map[string]bool{}
	var out []string
	for _, m := range re.FindAllStringSubmatch(content, -1) {
		if !seen[m[1]] {
			seen[m[1]] = true
			out = append(out, m[1])
		}
	}
	sort.Strings(out)
	return out
}

// TestNames lists the test functions a test file of lang defines.
func TestNames(lang, file, content string) []string {
	if l := LanguageFor(lang); l != nil {
		return l.TestNames(file, content)
	}
	return nil
}
