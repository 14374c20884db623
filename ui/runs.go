package ui

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"sync"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"

	"curate/app"
	"curate/pipeline"
	"curate/pipeline/validate"
	"curate/pipeline/validate/logstream"
)

// Runs is the validation screen: start runs through the same
// validate.Jobs and validate.Validator as `curate validate`, watch their
// logs live, review failures by outcome class, edit a task's files and
// rerun. Validation runs in goroutines; results come back as messages.
type Runs struct {
	ctx  *Context
	svc  *Services
	long *longJobs
	// scope returns the current task, the marked tasks and the filtered
	// set of the Candidates screen.
	scope func() (current string, marked, filtered []string)

	entries []*runEntry // newest first
	cursor  int
	offset  int
	filter  int // index into runFilters
	loaded  bool
	w, h    int

	focusLog  bool
	form      *runForm
	last      runForm // the last form's values: reruns use them
	confirm   *runEntry
	searching bool
	search    textinput.Model

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
	log   *logPane
	sub   *logstream.Subscription
	// asked is set when the curator cancelled it.
	asked bool
	// fromFile: the log pane was read from the run's log file.
	fromFile bool
}

type runBatch struct {
	id     int
	job    *longJob
	cancel context.CancelFunc
	events chan tea.Msg
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
		lines []string
		err   error
	}
	editorDoneMsg struct {
		path string
		err  error
	}
)

func (runsLoadedMsg) target() tabID { return tabRuns }
func (runStartedMsg) target() tabID { return tabRuns }
func (runDoneMsg) target() tabID    { return tabRuns }
func (batchDoneMsg) target() tabID  { return tabRuns }
func (logBatchMsg) target() tabID   { return tabRuns }
func (logFileMsg) target() tabID    { return tabRuns }
func (editorDoneMsg) target() tabID { return tabRuns }

// NewRuns makes the Runs screen.
func NewRuns(c *Context, svc *Services, long *longJobs) *Runs {
	in := newInput()
	in.Prompt = "search: "
	return &Runs{ctx: c, svc: svc, long: long, search: in, batches: map[int]*runBatch{},
		last: runForm{modes: 0, runs: 1, concurrency: max(svc.Concurrency, 1)}}
}

func (s *Runs) Title() string { return "Runs" }

func (s *Runs) Init() tea.Cmd { return nil }

func (s *Runs) SetSize(w, h int) {
	s.w, s.h = w, h
	s.sizeLogs()
}

func (s *Runs) Capturing() bool { return s.searching || s.form != nil || s.confirm != nil }

func (s *Runs) ShortHelp() []key.Binding {
	return s.ctx.Keys.List("validate_start", "rerun", "cancel_run", "failure_filter", "log_focus")
}

func (s *Runs) FullHelp() [][]key.Binding {
	k := s.ctx.Keys
	return [][]key.Binding{
		k.List("validate_start", "rerun", "cancel_run", "failure_filter", "log_focus", "edit_dockerfile", "edit_test", "edit_solve"),
		k.List("up", "down", "page_up", "page_down", "top", "bottom", "log_wrap", "log_search", "log_next", "log_prev", "log_first_error", "log_follow"),
	}
}

// loadRunsCmd reads the stored runs, newest first.
func (s *Runs) loadRunsCmd() tea.Cmd {
	st := s.ctx.Store
	if st == nil {
		return nil
	}
	return s.ctx.job(func() tea.Msg {
		runs, err := st.Runs(context.Background(), "")
		return runsLoadedMsg{runs, err}
	})
}

