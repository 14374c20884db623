package runs

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"

	"curate/app"
	"curate/pipeline/validate"
	"curate/pipeline/validate/parse"
	"curate/ui/components/form"
	"curate/ui/components/frame"
	"curate/ui/components/logpane"
	"curate/ui/components/scroller"
	"curate/ui/shared"
)

// matrixClasses are the matrix's class filters, "" meaning every test;
// "other" is a test in no gold list (failing in both states, skipped...).
var matrixClasses = []string{"", "F2P", "P2P", "flaky", "other"}

// matrixSorts are the matrix's orders.
var matrixSorts = []string{"class", "name", "buggy status", "fixed status"}

// goldMatrix is the gold test matrix of one run: tests × (buggy, fixed).
type goldMatrix struct {
	runID     string
	m         *validate.Matrix // nil while loading
	err       error
	rows      []int // indices into m.Rows the filters let through, sorted
	list      scroller.Model
	state     int // the state column enter jumps to
	class     int // index into matrixClasses
	sort      int // index into matrixSorts
	filtering bool
	filter    textinput.Model
}

type matrixLoadedMsg struct {
	runID string
	m     *validate.Matrix
	err   error
}

func (matrixLoadedMsg) Target() shared.TabID { return shared.TabRuns }

// openMatrix shows the selected gold run's matrix, read off the UI loop.
func (s *Model) openMatrix(e *runEntry) tea.Cmd {
	s.rawLog = true // the matrix points into the raw log
	if e.run.Mode != validate.ModeGold {
		return shared.StatusCmd("the test matrix is a gold run's: this is a "+e.run.Mode+" run", true)
	}
	if e.state != runFinished {
		return shared.StatusCmd("the matrix shows once the gold run has finished", true)
	}
	in := form.NewInput()
	in.Prompt = "tests: "
	s.matrix = &goldMatrix{runID: e.run.ID, filter: in}
	run := e.run
	root, task := s.ctx.Root, s.ctx.Catalog.Task(run.TaskID)
	return tea.Batch(s.openLog(), s.ctx.Job(func() tea.Msg {
		m, err := app.GoldMatrix(context.Background(), root, task, &run)
		return matrixLoadedMsg{run.ID, m, err}
	}))
}

func (s *Model) matrixLoaded(m matrixLoadedMsg) tea.Cmd {
	g := s.matrix
	if g == nil || g.runID != m.runID {
		return nil
	}
	g.m, g.err = m.m, m.err
	g.refilter(s.matrixRows())
	if m.err != nil {
		return shared.StatusCmd("gold matrix: "+m.err.Error(), true)
	}
	return nil
}

// refilter recomputes the rows shown (class filter, name filter, order),
// keeping the cursor's place in a view of shown rows.
func (g *goldMatrix) refilter(shown int) {
	g.rows = g.rows[:0]
	if g.m == nil {
		return
	}
	q := strings.ToLower(g.filter.Value())
	want := matrixClasses[g.class]
	for i, r := range g.m.Rows {
		c := r.Class
		if c == "" {
			c = "other"
		}
		if (want == "" || c == want) && (q == "" || strings.Contains(strings.ToLower(r.Test), q)) {
			g.rows = append(g.rows, i)
		}
	}
	rows := g.m.Rows
	key := func(i int) string {
		switch g.sort {
		case 0:
			return classRank(rows[i].Class)
		case 2:
			return string(rows[i].Last(validate.StateBuggy))
		case 3:
			return string(rows[i].Last(validate.StateFixed))
		}
		return ""
	}
	sort.SliceStable(g.rows, func(a, b int) bool {
		ka, kb := key(g.rows[a]), key(g.rows[b])
		if ka != kb {
			return ka < kb
		}
		return rows[g.rows[a]].Test < rows[g.rows[b]].Test
	})
	g.list.MoveTo(g.list.Cursor, len(g.rows), shown)
}

