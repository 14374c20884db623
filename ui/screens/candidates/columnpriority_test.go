package candidates

import (
	"slices"
	"testing"
)

// TestNarrowTableKeepsIDStatusAndValid: whatever the width, the table
// shows which task, where it stands and what validation said; other
// columns go first, the least useful first.
func TestNarrowTableKeepsIDStatusAndValid(t *testing.T) {
	for _, w := range []int{60, 80, 120, 200} {
		cols, widths := layoutColumns(w)
		var titles []string
		used := 2 // cursor and mark gutter
		for i, ci := range cols {
			titles = append(titles, tableColumns[ci].title)
			used += widths[i] + 1
		}
		for _, want := range []string{"ID", "STATUS", "VALID"} {
			if !slices.Contains(titles, want) {
				t.Errorf("at %d columns %v lacks %s", w, titles, want)
			}
		}
		if used > w+1 { // the last column needs no separator
			t.Errorf("at %d columns the table is %d wide: %v %v", w, used, titles, widths)
		}
		switch w {
		case 120:
			for _, want := range []string{"REPO", "PHASE", "LANG", "DIFFICULTY", "SCORE"} {
				if !slices.Contains(titles, want) {
					t.Errorf("at 120 columns %v lacks %s", titles, want)
				}
			}
		case 200:
			if len(titles) != len(tableColumns) {
				t.Errorf("at 200 columns %v, want every column", titles)
			}
		}
	}
}
