package scroller

import "testing"

func TestMoveKeepsCursorInView(t *testing.T) {
	cases := []struct {
		name                   string
		start                  Model
		to, total, height      int
		wantCursor, wantOffset int
	}{
		{"down within the window", Model{}, 3, 100, 10, 3, 0},
		{"down past the window scrolls one page edge", Model{}, 12, 100, 10, 12, 3},
		{"up above the window", Model{Cursor: 50, Offset: 45}, 40, 100, 10, 40, 40},
		{"past the end clamps", Model{}, 500, 100, 10, 99, 90},
		{"before the start clamps", Model{Cursor: 5}, -3, 100, 10, 0, 0},
		{"no rows", Model{Cursor: 4, Offset: 2}, 1, 0, 10, 0, 0},
		{"fewer rows than the window", Model{Offset: 3}, 2, 5, 10, 2, 0},
	}
	for _, tc := range cases {
		m := tc.start
		m.MoveTo(tc.to, tc.total, tc.height)
		if m.Cursor != tc.wantCursor || m.Offset != tc.wantOffset {
			t.Errorf("%s: cursor %d offset %d, want %d %d", tc.name, m.Cursor, m.Offset, tc.wantCursor, tc.wantOffset)
		}
	}
}

func TestScrollNeverLeavesAnEmptyPage(t *testing.T) {
	var m Model
	m.ScrollBy(1000, 30, 10)
	if m.Offset != 20 {
		t.Errorf("offset %d, want 20 (the last full page)", m.Offset)
	}
	m.ScrollBy(-1000, 30, 10)
	if m.Offset != 0 {
		t.Errorf("offset %d, want 0", m.Offset)
	}
	if from, to := Window(25, 30, 10); from != 25 || to != 30 {
		t.Errorf("window %d-%d", from, to)
	}
}
