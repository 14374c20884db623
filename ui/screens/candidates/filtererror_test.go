package candidates

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// A misspelt value is refused with the nearest allowed one, and the whole
// message shows at 80 columns on lines of its own, the table giving them
// room.
func TestFilterErrorShownWholeAt80Columns(t *testing.T) {
	h, c, _ := newHost(t, 80, 24)
	rows := c.tableRows()
	h.Press(t, "/")
	h.Type(t, "status=vaild")
	h.Press(t, "enter")
	if !strings.Contains(c.filterErr, "did you mean valid?") {
		t.Fatalf("filter error %q, want the nearest value", c.filterErr)
	}
	view := c.View()
	var shown []string
	for _, l := range strings.Split(view, "\n") {
		if w := ansi.StringWidth(l); w > 80 {
			t.Errorf("line of %d columns: %q", w, l)
		}
		shown = append(shown, strings.TrimSpace(ansi.Strip(l)))
	}
	joined := strings.Join(shown, " ")
	if !strings.Contains(joined, "is not one of candidate, rejected, imported, built, valid, invalid; did you mean valid?") {
		t.Errorf("the message is not shown whole:\n%s", view)
	}
	if got := c.tableRows(); got != rows-len(c.errorLines()) || len(c.errorLines()) < 2 {
		t.Errorf("table rows %d with %d error lines, want %d", got, len(c.errorLines()), rows-len(c.errorLines()))
	}
}
