// Package jobs is the jobs list (J): start an import, a mine, a build, a
// validation or a repository rebuild in the background, watch each one's
// counts, rate and ETA, cancel it, and read what it changed when it ends.
//
// A job runs one app function (the CLI's own) in a goroutine, as the Runs
// screen runs a validation batch: the function's progress callback keeps
// the newest Progress and wakes a command that hands it to the UI loop at
// most progressEvery; the answer comes back as a message. Validations are
// started through the Runs screen (shared.StartValidationMsg), so their
// logs stream there and cancelling one removes its containers as before.
package jobs

import (
	"context"
	"fmt"
	"io"
	"maps"
	"strings"
	"sync"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"curate/app"
	"curate/internal/stopsig"
	"curate/ui/components/frame"
	"curate/ui/components/scroller"
	"curate/ui/shared"
)

// Model is the jobs list. The App draws it over the active screen while
// it is open and hands it every JobsMsg, open or not.
type Model struct {
	ctx     *shared.Context
	list    scroller.Model
	form    *startForm
	confirm *shared.LongJob
	runs    map[int]*jobRun
	w, h    int
}

// jobRun is one job's goroutine as the UI loop sees it.
type jobRun struct {
	job    *shared.LongJob
	notify chan struct{} // a new Progress is waiting (capacity 1)
	done   chan finishedMsg
	mu     sync.Mutex
	latest app.Progress
	repos  map[string]string // each repository's latest step, for LongJob.Repos
	// refresh: the job changes tasks; step is the last stage and
	// repository the UI loop saw (a new one means a step's results are in
	// the store).
	refresh bool
	step    string
}

// Messages of the jobs list.
type (
	progressMsg struct {
		id    int
		p     app.Progress
		repos map[string]string // a copy of jobRun.repos, nil when none
	}
	finishedMsg struct {
		id      int
		line    string
		err     error
		refresh bool // the job changed tasks: reload the catalogue
	}
	// enginesCheckedMsg is the engine check made before a rebuild starts.
	enginesCheckedMsg struct {
		repo   string
		report app.EngineReport
	}
)

func (progressMsg) ForJobs()       {}
func (finishedMsg) ForJobs()       {}
func (enginesCheckedMsg) ForJobs() {}

// New makes the jobs list.
func New(c *shared.Context) *Model {
	return &Model{ctx: c, runs: map[int]*jobRun{}}
}

// Title names the list in the help overlay.
func (s *Model) Title() string { return "Jobs" }

// SetSize gives the list the area between the tab and status bars.
func (s *Model) SetSize(w, h int) { s.w, s.h = w, h }

// Capturing reports a form or question that takes every key.
func (s *Model) Capturing() bool { return s.form != nil || s.confirm != nil }

// Init starts nothing: jobs start from keys.
func (s *Model) Init() tea.Cmd { return nil }

// ShortHelp is the list's main keys.
func (s *Model) ShortHelp() []key.Binding {
	return s.ctx.Keys.List("job_import", "job_mine", "job_build", "job_validate", "job_cancel")
}

// FullHelp is the list's keys for the help overlay.
func (s *Model) FullHelp() [][]key.Binding {
	k := s.ctx.Keys
	return [][]key.Binding{
		k.List("job_import", "job_mine", "job_build", "job_validate", "job_rebuild", "job_campaign", "job_cancel"),
		k.List("up", "down", "page_up", "page_down", "top", "bottom"),
	}
}

// work is a job's body: it runs off the UI loop, reports progress, and
// answers the finished line.
type work func(ctx context.Context, progress app.ProgressFunc) (line string, err error)

// progressEvery paces progress messages: a job reporting thousands of
// items a second costs a few frames a second.
var progressEvery = 100 * time.Millisecond

// start runs w in the background as a job named name working on what.
func (s *Model) start(name, what string, refresh bool, w work) tea.Cmd {
	return s.startSaying(name, what, refresh, w, nil)
}

// startSaying is start with say, when not nil, in place of its start line.
func (s *Model) startSaying(name, what string, refresh bool, w work, say tea.Cmd) tea.Cmd {
	ctx, cancel := context.WithCancel(context.Background())
	j := s.ctx.Long.Add(name, 0, cancel)
	j.What = what
	r := &jobRun{job: j, notify: make(chan struct{}, 1), done: make(chan finishedMsg, 1), refresh: refresh}
	s.runs[j.ID] = r
	go func() {
		line, err := w(ctx, r.report)
		if err != nil && ctx.Err() != nil {
			err = nil // cancelled: the line says how far it got
			if line == "" {
				line = "cancelled"
			}
		}
		r.done <- finishedMsg{id: j.ID, line: line, err: err, refresh: refresh}
	}()
	s.list = scroller.Model{} // the newest job is on top: show it
	if say == nil {
		say = shared.StatusCmd(fmt.Sprintf("started %s %s · J shows the jobs", name, frame.CleanLine(what)), false)
	}
	return tea.Batch(say, r.wait(j.ID))
}