// visible is the entries the failure filter lets through.
func (s *Runs) visible() []*runEntry {
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

func (s *Runs) selected() *runEntry {
	v := s.visible()
	if s.cursor >= 0 && s.cursor < len(v) {
		return v[s.cursor]
	}
	return nil
}

func (s *Runs) byID(id string) *runEntry {
	for _, e := range s.entries {
		if e.run.ID == id {
			return e
		}
	}
	return nil
}

func (s *Runs) Update(msg tea.Msg) tea.Cmd {
	switch m := msg.(type) {
	case currentMsg:
		if s.ctx.Active == tabRuns { // every visit: runs of `curate validate` elsewhere show up
			s.loaded = true
			return s.loadRunsCmd()
		}
		return nil
	case runsLoadedMsg:
		return s.loadedRuns(m)
	case runStartedMsg:
		return s.started(m)
	case runDoneMsg:
		return s.done(m)
	case batchDoneMsg:
		return s.batchDone(m)
	case logBatchMsg:
		e := s.byID(m.id)
		if e == nil || e.log == nil {
			return nil
		}
		if len(m.lines) > 0 || m.dropped > 0 {
			e.log.append(m.lines, m.dropped)
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
			return statusCmd("log of "+m.id+": "+m.err.Error(), true)
		}
		if e.log == nil || e.fromFile {
			e.log = newLogPane()
			e.fromFile = true
			s.sizeLogs()
			e.log.append(m.lines, 0)
		}
		return nil
	case editorDoneMsg:
		if m.err != nil {
			return statusCmd("editor: "+m.err.Error(), true)
		}
		return statusCmd("edited "+m.path+" · r reruns", false)
	case tea.KeyMsg:
		return s.key(m)
	}
	return nil
}

func (s *Runs) loadedRuns(m runsLoadedMsg) tea.Cmd {
	if m.err != nil {
		return statusCmd("load runs: "+m.err.Error(), true)
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
func (s *Runs) openLog() tea.Cmd {
	e := s.selected()
	if e == nil || e.log != nil || e.run.LogPath == "" || e.state == runQueued {
		return nil
	}
	e.fromFile = true
	e.log = newLogPane()
	s.sizeLogs()
	id, path := e.run.ID, e.run.LogPath
	return func() tea.Msg {
		lines, err := tailFile(path, logRingLines)
		return logFileMsg{id, lines, err}
	}
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

func (s *Runs) started(m runStartedMsg) tea.Cmd {
	var e *runEntry
	for _, x := range s.entries {
		if x.key == m.key && x.state == runQueued {
			e = x
			break
		}
	}
	if e == nil {
		e = &runEntry{key: m.key, batch: m.batch}
		s.entries = append([]*runEntry{e}, s.entries...)
	}
	e.run, e.state, e.sub = m.run, runRunning, m.sub
	e.log, e.fromFile = newLogPane(), false
	s.sizeLogs()
	return tea.Batch(pumpLog(m.run.ID, m.sub, noWait{}), s.waitBatch(m.batch))
}

func (s *Runs) done(m runDoneMsg) tea.Cmd {
	if e := s.byID(m.run.ID); e != nil {
		e.run, e.state = m.run, runFinished
	}
	if b := s.batches[m.batch]; b != nil && b.job != nil {
		b.job.done++
	}
	r := m.run
	s.ctx.Catalog.Latest[r.TaskID] = &r
	return s.waitBatch(m.batch)
}

func (s *Runs) batchDone(m batchDoneMsg) tea.Cmd {
	b := s.batches[m.batch]
	delete(s.batches, m.batch)
	if b != nil && b.job != nil {
		s.long.remove(b.job)
	}
	for _, e := range s.entries { // jobs that never started (cancelled batch)
		if e.batch == m.batch && e.state == runQueued {
			e.state = runFinished
			e.run.Outcome, e.run.Detail = pipeline.OutcomeCancelled, "cancelled before it started"
		}
	}
	var cmds []tea.Cmd
	if m.err != nil {
		cmds = append(cmds, statusCmd("validate: "+m.err.Error(), true))
	} else {
		ok, bad := 0, 0
		for _, e := range s.entries {
			if e.batch == m.batch && e.state == runFinished {
				if e.run.Outcome == pipeline.OutcomeOK {
					ok++
				} else {
					bad++
				}
			}
		}
		cmds = append(cmds, statusCmd(fmt.Sprintf("validation done: %d ok, %d not ok", ok, bad), false))
	}
	if s.ctx.Store != nil {
		cmds = append(cmds, loadCatalogCmd(s.ctx)) // task statuses changed
	}
	return tea.Batch(cmds...)
}

func (s *Runs) waitBatch(id int) tea.Cmd {
	b := s.batches[id]
	if b == nil {
		return nil
	}
	ch := b.events
	return func() tea.Msg {
		m, ok := <-ch
		if !ok {
			return nil
		}
		return m
	}
}

// startValidation validates ids in form's modes through validate.Jobs and
// a validate.Validator, as `curate validate` does.
func (s *Runs) startValidation(ids []string, f runForm) tea.Cmd {
	if s.svc.Validate == nil {
		return statusCmd("validation needs a Docker engine: none is configured", true)
	}
	modes, _ := validate.ParseModes(runModes[f.modes])
	var tasks []*pipeline.Task
	for _, id := range ids {
		if t := s.ctx.Catalog.Task(id); t != nil {
			tasks = append(tasks, t)
		}
	}
	jobs, skips := validate.Jobs(s.ctx.Root, tasks, modes)
	if len(jobs) == 0 {
		why := "no task chosen"
		if len(skips) > 0 {
			why = skips[0].TaskID + ": " + skips[0].Reason
		}
		return statusCmd("nothing to validate: "+why, true)
	}
	s.nextBatch++
	b := &runBatch{id: s.nextBatch, events: make(chan tea.Msg, 64)}
	ctx, cancel := context.WithCancel(context.Background())
	b.cancel = cancel
	b.job = s.long.add("validate", len(jobs), cancel)
	s.batches[b.id] = b
	fresh := make([]*runEntry, len(jobs))
	for i, j := range jobs {
		fresh[i] = &runEntry{key: queuedKey(b.id, j), batch: b.id, state: runQueued,
			run: pipeline.Run{TaskID: j.TaskID, Mode: j.Mode, Outcome: pipeline.OutcomePending}}
	}
	s.entries = append(fresh, s.entries...)
	s.filter, s.cursor, s.offset = 0, 0, 0

	svc := s.svc
	go func() {
		defer close(b.events)
		runs, err := svc.Validate(ctx, jobs, app.ValidateOptions{
			Concurrency: max(f.concurrency, 1), Runs: max(f.runs, 1),
			OnStart: func(r *pipeline.Run, log *logstream.Broadcaster) {
				k := queuedKey(b.id, validate.Job{TaskID: r.TaskID, Mode: r.Mode})
				if _, asked := s.cancels.Load(k); asked {
					s.cancels.Store(r.ID, true)
				}
				b.events <- runStartedMsg{batch: b.id, key: k, run: *r, sub: log.Subscribe(0)}
			},
			OnDone: func(r *pipeline.Run) { b.events <- runDoneMsg{batch: b.id, run: *r} },
			Cancelled: func(id string) bool {
				_, ok := s.cancels.Load(id)
				return ok
			},
		})
		b.events <- batchDoneMsg{batch: b.id, runs: len(runs), err: err}
	}()
	msg := fmt.Sprintf("validating %d run(s) of %d task(s)", len(jobs), len(jobs)/len(modes))
	if len(skips) > 0 {
		msg += fmt.Sprintf(" · skipped %d without a task dir", len(skips))
	}
	return tea.Batch(statusCmd(msg, false), s.waitBatch(b.id))
}

func queuedKey(batch int, j validate.Job) string {
	return fmt.Sprintf("%d/%s/%s", batch, j.TaskID, j.Mode)
}

// cancelEntry stops a running run (the validator polls) or a queued one
// (stopped as soon as it starts).
func (s *Runs) cancelEntry(e *runEntry) tea.Cmd {
	e.asked = true
	if e.state == runQueued {
		s.cancels.Store(e.key, true)
		return statusCmd("cancelled "+e.run.TaskID+" "+e.run.Mode+" before it starts", false)
	}
	if s.batches[e.batch] == nil && s.svc.Cancel != nil {
		// Another curate process runs it: leave the marker `curate runs
		// cancel` leaves, which that process polls for.
		if err := s.svc.Cancel(e.run.ID); err != nil {
			return statusCmd(err.Error(), true)
		}
		return statusCmd("asked the process running "+e.run.ID+" to cancel it", false)
	}
	s.cancels.Store(e.run.ID, true)
	return statusCmd("cancelling "+e.run.ID+"…", false)
}

// Shutdown cancels every batch (the workbench is closing) so containers
// are stopped and removed rather than left behind.
func (s *Runs) Shutdown() {
	for _, b := range s.batches {
		b.cancel()
		for range b.events { // drain until the validator returns
		}
	}
}

// taskFile is one of a task's files the review queue opens in $EDITOR.
func (s *Runs) taskFile(e *runEntry, rel string) (string, error) {
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

func (s *Runs) edit(rel string) tea.Cmd {
	e := s.selected()
	if e == nil {
		return nil
	}
	p, err := s.taskFile(e, rel)
	if err != nil {
		return statusCmd("edit: "+err.Error(), true)
	}
	editor := os.Getenv("VISUAL")
	if editor == "" {
		editor = os.Getenv("EDITOR")
	}
	if editor == "" {
		editor = "vi"
	}
	return tea.ExecProcess(editorCommand(editor, p), func(err error) tea.Msg { return editorDoneMsg{p, err} })
}

// sortedIDs is a set's ids in order.
func sortedIDs(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for id := range m {
		out = append(out, id)
	}
	sort.Strings(out)
	return out
}

// candidateScope is what "validate…" can apply to: the current task, the
// marked tasks and the tasks the Candidates filter shows.
func (a *App) candidateScope() (string, []string, []string) {
	c := a.candidates
	tasks := a.ctx.Catalog.Tasks
	filtered := make([]string, 0, len(c.rows))
	for _, i := range c.rows {
		filtered = append(filtered, tasks[i].ID)
	}
	return a.ctx.CurrentID, sortedIDs(c.marked), filtered
}
