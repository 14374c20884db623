package ui

import (
	"strings"
	"testing"
)

// The help hint is on the tab bar at every width, shortened as room
// shrinks, never dropped.
func TestHelpHintAtEveryWidth(t *testing.T) {
	for _, w := range []int{60, 80, 100, 120, 160} {
		a, _ := jobsApp(t, "dark", w, 30, nil)
		for _, tab := range []string{"f1", "f4", "f7"} {
			press(t, a, tab)
			bar := strings.SplitN(plain(a.View()), "\n", 2)[0]
			if !strings.HasSuffix(strings.TrimRight(bar, " "), "?") && !strings.Contains(bar, "? help") {
				t.Errorf("width %d, %s: no help hint in the tab bar %q", w, tab, bar)
			}
		}
	}
}
