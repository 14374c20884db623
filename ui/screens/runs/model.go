// Package runs is the Runs screen: validations, live logs, the failure
// review queue and reruns.
package runs

import (
	"context"
	"curate/app"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"

	"curate/pipeline"
	"curate/pipeline/validate"
	"curate/pipeline/validate/logstream"
	"curate/ui/components/form"
	"curate/ui/components/logpane"
	"curate/ui/components/scroller"
	"curate/ui/shared"
)

// Model is the validation screen: start runs through the same
// validate.Jobs and validate.Validator as `curate validate`, watch their
// logs live, review failures by outcome class, edit a task's files and
// rerun. Validation runs in goroutines; results come back as messages.
type Model struct {
	ctx *shared.Context
	svc *shared.Services

	entries []*runEntry // newest first
	list    scroller.Model
	filter  int // index into runFilters
	loaded  bool
	w, h    int

	// rawLog shows the raw log of a finished run instead of its test list.
	rawLog    bool
	focusLog  bool
	form      *runForm
	last      runForm // the last form's values: reruns use them
	confirm   *runEntry
	searching bool
	search    textinput.Model

	// matrix, when set, is a gold run's test matrix shown in place of the
	// run list.
	matrix *goldMatrix
	// The file search running (search.go): a new one cancels it.
	stopSearch context.CancelFunc
	searchSeq  int
	busy       string

	cancels   sync.Map // run id or queued key -> true; read by validator goroutines
	batches   map[int]*runBatch
	nextBatch int
}

type runState int

const (
	runQueued runState = iota
	runRunning
	runFinished
)

// runEntry is one run in the list: queued (no id yet), running or finished.
type runEntry struct {
	key   string // batch/task/mode, unique before the run has an id
	batch int
	run   pipeline.Run // a copy; the validator owns the live one
	state runState
	log   *logpane.Pane
	sub   *logstream.Subscription
	// asked is set when the curator cancelled it.
	asked bool
	// waiting says why a running run waits for its engine's capacity.
	waiting string
	// fromFile: the log pane was read from the run's log file.
	fromFile bool
	// tests is the finished run's test list (tests.go), once parsed.
	tests      []testRow
	framework  string
	states     []stateSummary // a gold run's per-state counts (goldtests.go)
	testsAsked bool
}

type runBatch struct {
	id     int
	job    *shared.LongJob
	cancel context.CancelFunc
	events chan tea.Msg
	// report, once set (the workbench has closed), hears of every run that
	// finishes: the screen's commands may no longer read events.
	report atomic.Pointer[func(pipeline.Run)]
}

// runFilters is the failure review queue's classes, "" meaning all runs.
var runFilters = []string{"", "failures", string(pipeline.OutcomeNopPassed), string(pipeline.OutcomeOracleFailed),
	string(pipeline.OutcomeBuildFailed), string(pipeline.OutcomeFlaky), string(pipeline.OutcomeTimeout),
	string(pipeline.OutcomeRewardMissing), string(pipeline.OutcomeRewardInvalid), string(pipeline.OutcomeInfraError),
	string(pipeline.OutcomeCancelled)}

// Messages of the Runs screen.
type (
	runsLoadedMsg struct {
		runs []*pipeline.Run
		err  error
	}
	runStartedMsg struct {
		batch int
		key   string
		run   pipeline.Run
		sub   *logstream.Subscription
	}
	runDoneMsg struct {
		batch int
		run   pipeline.Run
	}
	batchDoneMsg struct {
		batch int
		runs  int
		err   error
	}
	logBatchMsg struct {
		id      string
		lines   []string
		dropped int
		ok      bool
	}
	logFileMsg struct {
		id    string
		first int // the file's number of lines[0]
		lines []string
		err   error
	}
	editorDoneMsg struct {
		path string
		err  error
	}
)

func (runsLoadedMsg) Target() shared.TabID { return shared.TabRuns }
func (runStartedMsg) Target() shared.TabID { return shared.TabRuns }
func (runDoneMsg) Target() shared.TabID    { return shared.TabRuns }
func (batchDoneMsg) Target() shared.TabID  { return shared.TabRuns }
func (logBatchMsg) Target() shared.TabID   { return shared.TabRuns }
func (logFileMsg) Target() shared.TabID    { return shared.TabRuns }
func (editorDoneMsg) Target() shared.TabID { return shared.TabRuns }