// report keeps the newest progress and wakes the waiting command; it runs
// on the job's goroutines.
func (r *jobRun) report(p app.Progress) {
	r.mu.Lock()
	r.latest = p
	if p.Repo != "" {
		if r.repos == nil {
			r.repos = map[string]string{}
		}
		r.repos[p.Repo] = p.Stage + ": " + strings.TrimPrefix(p.Item, p.Repo+": ")
	}
	r.mu.Unlock()
	select {
	case r.notify <- struct{}{}:
	default:
	}
}

// wait answers the job's next progress (paced) or its end.
func (r *jobRun) wait(id int) tea.Cmd {
	return func() tea.Msg {
		select {
		case m := <-r.done:
			return m
		case <-r.notify:
			time.Sleep(progressEvery)
			r.mu.Lock()
			p := r.latest
			repos := maps.Clone(r.repos)
			r.mu.Unlock()
			return progressMsg{id, p, repos}
		}
	}
}

// Update handles the list's messages and, while it is open, its keys.
func (s *Model) Update(msg tea.Msg) tea.Cmd {
	switch m := msg.(type) {
	case progressMsg:
		r := s.runs[m.id]
		if r == nil {
			return nil
		}
		r.job.Progress(m.p.Stage, m.p.Done, m.p.Total, m.p.Item)
		if m.repos != nil {
			r.job.Repos = m.repos
		}
		cmd := r.wait(m.id)
		// A new stage or repository means a step's results are saved (a
		// campaign's mined PRs, its builds): the screens show them while
		// the job goes on, not only when it ends (the Repos screen had no
		// repository to mark with the campaign's step).
		if step := m.p.Stage + "\x00" + m.p.Repo; r.refresh && step != r.step && s.ctx.Store != nil {
			cmd = tea.Batch(cmd, shared.LoadCatalogCmd(s.ctx))
			r.step = step
		}
		return cmd
	case finishedMsg:
		r := s.runs[m.id]
		if r == nil {
			return nil
		}
		delete(s.runs, m.id)
		s.ctx.Long.Finish(r.job, m.line, m.err)
		cmds := []tea.Cmd{shared.StatusCmd(r.job.Name+": "+r.job.Line, m.err != nil)}
		if m.refresh && s.ctx.Store != nil {
			cmds = append(cmds, shared.LoadCatalogCmd(s.ctx))
		}
		return tea.Batch(cmds...)
	case enginesCheckedMsg:
		return s.enginesChecked(m)
	case shared.StartJobMsg:
		if m.Kind == "rebuild" {
			return s.startRebuild(m.Arg)
		}
		return shared.StatusCmd("no job kind "+m.Kind, true)
	case tea.KeyMsg:
		return s.key(m)
	}
	return nil
}

// rows is the jobs newest first.
func (s *Model) rows() []*shared.LongJob {
	all := s.ctx.Long.All()
	out := make([]*shared.LongJob, len(all))
	for i, j := range all {
		out[len(all)-1-i] = j
	}
	return out
}

func (s *Model) selected() *shared.LongJob {
	rows := s.rows()
	if c := s.list.Cursor; c >= 0 && c < len(rows) {
		return rows[c]
	}
	return nil
}

// Running counts the jobs of this list in flight.
func (s *Model) Running() int { return len(s.runs) }

// Finish waits for every job (the curator quit and chose to keep them),
// saying on out how each ended; an interrupt, SIGTERM or SIGHUP cancels what is
// left.
func (s *Model) Finish(out io.Writer) {
	if len(s.runs) == 0 {
		return
	}
	ctx, stop := stopsig.Context(context.Background())
	defer stop()
	fmt.Fprintf(out, "curate: finishing %d job(s); ctrl+c cancels them\n", len(s.runs))
	for _, r := range s.runs {
		cancel := context.AfterFunc(ctx, func() { r.job.Cancel() })
		m := <-r.done
		cancel()
		line := m.line
		if m.err != nil {
			line = "failed: " + m.err.Error()
		}
		fmt.Fprintf(out, "  %s %s: %s\n", r.job.Name, frame.CleanLine(r.job.What), frame.CleanLine(line))
	}
}

// Shutdown cancels every job and waits for it to stop (the workbench is
// closing): an import or a build stops between tasks, never half-way
// through one.
func (s *Model) Shutdown() {
	for _, r := range s.runs {
		r.job.Cancel()
	}
	for _, r := range s.runs {
		<-r.done
	}
}

// ProgressFor is the message a job's progress arrives in; benchmarks and
// tests deliver it directly.
func ProgressFor(id int, p app.Progress) tea.Msg { return progressMsg{id: id, p: p} }
