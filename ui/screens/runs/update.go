package runs

import (
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"curate/ui/components/scroller"
	"curate/ui/shared"
)

// runModes are the mode sets the start form offers; the first is each
// task's app.DefaultModes.
var runModes = []string{"nop,oracle (+gold if mined)", "nop", "oracle", "gold", "nop,oracle,gold", "nop,oracle"}

var runScopes = []string{"current task", "marked tasks", "filtered set"}

// runForm is the "validate…" form: what, which modes, how often, how wide.
type runForm struct {
	field       int // 0 scope, 1 modes, 2 runs, 3 concurrency
	scope       int
	modes       int
	runs        int
	concurrency int
}

// frame paces log batches: about 30 a second per run.
type pace time.Duration

func (f pace) wait() { time.Sleep(time.Duration(f)) }

type noWait struct{}

func (noWait) wait() {}

var logBatchEvery = pace(33 * time.Millisecond)

// listRows is how many run rows the list shows above the log pane.
func (s *Model) listRows() int { return max(min(s.h/3, 12), 3) }

// sizeLogs fits every log pane to the area under the list.
func (s *Model) sizeLogs() {
	h := s.h - s.listRows() - 4 // title, list header, log header, hint
	for _, e := range s.entries {
		if e.log != nil {
			e.log.SetSize(s.w, max(h, 1))
		}
	}
}

func (s *Model) key(m tea.KeyMsg) tea.Cmd {
	k := s.ctx.Keys
	if s.confirm != nil {
		e := s.confirm
		s.confirm = nil
		if m.String() == "y" || m.String() == "Y" {
			return s.cancelEntry(e)
		}
		return shared.StatusCmd("not cancelled", false)
	}
	if s.form != nil {
		return s.formKey(m)
	}
	if s.searching {
		switch m.Type {
		case tea.KeyEnter:
			s.searching = false
			s.search.Blur()
			if e := s.current(); e != nil && e.log != nil {
				e.log.Query = s.search.Value()
				if e.log.Query == "" {
					return nil
				}
				return s.searchFile(e, 1)
			}
			return nil
		case tea.KeyEsc:
			s.searching = false
			s.search.Blur()
			return shared.Consumed
		}
		var cmd tea.Cmd
		s.search, cmd = s.search.Update(m)
		return cmd
	}
	e := s.current()
	if s.matrix != nil && e != nil {
		return s.matrixKey(m, e)
	}
	switch {
	case k.Is(m, "validate_start"):
		f := s.last
		f.field = 0
		if _, marked, _ := s.scopeIDs(); len(marked) > 0 {
			f.scope = 1
		} else if f.scope == 1 {
			f.scope = 0
		}
		s.form = &f
		return nil
	case k.Is(m, "failure_filter"):
		s.filter = (s.filter + 1) % len(runFilters)
		s.list = scroller.Model{}
		return s.openLog()
	case k.Is(m, "log_focus"):
		s.focusLog = !s.focusLog
		return nil
	case k.Is(m, "log_tests"):
		s.rawLog = !s.rawLog
		return nil
	case k.Is(m, "back") && s.focusLog:
		s.focusLog = false
		return shared.Consumed
	case e == nil:
		return nil
	case k.Is(m, "rerun"):
		if e.state != runFinished {
			return shared.StatusCmd("that run has not finished", true)
		}
		f := s.last
		f.modes = modeIndex(e.run.Mode)
		return s.startValidation([]string{e.run.TaskID}, f)
	case k.Is(m, "cancel_run"):
		if e.state == runFinished {
			return shared.StatusCmd("that run has finished: r reruns it", true)
		}
		s.confirm = e
		return nil
	case k.Is(m, "gold_matrix"):
		return s.openMatrix(e)
	case k.Is(m, "edit_dockerfile"):
		return s.edit("environment/Dockerfile")
	case k.Is(m, "edit_test"):
		return s.edit("tests/test.sh")
	case k.Is(m, "edit_solve"):
		return s.edit("solution/solve.sh")
	}
	if s.focusLog && e.log != nil {
		return s.logKey(m, e)
	}
	return s.listKey(m)
}

func (s *Model) listKey(m tea.KeyMsg) tea.Cmd {
	k := s.ctx.Keys
	n, rows := len(s.visible()), s.listRows()
	old := s.list.Cursor
	if !moveKey(k, m, &s.list, n, rows) {
		if e := s.selected(); e != nil && e.log != nil && isLogKey(k, m) {
			return s.logKey(m, e)
		}
		return nil
	}
	if s.list.Cursor != old {
		return s.openLog()
	}
	return nil
}

