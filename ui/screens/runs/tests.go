package runs

import (
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"curate/pipeline/validate"
	"curate/pipeline/validate/parse"
	"curate/ui/components/frame"
	"curate/ui/shared"
)

// A finished run's log is shown as a list of its tests (name, status,
// duration), parsed in the task's log format as validation parses it;
// the raw log is one key away (log_tests, T).

// maxTestLog caps how much of a log is read for the test list.
const maxTestLog = 64 << 20

// testRow is one test of a run's log.
type testRow struct {
	name    string
	status  parse.Status
	seconds float64
	timed   bool
}

type testsMsg struct {
	id        string
	framework string
	rows      []testRow
	states    []stateSummary
}

func (testsMsg) Target() shared.TabID { return shared.TabRuns }

// loadTests parses the selected finished run's log once, in a tea.Cmd.
func (s *Model) loadTests() tea.Cmd {
	e := s.selected()
	if e == nil || e.state != runFinished || e.run.LogPath == "" || e.testsAsked {
		return nil
	}
	return s.loadTestsOf(e)
}

func (s *Model) loadTestsOf(e *runEntry) tea.Cmd {
	e.testsAsked = true
	format := ""
	if t := s.ctx.Catalog.Task(e.run.TaskID); t != nil && t.TaskDir != "" {
		format = validate.TaskLogFormat(t.TaskDir)
	}
	id, path := e.run.ID, e.run.LogPath
	if e.run.Mode == validate.ModeGold {
		return s.loadGoldTests(e)
	}
	return func() tea.Msg {
		f, err := os.Open(path)
		if err != nil {
			return testsMsg{id: id}
		}
		defer f.Close()
		data, _ := io.ReadAll(io.LimitReader(f, maxTestLog))
		rep := parse.ForFormat(format, data)
		rows := make([]testRow, 0, len(rep.Tests))
		for name, st := range rep.Tests {
			sec, timed := rep.Seconds[name]
			rows = append(rows, testRow{name: name, status: st, seconds: sec, timed: timed})
		}
		sortFailuresFirst(rows)
		return testsMsg{id: id, framework: rep.Framework, rows: rows}
	}
}

// sortFailuresFirst orders failures first: they are what the curator opens
// a log for.
func sortFailuresFirst(rows []testRow) {
	sort.Slice(rows, func(i, j int) bool {
		if a, b := rows[i].status.Fail(), rows[j].status.Fail(); a != b {
			return a
		}
		return rows[i].name < rows[j].name
	})
}

func (s *Model) testsLoaded(m testsMsg) tea.Cmd {
	if e := s.byID(m.id); e != nil {
		e.tests, e.framework, e.states = m.rows, m.framework, m.states
	}
	return nil
}

// showsTests reports whether the log pane shows e's test list: when the
// run has one and the curator is not reading the log (T, the log focused,
// a search, a jump from the gold matrix).
func (s *Model) showsTests(e *runEntry) bool {
	if s.rawLog || s.focusLog || s.searching || e == nil || len(e.tests) == 0 {
		return false
	}
	if e.log != nil && (e.log.Query != "" || !e.log.Follow) {
		return false
	}
	return true
}

// testLines renders e's test list in h rows of width w.
func (s *Model) testLines(e *runEntry, w, h int) []string {
	st := s.ctx.Styles
	failed := 0
	for _, r := range e.tests {
		if r.status.Fail() {
			failed++
		}
	}
	out := []string{st.Muted.Render(frame.Truncate(fmt.Sprintf(" %d tests (%s), %d failed · T raw log", len(e.tests), orUnknown(e.framework), failed), w))}
	if len(e.states) > 0 { // a gold run: each state by name, the list is the first's
		out = out[:0]
		for i, g := range e.states {
			line := fmt.Sprintf(" %s state: %d tests (%s), %d failed", g.name, g.tests, orUnknown(e.framework), g.failed)
			if i == 0 {
				line += " (listed) · T raw log"
			} else {
				line += " · m matrix"
			}
			out = append(out, st.Muted.Render(frame.Truncate(line, w)))
		}
	}
	for i, r := range e.tests {
		if len(out) == h-1 && i < len(e.tests)-1 {
			out = append(out, st.Muted.Render(fmt.Sprintf(" … %d more (T raw log, or curate runs show %s)", len(e.tests)-i, e.run.ID)))
			break
		}
		took := "-"
		if r.timed {
			took = fmt.Sprintf("%.2fs", r.seconds)
		}
		status := string(r.status)
		switch {
		case r.status.Fail():
			status = st.Bad.Render(fmt.Sprintf("%-7s", status))
		case r.status.Pass():
			status = st.Good.Render(fmt.Sprintf("%-7s", status))
		default:
			status = st.Warn.Render(fmt.Sprintf("%-7s", status))
		}
		out = append(out, frame.Truncate(" "+status+" "+fmt.Sprintf("%8s", took)+"  "+frame.CleanLine(r.name), w))
	}
	return out
}

func orUnknown(s string) string {
	if strings.TrimSpace(s) == "" {
		return "format unknown"
	}
	return s
}