// New makes the Runs screen.
func New(c *shared.Context) *Model {
	in := form.NewInput()
	in.Prompt = "search: "
	svc := c.Services
	return &Model{ctx: c, svc: svc, search: in, batches: map[int]*runBatch{},
		last: runForm{modes: 0, runs: 1, concurrency: max(svc.Concurrency, 0)}}
}

func (s *Model) Title() string { return "Runs" }

func (s *Model) Init() tea.Cmd { return nil }

func (s *Model) SetSize(w, h int) {
	s.w, s.h = w, h
	s.sizeLogs()
}

func (s *Model) Capturing() bool {
	return s.searching || s.form != nil || s.confirm != nil || (s.matrix != nil && s.matrix.filtering)
}

func (s *Model) ShortHelp() []key.Binding {
	if s.matrix != nil {
		return s.ctx.Keys.List("matrix_jump", "matrix_state", "matrix_class", "matrix_sort", "matrix_filter", "gold_matrix")
	}
	return s.ctx.Keys.List("validate_start", "rerun", "cancel_run", "failure_filter", "log_focus", "gold_matrix")
}

func (s *Model) FullHelp() [][]key.Binding {
	k := s.ctx.Keys
	return [][]key.Binding{
		k.List("validate_start", "rerun", "cancel_run", "failure_filter", "log_focus", "log_tests", "edit_dockerfile", "edit_test", "edit_solve", "gold_matrix"),
		k.List("matrix_jump", "matrix_state", "matrix_class", "matrix_sort", "matrix_filter"),
		k.List("up", "down", "page_up", "page_down", "top", "bottom", "log_wrap", "log_search", "log_next", "log_prev", "log_first_error", "log_follow"),
	}
}

// loadRunsCmd reads the stored runs, newest first.
func (s *Model) loadRunsCmd() tea.Cmd {
	st := s.ctx.Store
	if st == nil {
		return nil
	}
	return s.ctx.Job(func() tea.Msg {
		runs, err := st.Runs(context.Background(), "")
		return runsLoadedMsg{runs, err}
	})
}

// visible is the entries the failure filter lets through.
func (s *Model) visible() []*runEntry {
	f := runFilters[s.filter]
	if f == "" {
		return s.entries
	}
	var out []*runEntry
	for _, e := range s.entries {
		if e.state != runFinished {
			continue
		}
		o := e.run.Outcome
		if (f == "failures" && o != pipeline.OutcomeOK) || string(o) == f {
			out = append(out, e)
		}
	}
	return out
}

// current is the run the keys and the log pane are about: the matrix's
// run while it is open, else the selected one.
func (s *Model) current() *runEntry {
	if s.matrix != nil {
		if e := s.byID(s.matrix.runID); e != nil {
			return e
		}
	}
	return s.selected()
}

func (s *Model) selected() *runEntry {
	v := s.visible()
	if c := s.list.Cursor; c >= 0 && c < len(v) {
		return v[c]
	}
	return nil
}

func (s *Model) byID(id string) *runEntry {
	for _, e := range s.entries {
		if e.run.ID == id {
			return e
		}
	}
	return nil
}

func (s *Model) Update(msg tea.Msg) tea.Cmd {
	switch m := msg.(type) {
	case shared.CurrentMsg:
		if s.ctx.Active == shared.TabRuns { // every visit: runs of `curate validate` elsewhere show up
			s.loaded = true
			return tea.Batch(s.loadRunsCmd(), shared.CheckEnginesCmd(s.ctx, false))
		}
		return nil
	case enginesCheckedMsg:
		return s.enginesChecked(m)
	case runsLoadedMsg:
		return s.loadedRuns(m)
	case shared.StartValidationMsg:
		return s.startValidation(m.IDs, s.last)
	case runStartedMsg:
		return s.started(m)
	case runDoneMsg:
		return s.done(m)
	case runWaitMsg:
		return s.waiting(m)
	case batchDoneMsg:
		return s.batchDone(m)
	case logBatchMsg:
		e := s.byID(m.id)
		if e == nil || e.log == nil {
			return nil
		}
		if len(m.lines) > 0 || m.dropped > 0 {
			e.log.Append(m.lines, m.dropped)
		}
		if !m.ok {
			e.sub = nil
			return nil
		}
		return pumpLog(m.id, e.sub, logBatchEvery)
	case logFileMsg:
		e := s.byID(m.id)
		if e == nil {
			return nil
		}
		if m.err != nil {
			return shared.StatusCmd("log of "+m.id+": "+m.err.Error(), true)
		}
		if e.log == nil || e.fromFile {
			if e.log == nil || e.log.Total > 0 { // an empty pane keeps a window a jump showed meanwhile
				e.log = logpane.New()
			}
			e.fromFile = true
			s.sizeLogs()
			e.log.StartAt(m.first)
			e.log.Append(m.lines, 0)
		}
		return nil
	case matrixLoadedMsg:
		return s.matrixLoaded(m)
	case testsMsg:
		return s.testsLoaded(m)
	case windowMsg:
		return s.windowRead(m)
	case editorDoneMsg:
		if m.err != nil {
			return shared.StatusCmd("editor: "+m.err.Error(), true)
		}
		return shared.StatusCmd("edited "+m.path+" · r reruns", false)
	case tea.KeyMsg:
		return s.key(m)
	}
	return nil
}

