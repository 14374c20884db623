package ui

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// logRingLines bounds a log pane's memory: older lines are only on disk
// (.curate/runs/<id>.log).
const logRingLines = 5000

// errorLine finds the lines "jump to the first error" stops at.
var errorLine = regexp.MustCompile(`(?i)\b(error|failed|failure|fatal|panic|traceback)\b|^not ok\b|^FAIL\b|^E\s`)

// logPane is a bounded ring of sanitised log lines with a viewport that
// follows the tail until the curator scrolls up, and resumes at the bottom.
// Lines are addressed by their absolute number since the run started, so
// a paused view stays put while new lines arrive.
type logPane struct {
	ring    []string
	start   int // ring index of the oldest line
	n       int // lines held
	total   int // lines received (absolute number of the next line)
	dropped int // lines the subscription skipped (reader too slow)

	follow bool
	top    int // absolute number of the first line shown when paused
	wrap   bool
	query  string
	w, h   int
}

func newLogPane() *logPane {
	return &logPane{ring: make([]string, logRingLines), follow: true}
}

// first is the absolute number of the oldest line held.
func (p *logPane) first() int { return p.total - p.n }

func (p *logPane) line(abs int) string {
	return p.ring[(p.start+abs-p.first())%len(p.ring)]
}

// append adds a batch; lines arrive already sanitised (logstream).
func (p *logPane) append(lines []string, dropped int) {
	if dropped > 0 {
		p.dropped += dropped
		lines = append([]string{ansi.Strip("… " + strconv.Itoa(dropped) + " lines skipped here (all are in the log file)")}, lines...)
	}
	for _, l := range lines {
		if p.n < len(p.ring) {
			p.ring[(p.start+p.n)%len(p.ring)] = l
			p.n++
		} else {
			p.ring[p.start] = l
			p.start = (p.start + 1) % len(p.ring)
		}
		p.total++
	}
	if !p.follow && p.top < p.first() {
		p.top = p.first()
	}
}

func (p *logPane) setSize(w, h int) { p.w, p.h = max(w, 1), max(h, 1) }

// maxTop is the top line that shows the tail.
func (p *logPane) maxTop() int { return max(p.total-p.h, p.first()) }

func (p *logPane) curTop() int {
	if p.follow {
		return p.maxTop()
	}
	return p.top
}

// scroll moves the view; scrolling up pauses follow, reaching the bottom
// resumes it.
func (p *logPane) scroll(delta int) {
	t := p.curTop() + delta
	t = max(min(t, p.maxTop()), p.first())
	p.top = t
	p.follow = t >= p.maxTop()
}

func (p *logPane) bottom() { p.follow = true }
func (p *logPane) home()   { p.top, p.follow = p.first(), p.total <= p.h }

func (p *logPane) showLine(abs int) {
	p.top = max(min(abs-p.h/3, p.maxTop()), p.first())
	p.follow = p.top >= p.maxTop()
}

// firstError jumps to the first line that looks like an error; false when
// none is held.
func (p *logPane) firstError() bool {
	for i := p.first(); i < p.total; i++ {
		if errorLine.MatchString(p.line(i)) {
			p.showLine(i)
			return true
		}
	}
	return false
}

// find jumps to the next (dir 1) or previous (dir -1) line containing the
// query, case-insensitively, from the line after the top.
func (p *logPane) find(dir int) bool {
	if p.query == "" || p.n == 0 {
		return false
	}
	q := strings.ToLower(p.query)
	from := p.curTop() + p.h/3
	for k := 1; k <= p.n; k++ {
		i := from + dir*k
		i = p.first() + ((i-p.first())%p.n+p.n)%p.n
		if strings.Contains(strings.ToLower(p.line(i)), q) {
			p.showLine(i)
			return true
		}
	}
	return false
}

// render draws h rows of w cells. Only the visible lines are touched, so a
// frame costs the same however long the log is.
func (p *logPane) render(mark func(string) string) []string {
	out := make([]string, 0, p.h)
	if !p.wrap {
		top := p.curTop()
		for i := top; i < p.total && len(out) < p.h; i++ {
			out = append(out, p.highlight(truncate(p.line(i), p.w), mark))
		}
		return out
	}
	if p.follow { // fill from the bottom up
		var rows []string
		for i := p.total - 1; i >= p.first() && len(rows) < p.h; i-- {
			w := wrapRows(p.line(i), p.w)
			for j := len(w) - 1; j >= 0 && len(rows) < p.h; j-- {
				rows = append(rows, p.highlight(w[j], mark))
			}
		}
		for i, j := 0, len(rows)-1; i < j; i, j = i+1, j-1 {
			rows[i], rows[j] = rows[j], rows[i]
		}
		return rows
	}
	for i := p.top; i < p.total && len(out) < p.h; i++ {
		for _, r := range wrapRows(p.line(i), p.w) {
			if len(out) < p.h {
				out = append(out, p.highlight(r, mark))
			}
		}
	}
	return out
}

func (p *logPane) highlight(s string, mark func(string) string) string {
	if p.query == "" || mark == nil {
		return s
	}
	i := strings.Index(strings.ToLower(s), strings.ToLower(p.query))
	if i < 0 {
		return s
	}
	j := i + len(p.query)
	return s[:i] + mark(s[i:j]) + s[j:]
}

// wrapRows cuts a plain line into rows of w cells.
func wrapRows(s string, w int) []string {
	if ansi.StringWidth(s) <= w {
		return []string{s}
	}
	return strings.Split(ansi.Hardwrap(s, w, true), "\n")
}