// classRank orders F2P first: what a curator checks first.
func classRank(c string) string {
	switch c {
	case "F2P":
		return "0"
	case "flaky":
		return "1"
	case "P2P":
		return "2"
	}
	return "3"
}

func (g *goldMatrix) selected() *validate.MatrixRow {
	if g.m == nil || g.list.Cursor < 0 || g.list.Cursor >= len(g.rows) {
		return nil
	}
	return &g.m.Rows[g.rows[g.list.Cursor]]
}

// matrixRows is how many test rows the matrix shows above the log pane:
// the run list's rows less the matrix's title.
func (s *Model) matrixRows() int { return s.listRows() - 1 }

func (s *Model) matrixKey(m tea.KeyMsg, e *runEntry) tea.Cmd {
	g := s.matrix
	k := s.ctx.Keys
	if g.filtering {
		switch m.Type {
		case tea.KeyEnter, tea.KeyEsc:
			g.filtering = false
			g.filter.Blur()
			return shared.Consumed
		}
		var cmd tea.Cmd
		g.filter, cmd = g.filter.Update(m)
		g.refilter(s.matrixRows())
		return cmd
	}
	if moveKey(k, m, &g.list, len(g.rows), s.matrixRows()) {
		return nil
	}
	switch {
	case k.Is(m, "gold_matrix"), k.Is(m, "back"):
		s.matrix = nil
		return shared.Consumed
	case k.Is(m, "matrix_state"):
		g.state = 1 - g.state
	case k.Is(m, "matrix_class"):
		g.class = (g.class + 1) % len(matrixClasses)
		g.list = scroller.Model{}
		g.refilter(s.matrixRows())
	case k.Is(m, "matrix_sort"):
		g.sort = (g.sort + 1) % len(matrixSorts)
		g.refilter(s.matrixRows())
	case k.Is(m, "matrix_filter"):
		g.filtering = true
		g.filter.CursorEnd()
		g.filter.Focus()
	case k.Is(m, "matrix_jump"):
		return s.jumpToTest(e)
	default:
		if e.log != nil && isLogKey(k, m) && !k.Is(m, "log_search") {
			return s.logKey(m, e)
		}
	}
	return nil
}

// jumpToTest shows the selected test's result line, in the chosen state,
// in the log pane: the lines around it are read from the log file.
func (s *Model) jumpToTest(e *runEntry) tea.Cmd {
	g := s.matrix
	r := g.selected()
	if r == nil {
		return nil
	}
	state := validate.StateName(g.state)
	at := r.At[g.state]
	if at.Line < 0 {
		why := "it did not run in that state"
		if r.Last(g.state) != "" {
			why = "its result came from a report file, not the log"
		}
		return shared.StatusCmd(fmt.Sprintf("%s has no line in the %s state's log: %s", frame.CleanLine(r.Test), state, why), true)
	}
	note := fmt.Sprintf("%s · %s state: %s", frame.CleanLine(r.Test), state, r.Last(g.state))
	return s.readWindow(e, logpane.Pos{Line: at.Line, Offset: at.Offset}, note)
}

// statusText is a state's cell: the last status, or every attempt's when
// they differ ("PASSED/FAILED"); "—" where the test did not run.
func statusText(r *validate.MatrixRow, state int) string {
	if r.Differs(state) {
		var parts []string
		for _, x := range r.Status[state] {
			parts = append(parts, shortStatus(x))
		}
		return strings.Join(parts, "/")
	}
	if st := r.Last(state); st != "" {
		return string(st)
	}
	return "—"
}

func shortStatus(s parse.Status) string {
	if s == "" {
		return "—"
	}
	return string(s[:1])
}