func (s *Model) loadedRuns(m runsLoadedMsg) tea.Cmd {
	if m.err != nil {
		return shared.StatusCmd("load runs: "+m.err.Error(), true)
	}
	have := map[string]*runEntry{}
	for _, e := range s.entries {
		if e.run.ID != "" {
			have[e.run.ID] = e
		}
	}
	for _, r := range m.runs {
		if e := have[r.ID]; e != nil {
			if s.batches[e.batch] == nil && e.state != runFinished { // another process's run moved on
				e.run, e.state = *r, stateOf(r)
			}
			continue
		}
		s.entries = append(s.entries, &runEntry{key: r.ID, run: *r, state: stateOf(r)})
	}
	return s.openLog()
}

func stateOf(r *pipeline.Run) runState {
	switch r.Outcome {
	case pipeline.OutcomeRunning, pipeline.OutcomePending:
		return runRunning
	}
	return runFinished
}

// openLog loads the selected finished run's log from disk when no live
// pane holds it.
func (s *Model) openLog() tea.Cmd {
	e := s.selected()
	tests := s.loadTests()
	if e == nil || e.log != nil || e.run.LogPath == "" || e.state == runQueued {
		return tests
	}
	e.fromFile = true
	e.log = logpane.New()
	s.sizeLogs()
	id, path := e.run.ID, e.run.LogPath
	return tea.Batch(tests, func() tea.Msg {
		w, err := logpane.ReadTail(context.Background(), path, logpane.RingLines)
		return logFileMsg{id: id, first: w.First, lines: w.Lines, err: err}
	})
}

// pumpLog reads the next batch of a run's log after waiting every, so a
// run printing thousands of lines a second costs a few messages a second.
func pumpLog(id string, sub *logstream.Subscription, every interface{ wait() }) tea.Cmd {
	if sub == nil {
		return nil
	}
	return func() tea.Msg {
		every.wait()
		lines, dropped, ok := sub.Next()
		return logBatchMsg{id, lines, dropped, ok}
	}
}

// taskFile is one of a task's files the review queue opens in $EDITOR.
func (s *Model) taskFile(e *runEntry, rel string) (string, error) {
	t := s.ctx.Catalog.Task(e.run.TaskID)
	if t == nil {
		return "", fmt.Errorf("task %s is not in the catalogue", e.run.TaskID)
	}
	dir, err := validate.ResolveTaskDir(s.ctx.Root, t)
	if err != nil {
		return "", err
	}
	p := filepath.Join(dir, rel)
	fi, err := os.Lstat(p)
	if err != nil {
		return "", err
	}
	if !fi.Mode().IsRegular() {
		return "", fmt.Errorf("%s is not a regular file (a symlink?); open it yourself", p)
	}
	return p, nil
}

func (s *Model) edit(rel string) tea.Cmd {
	e := s.selected()
	if e == nil {
		return nil
	}
	p, err := s.taskFile(e, rel)
	if err != nil {
		return shared.StatusCmd("edit: "+err.Error(), true)
	}
	return tea.ExecProcess(app.Editor(p), func(err error) tea.Msg { return editorDoneMsg{p, err} })
}

// LogRead is the answer of reading run id's log file; tests hand it lines
// directly.
func LogRead(id string, lines []string) tea.Msg { return logFileMsg{id: id, lines: lines} }

// Shutdown of a file search: Shutdown calls it too.
func (s *Model) stopFileSearch() {
	if s.stopSearch != nil {
		s.stopSearch()
		s.stopSearch = nil
	}
}