// moveKey moves a list of n rows, rows shown, by a movement key; false
// when m is none.
func moveKey(k *shared.KeyMap, m tea.KeyMsg, l *scroller.Model, n, rows int) bool {
	switch {
	case k.Is(m, "up"):
		l.MoveBy(-1, n, rows)
	case k.Is(m, "down"):
		l.MoveBy(1, n, rows)
	case k.Is(m, "page_up"):
		l.MoveBy(-rows, n, rows)
	case k.Is(m, "page_down"):
		l.MoveBy(rows, n, rows)
	case k.Is(m, "top"):
		l.MoveTo(0, n, rows)
	case k.Is(m, "bottom"):
		l.MoveTo(n-1, n, rows)
	default:
		return false
	}
	return true
}

func isLogKey(k *shared.KeyMap, m tea.KeyMsg) bool {
	for _, a := range []string{"log_wrap", "log_search", "log_next", "log_prev", "log_first_error", "log_follow"} {
		if k.Is(m, a) {
			return true
		}
	}
	return false
}

func (s *Model) logKey(m tea.KeyMsg, e *runEntry) tea.Cmd {
	k := s.ctx.Keys
	p := e.log
	switch {
	case k.Is(m, "up"):
		p.Scroll(-1)
	case k.Is(m, "down"):
		p.Scroll(1)
	case k.Is(m, "page_up"):
		p.Scroll(-p.Height())
	case k.Is(m, "page_down"):
		p.Scroll(p.Height())
	case k.Is(m, "top"):
		p.Home()
	case k.Is(m, "bottom"), k.Is(m, "log_follow"):
		p.Bottom()
	case k.Is(m, "log_wrap"):
		p.Wrap = !p.Wrap
	case k.Is(m, "log_search"):
		s.searching, s.rawLog = true, true // a search reads the raw log
		s.search.SetValue(p.Query)
		s.search.CursorEnd()
		s.search.Focus()
	case k.Is(m, "log_next"), k.Is(m, "log_prev"):
		dir := 1
		if k.Is(m, "log_prev") {
			dir = -1
		}
		if p.Query == "" {
			return shared.StatusCmd("no search yet: / searches the log", true)
		}
		return s.searchFile(e, dir)
	case k.Is(m, "log_first_error"):
		return s.firstErrorFile(e)
	}
	return nil
}

func (s *Model) formKey(m tea.KeyMsg) tea.Cmd {
	f := s.form
	k := s.ctx.Keys
	nudge := func(d int) {
		switch f.field {
		case 0:
			f.scope = (f.scope + d + len(runScopes)) % len(runScopes)
		case 1:
			f.modes = (f.modes + d + len(runModes)) % len(runModes)
		case 2:
			f.runs = max(f.runs+d, 1)
		case 3:
			f.concurrency = max(f.concurrency+d, 0) // 0 is auto
		}
	}
	switch {
	case m.Type == tea.KeyEsc:
		s.form = nil
		return shared.Consumed
	case m.Type == tea.KeyEnter:
		s.form = nil
		s.last = *f
		current, marked, filtered := s.scopeIDs()
		ids := [][]string{{current}, marked, filtered}[f.scope]
		if f.scope == 0 && current == "" {
			ids = nil
		}
		return s.startValidation(ids, *f)
	case k.Is(m, "up"):
		f.field = (f.field + 3) % 4
	case k.Is(m, "down"), m.Type == tea.KeyTab:
		f.field = (f.field + 1) % 4
	case m.String() == "left" || m.String() == "h" || m.String() == "-":
		nudge(-1)
	case m.String() == "right" || m.String() == "l" || m.String() == "+" || m.String() == " ":
		nudge(1)
	case len(m.Runes) == 1 && m.Runes[0] >= '1' && m.Runes[0] <= '9' && f.field >= 2:
		v := int(m.Runes[0] - '0')
		if f.field == 2 {
			f.runs = v
		} else {
			f.concurrency = v
		}
	}
	return nil
}

// scopeIDs is what "validate…" can apply to: the current task, the
// marked tasks and the tasks the Candidates filter shows.
func (s *Model) scopeIDs() (current string, marked, filtered []string) {
	t := s.ctx.Table
	return s.ctx.CurrentID, t.MarkedIDs(), t.Filtered(s.ctx.Catalog)
}

func modeIndex(mode string) int {
	for i, m := range runModes {
		if m == mode {
			return i
		}
	}
	return 0
}
