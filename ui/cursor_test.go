package ui

import (
	"strings"
	"testing"

	"curate/ui/shared"
)

// After a filter leaves one task, F2 and the Runs validate form act on the
// task under the cursor, not on the one opened before.
func TestActionsFollowTheCursorAfterFiltering(t *testing.T) {
	a, _ := newTestApp(t, "dark", 160, 40)
	press(t, a, "enter") // open the first task
	press(t, a, "f1", "/")
	typeText(t, a, "fixture")
	press(t, a, "enter") // one task left, cursor on it; nothing opened
	press(t, a, "f2")
	if v := plain(a.View()); a.active != shared.TabTask || !strings.Contains(v, "fixture-calc  Keep cents") {
		t.Errorf("F2 after filtering to fixture-calc shows:\n%s", v)
	}
	press(t, a, "f1", "/", "esc", "/") // esc clears the filter
	typeText(t, a, "evil")
	press(t, a, "enter", "f4", "v")
	if v := plain(a.View()); !strings.Contains(v, "current task (evil-001)") {
		t.Errorf("the validate form does not name the task under the cursor:\n%s", v)
	}
}