func (s *Model) matrixView(e *runEntry) string {
	st := s.ctx.Styles
	g := s.matrix
	var out []string
	total := s.listRows() + 1 // what the run list's header and rows take
	title := fmt.Sprintf("  Gold %s %s", e.run.ID, frame.CleanLine(e.run.TaskID))
	switch {
	case g.err != nil:
		out = append(out, st.Bold.Render(frame.Truncate(title, s.w)),
			st.Bad.Render(frame.Truncate("  "+frame.CleanLine(g.err.Error()), s.w)))
	case g.m == nil:
		out = append(out, st.Bold.Render(frame.Truncate(title, s.w)), st.Muted.Render("  reading the run's log…"))
	default:
		counts := map[string]int{}
		for _, r := range g.m.Rows {
			counts[r.Class]++
		}
		class := matrixClasses[g.class]
		if class == "" {
			class = "all"
		}
		info := fmt.Sprintf(" · %d tests: %d F2P %d P2P %d flaky · show %s · by %s",
			len(g.m.Rows), counts["F2P"], counts["P2P"], counts["flaky"], class, matrixSorts[g.sort])
		if g.m.Attempts > 1 {
			info += fmt.Sprintf(" · %d attempts", g.m.Attempts)
		}
		if g.m.Unplaced > 0 { // graded from a report file under names the log does not print
			info += fmt.Sprintf(" · %d listed tests not in the log", g.m.Unplaced)
		}
		if q := g.filter.Value(); q != "" {
			info += " · name ~ " + frame.CleanLine(q)
		}
		out = append(out, frame.Truncate(st.Bold.Render(title)+st.Muted.Render(info), s.w))
		head := fmt.Sprintf("  %-6s %-*s %-*s %s", "CLASS", statusW, "BUGGY", statusW, "FIXED", "TEST")
		out = append(out, st.Header.Render(frame.PadRight(frame.Truncate(head, s.w), s.w)))
		if len(g.rows) == 0 {
			msg := "no test of this class · c shows the next class"
			if len(g.m.Rows) == 0 {
				msg = "no test results in the log (its gold sections are missing or empty)"
			}
			out = append(out, st.Muted.Render("  "+msg))
		}
		from, to := scroller.Window(g.list.Offset, len(g.rows), s.matrixRows())
		for i := from; i < to; i++ {
			out = append(out, s.matrixLine(g, i))
		}
	}
	for len(out) < total {
		out = append(out, "")
	}
	return strings.Join(out[:total], "\n") + "\n"
}

// matrixLine is row i of the shown rows: class, both states' status (the
// chosen state's in brackets on the cursor row) and the test.
func (s *Model) matrixLine(g *goldMatrix, i int) string {
	st := s.ctx.Styles
	r := &g.m.Rows[g.rows[i]]
	var cells [2]string
	for state := range cells {
		c := statusText(r, state)
		if i == g.list.Cursor && state == g.state {
			c = "[" + frame.Truncate(c, statusW-2) + "]"
		}
		cells[state] = frame.PadRight(frame.Truncate(c, statusW), statusW)
	}
	class := r.Class
	if class == "" {
		class = "·"
	}
	line := fmt.Sprintf("%-6s %s %s %s", class, cells[0], cells[1], frame.CleanLine(r.Test))
	if i == g.list.Cursor {
		return st.Cursor.Render(frame.PadRight(frame.Truncate("> "+line, s.w), s.w))
	}
	return s.classStyle(r.Class, frame.Truncate("  "+line, s.w))
}

// statusW is a state column's width: "PASSED/FAILED/PASSED" is cut.
const statusW = 9

func (s *Model) classStyle(class, line string) string {
	st := s.ctx.Styles
	switch class {
	case "F2P":
		return st.Good.Render(line)
	case "flaky":
		return st.Warn.Render(line)
	case "P2P":
		return line
	}
	return st.Muted.Render(line)
}

// matrixHint is the key line under the matrix.
func (s *Model) matrixHint() string {
	if s.matrix.filtering {
		return s.matrix.filter.View()
	}
	return "enter the test's log line · ←/→ buggy/fixed · c class · o sort · / name · m back · n/N next match · F tail"
}
