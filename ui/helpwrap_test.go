package ui

import (
	"strings"
	"testing"

	"curate/ui/shared"
)

// TestHelpAt80x24ShowsEveryDescriptionWhole: `?` at 80x24 shows each key's
// description whole, wrapped when long ("toggle he…", "label eas…" and
// "exclude (…" were cut before), and no row is wider than the terminal.
// A screen with more keys than 80x24 holds (Runs) shows the ones that fit
// whole and says how many are left; Candidates, Task and Diff fit.
func TestHelpAt80x24ShowsEveryDescriptionWhole(t *testing.T) {
	a, _ := newTestApp(t, "dark", 80, 24)
	for screen := range a.screens {
		a.active = shared.TabID(screen)
		press(t, a, "?")
		v := plain(a.View())
		title := a.screens[screen].Title()
		if strings.Contains(strings.ReplaceAll(v, "validate…", ""), "…") {
			t.Errorf("%s: help cuts a description:\n%s", title, v)
		}
		if strings.Contains(v, "more keys do not fit") {
			if title == "Candidates" || title == "Task" || title == "Diff" {
				t.Errorf("%s: keys left out at 80x24:\n%s", title, v)
			}
			press(t, a, "esc")
			continue
		}
		words := strings.Fields(v)
		text := " " + strings.Join(words, " ") + " "
		for _, g := range a.screens[screen].FullHelp() {
			for _, kb := range g {
				if !kb.Enabled() {
					continue
				}
				for _, w := range strings.Fields(kb.Help().Desc) {
					if !strings.Contains(text, w) {
						t.Errorf("%s: help lacks %q of %q:\n%s", title, w, kb.Help().Desc, v)
					}
				}
			}
		}
		for _, line := range strings.Split(v, "\n") {
			if n := len([]rune(line)); n > 80 {
				t.Errorf("%s: a %d-cell row: %q", title, n, line)
			}
		}
		press(t, a, "esc")
	}
}
