package shared

import (
	"fmt"
	"slices"
	"strings"
)

// A page embeds a scope's key table between markers, so the table is
// written from the key table and never by hand:
//
//	<!-- keys: Task -->
//	(generated)
//	<!-- end keys -->
const (
	keysBegin = "<!-- keys: "
	keysEnd   = "<!-- end keys -->"
)

// ReplaceKeyTables rewrites every marked block of page (named name in
// errors) with the current table of its scope.
func ReplaceKeyTables(name, page string) (string, error) {
	scopes, byScope := actionsByScope()
	lines := strings.SplitAfter(page, "\n")
	var b strings.Builder
	open := 0 // line number of the open block's begin marker, 0 when none
	for i, line := range lines {
		t := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(t, keysBegin):
			if open > 0 {
				return "", fmt.Errorf("%s:%d: key table block opened inside the one of line %d", name, i+1, open)
			}
			scope := strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(t, keysBegin), "-->"))
			if !slices.Contains(scopes, scope) {
				return "", fmt.Errorf("%s:%d: no key scope %q (have %s)", name, i+1, scope, strings.Join(scopes, ", "))
			}
			open = i + 1
			b.WriteString(line)
			b.WriteString(keyTable(byScope[scope]))
		case t == keysEnd:
			if open == 0 {
				return "", fmt.Errorf("%s:%d: %s with no block open", name, i+1, keysEnd)
			}
			open = 0
			b.WriteString(line)
		case open == 0:
			b.WriteString(line)
		}
	}
	if open > 0 {
		return "", fmt.Errorf("%s:%d: key table block not closed (%s)", name, open, keysEnd)
	}
	return b.String(), nil
}

// KeyScopes lists the key table's scopes in order.
func KeyScopes() []string {
	scopes, _ := actionsByScope()
	return scopes
}
