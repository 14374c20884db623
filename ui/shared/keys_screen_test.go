package shared

import (
	"sort"
	"testing"
)

// No key has two meanings on one screen: among the scopes a screen sees,
// each key belongs to one action. Every scope in the table is some
// screen's, so no action is left out of the check.
func TestNoKeyTwiceOnAScreen(t *testing.T) {
	seen := map[string]bool{}
	for screen, scopes := range ScreenScopes {
		owner := map[string]string{}
		for _, sc := range scopes {
			seen[sc] = true
			for _, a := range actions {
				if a.Scope != sc {
					continue
				}
				for _, k := range a.Keys {
					if k == " " {
						k = "space" // the same key, spelt two ways
					}
					if o, ok := owner[k]; ok && o != a.Name {
						t.Errorf("%s screen: key %q is both %s and %s", screen, k, o, a.Name)
					}
					owner[k] = a.Name
				}
			}
		}
	}
	var missing []string
	for _, a := range actions {
		if !seen[a.Scope] {
			missing = append(missing, a.Scope+" ("+a.Name+")")
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("scopes no screen sees: %v", missing)
	}
}
