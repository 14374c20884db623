package ui

import (
	"fmt"
	"strings"
	"testing"
)

func paneWith(n, w, h int) *logPane {
	p := newLogPane()
	p.setSize(w, h)
	var lines []string
	for i := 1; i <= n; i++ {
		lines = append(lines, fmt.Sprintf("line %d", i))
	}
	p.append(lines, 0)
	return p
}

func TestLogPaneRingIsBounded(t *testing.T) {
	p := paneWith(logRingLines+1234, 40, 5)
	if p.n != logRingLines || p.total != logRingLines+1234 || p.first() != 1234 {
		t.Fatalf("n %d total %d first %d", p.n, p.total, p.first())
	}
	if got := p.line(p.first()); got != "line 1235" {
		t.Errorf("oldest held %q", got)
	}
	if got := strings.Join(p.render(nil), "|"); got != "line 6230|line 6231|line 6232|line 6233|line 6234" {
		t.Errorf("tail %q", got)
	}
}

func TestLogPaneFollowPause(t *testing.T) {
	tests := []struct {
		name   string
		do     func(p *logPane)
		follow bool
		top    string
	}{
		{"follows by default", func(p *logPane) {}, true, "line 16"},
		{"scroll up pauses", func(p *logPane) { p.scroll(-3) }, false, "line 13"},
		{"paused view stays while lines arrive", func(p *logPane) { p.scroll(-3); p.append([]string{"a", "b"}, 0) }, false, "line 13"},
		{"back at the bottom follows", func(p *logPane) { p.scroll(-3); p.scroll(3) }, true, "line 16"},
		{"bottom follows", func(p *logPane) { p.scroll(-10); p.bottom() }, true, "line 16"},
		{"home", func(p *logPane) { p.home() }, false, "line 1"},
		{"first error", func(p *logPane) { p.ring[4] = "E   boom"; p.firstError() }, false, "line 4"},
		{"find wraps around, case-insensitively", func(p *logPane) { p.query = "LINE 3"; p.find(1) }, false, "line 2"},
		{"dropped lines are marked", func(p *logPane) { p.append([]string{"x"}, 7) }, true, "line 18"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := paneWith(20, 40, 5)
			tc.do(p)
			rows := p.render(nil)
			if p.follow != tc.follow || len(rows) == 0 || rows[0] != tc.top {
				t.Errorf("follow %v, rows %q", p.follow, rows)
			}
		})
	}
}

func TestLogPaneWrapAndHighlight(t *testing.T) {
	p := newLogPane()
	p.setSize(10, 3)
	p.append([]string{"short", strings.Repeat("x", 25)}, 0)
	p.wrap = true
	if got := strings.Join(p.render(nil), "|"); got != "xxxxxxxxxx|xxxxxxxxxx|xxxxx" {
		t.Errorf("wrapped tail %q", got)
	}
	p.wrap = false
	p.query = "hor"
	if got := p.render(func(s string) string { return "[" + s + "]" })[0]; got != "s[hor]t" {
		t.Errorf("highlight %q", got)
	}
}
