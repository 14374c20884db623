package runs

import (
	"strings"
	"testing"

	"curate/ui/uitest"
)

// TestGoldRunLogNamesEachState: a gold run tests two states, so the log
// pane's summary names them ("buggy state: 3 tests (pytest), 2 failed",
// "fixed state: 3 tests (pytest), 1 failed"), never one anonymous count.
func TestGoldRunLogNamesEachState(t *testing.T) {
	a, s, _ := goldApp(t)
	e := s.selected()
	s.openLog()
	s.Update(s.loadTestsOf(e)())
	v := uitest.Plain(a.Screen.View())
	for _, want := range []string{"buggy state: 3 tests (pytest), 2 failed", "fixed state: 3 tests (pytest), 1 failed"} {
		if !strings.Contains(v, want) {
			t.Errorf("log pane lacks %q:\n%s", want, v)
		}
	}
}
