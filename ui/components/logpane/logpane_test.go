package logpane

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

func paneWith(n, w, h int) *Pane {
	p := New()
	p.SetSize(w, h)
	var lines []string
	for i := 1; i <= n; i++ {
		lines = append(lines, fmt.Sprintf("line %d", i))
	}
	p.Append(lines, 0)
	return p
}

func TestLogPaneRingIsBounded(t *testing.T) {
	p := paneWith(RingLines+1234, 40, 5)
	if p.n != RingLines || p.Total != RingLines+1234 || p.first() != 1234 {
		t.Fatalf("n %d total %d first %d", p.n, p.Total, p.first())
	}
	if got := p.Line(p.first()); got != "line 1235" {
		t.Errorf("oldest held %q", got)
	}
	if got := strings.Join(p.Render(nil), "|"); got != "line 6230|line 6231|line 6232|line 6233|line 6234" {
		t.Errorf("tail %q", got)
	}
}

func TestLogPaneFollowPause(t *testing.T) {
	tests := []struct {
		name   string
		do     func(p *Pane)
		follow bool
		top    string
	}{
		{"follows by default", func(p *Pane) {}, true, "line 16"},
		{"scroll up pauses", func(p *Pane) { p.Scroll(-3) }, false, "line 13"},
		{"paused view stays while lines arrive", func(p *Pane) { p.Scroll(-3); p.Append([]string{"a", "b"}, 0) }, false, "line 13"},
		{"back at the bottom follows", func(p *Pane) { p.Scroll(-3); p.Scroll(3) }, true, "line 16"},
		{"bottom follows", func(p *Pane) { p.Scroll(-10); p.Bottom() }, true, "line 16"},
		{"home", func(p *Pane) { p.Home() }, false, "line 1"},
		{"first error", func(p *Pane) { p.ring[4] = "E   boom"; p.FirstError() }, false, "line 4"},
		{"find wraps around, case-insensitively", func(p *Pane) { p.Query = "LINE 3"; p.Find(1) }, false, "line 2"},
		{"dropped lines are marked", func(p *Pane) { p.Append([]string{"x"}, 7) }, true, "line 18"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := paneWith(20, 40, 5)
			tc.do(p)
			rows := p.Render(nil)
			if p.Follow != tc.follow || len(rows) == 0 || rows[0] != tc.top {
				t.Errorf("follow %v, rows %q", p.Follow, rows)
			}
		})
	}
}

func TestLogPaneWrapAndHighlight(t *testing.T) {
	p := New()
	p.SetSize(10, 3)
	p.Append([]string{"short", strings.Repeat("x", 25)}, 0)
	p.Wrap = true
	if got := strings.Join(p.Render(nil), "|"); got != "xxxxxxxxxx|xxxxxxxxxx|xxxxx" {
		t.Errorf("wrapped tail %q", got)
	}
	p.Wrap = false
	p.Query = "hor"
	if got := p.Render(func(s string) string { return "[" + s + "]" })[0]; got != "s[hor]t" {
		t.Errorf("highlight %q", got)
	}
}

func TestHugeLineRendersAScreenful(t *testing.T) {
	p := New()
	p.SetSize(80, 10)
	p.Append([]string{"short", strings.Repeat("y", 10<<20), "after"}, 0)
	for _, wrap := range []bool{false, true} {
		p.Wrap = wrap
		rows := p.Render(nil)
		if len(rows) > 10 {
			t.Errorf("wrap %v: %d rows", wrap, len(rows))
		}
		for i, r := range rows {
			if ansi.StringWidth(r) > 80 {
				t.Errorf("wrap %v: row %d is %d cells", wrap, i, ansi.StringWidth(r))
			}
		}
	}
	if rows := wrapRows(strings.Repeat("z", 10<<20), 80, 10); len(rows) != 10 {
		t.Errorf("a 10 MB line wraps into %d rows for a 10-row pane", len(rows))
	}
}
