// Package runs is the Runs screen: validations, live logs, the failure
// review queue and reruns.
package runs

import (
	"context"
	"fmt"
	"io"
	"sync"

	tea "github.com/charmbracelet/bubbletea"

	"curate/app"
	"curate/internal/stopsig"
	"curate/pipeline"
	"curate/pipeline/validate"
	"curate/pipeline/validate/logstream"
	"curate/ui/components/frame"
	"curate/ui/components/logpane"
	"curate/ui/components/scroller"
	"curate/ui/shared"
)

func (s *Model) started(m runStartedMsg) tea.Cmd {
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
	e.log, e.fromFile = logpane.New(), false
	s.sizeLogs()
	return tea.Batch(pumpLog(m.run.ID, m.sub, noWait{}), s.waitBatch(m.batch))
}

func (s *Model) done(m runDoneMsg) tea.Cmd {
	if e := s.byID(m.run.ID); e != nil {
		e.run, e.state = m.run, runFinished
		e.waiting = ""
		s.countWaiting(m.batch)
	}
	if b := s.batches[m.batch]; b != nil && b.job != nil {
		b.job.Step()
	}
	r := m.run
	s.ctx.Catalog.Latest[r.TaskID] = &r
	return s.waitBatch(m.batch)
}

func (s *Model) batchDone(m batchDoneMsg) tea.Cmd {
	b := s.batches[m.batch]
	delete(s.batches, m.batch)
	for _, e := range s.entries { // jobs that never started (cancelled batch)
		if e.batch == m.batch && e.state == runQueued {
			e.state = runFinished
			e.run.Outcome, e.run.Detail = pipeline.OutcomeCancelled, "cancelled before it started"
		}
	}
	var cmds []tea.Cmd
	if m.err != nil {
		if b != nil && b.job != nil {
			s.ctx.Long.Finish(b.job, "validate", m.err)
		}
		cmds = append(cmds, shared.StatusCmd("validate: "+m.err.Error(), true))
	} else {
		ok, bad, cancelled := 0, 0, 0
		for _, e := range s.entries {
			if e.batch == m.batch && e.state == runFinished {
				switch e.run.Outcome {
				case pipeline.OutcomeOK:
					ok++
				case pipeline.OutcomeCancelled:
					cancelled++
					bad++
				default:
					bad++
				}
			}
		}
		line := fmt.Sprintf("validation done: %d ok, %d not ok", ok, bad)
		if b != nil && b.job != nil {
			done := fmt.Sprintf("validated %d run(s): %d ok, %d not ok", ok+bad, ok, bad-cancelled)
			if cancelled > 0 {
				done += fmt.Sprintf(", %d cancelled", cancelled)
			}
			s.ctx.Long.Finish(b.job, done, nil)
		}
		cmds = append(cmds, shared.StatusCmd(line, false))
	}
	if s.ctx.Store != nil {
		cmds = append(cmds, shared.LoadCatalogCmd(s.ctx)) // task statuses changed
	}
	return tea.Batch(cmds...)
}

func (s *Model) waitBatch(id int) tea.Cmd {
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
// a validate.Validator, as `curate validate` does, once the engines have
// been asked whether they answer (engines.go).
func (s *Model) startValidation(ids []string, f runForm) tea.Cmd {
	if s.svc.Validate == nil {
		return shared.StatusCmd("validation needs a Docker engine: none is configured", true)
	}
	if s.svc.CheckEngines != nil {
		return s.checkEnginesThenStart(ids, f)
	}
	return s.launch(ids, f, nil)
}

// launch starts the validation; engines is the engine check's report,
// whose problem line (some engines do not answer) is shown in place of
// the start line.
func (s *Model) launch(ids []string, f runForm, engines app.EngineReport) tea.Cmd {
	var modes []string // the first choice: each task's app.DefaultModes
	if f.modes > 0 {
		modes, _ = validate.ParseModes(runModes[f.modes])
	}
	var tasks []*pipeline.Task
	for _, id := range ids {
		if t := s.ctx.Catalog.Task(id); t != nil {
			tasks = append(tasks, t)
		}
	}
	jobs, skips := app.ValidationJobs(s.ctx.Root, tasks, modes)
	if len(jobs) == 0 {
		why := "no task chosen"
		if len(skips) > 0 {
			why = skips[0].TaskID + ": " + skips[0].Reason
		}
		return shared.StatusCmd("nothing to validate: "+why, true)
	}
	s.nextBatch++
	b := &runBatch{id: s.nextBatch, events: make(chan tea.Msg, 64)}
	ctx, cancel := context.WithCancel(context.Background())
	b.cancel = cancel
	b.job = s.ctx.Long.Add("validate", len(jobs), cancel)
	b.job.Runs = true
	b.job.What = batchWhat(jobs) + " · " + runModes[f.modes] // the quit prompt names it
	s.batches[b.id] = b
	fresh := make([]*runEntry, len(jobs))
	for i, j := range jobs {
		fresh[i] = &runEntry{key: queuedKey(b.id, j), batch: b.id, state: runQueued,
			run: pipeline.Run{TaskID: j.TaskID, Mode: j.Mode, Outcome: pipeline.OutcomePending}}
	}
	s.entries = append(fresh, s.entries...)
	s.filter, s.list = 0, scroller.Model{}

	svc := s.svc
	go func() {
		defer close(b.events)
		runs, err := svc.Validate(ctx, jobs, app.ValidateOptions{
			Concurrency: f.concurrency, Runs: max(f.runs, 1), // 0: each engine's own size
			OnStart: func(r *pipeline.Run, log *logstream.Broadcaster) {
				k := queuedKey(b.id, validate.Job{TaskID: r.TaskID, Mode: r.Mode})
				if _, asked := s.cancels.Load(k); asked {
					s.cancels.Store(r.ID, true)
				}
				b.events <- runStartedMsg{batch: b.id, key: k, run: *r, sub: log.Subscribe(0)}
			},
			OnDone: func(r *pipeline.Run) {
				if f := b.report.Load(); f != nil {
					(*f)(*r)
				}
				b.events <- runDoneMsg{batch: b.id, run: *r}
			},
			OnWait: func(id, why string) {
				b.events <- runWaitMsg{batch: b.id, id: id, why: why}
			},
			Cancelled: func(id string) bool {
				_, ok := s.cancels.Load(id)
				return ok
			},
		})
		b.events <- batchDoneMsg{batch: b.id, runs: len(runs), err: err}
	}()
	msg := fmt.Sprintf("validating %d run(s) of %d task(s)", len(jobs), len(tasks)-len(skips))
	if len(skips) > 0 {
		msg += fmt.Sprintf(" · skipped %d without a task dir", len(skips))
	}
	start := shared.StatusCmd(msg, false)
	if p := shared.EngineProblemCmd(engines); p != nil {
		start = p
	}
	// In order: a batch that fails at once (its error on the status bar)
	// must not be followed by the start line.
	return tea.Sequence(start, s.waitBatch(b.id))
}

func queuedKey(batch int, j validate.Job) string {
	return fmt.Sprintf("%d/%s/%s", batch, j.TaskID, j.Mode)
}

// cancelEntry stops a running run (the validator polls) or a queued one
// (stopped as soon as it starts).
func (s *Model) cancelEntry(e *runEntry) tea.Cmd {
	e.asked = true
	if e.state == runQueued {
		s.cancels.Store(e.key, true)
		return shared.StatusCmd("cancelled "+e.run.TaskID+" "+e.run.Mode+" before it starts", false)
	}
	if s.batches[e.batch] == nil && s.svc.Cancel != nil {
		// Another curate process runs it: leave the marker `curate runs
		// cancel` leaves, which that process polls for.
		if err := s.svc.Cancel(e.run.ID); err != nil {
			return shared.StatusCmd(err.Error(), true)
		}
		return shared.StatusCmd("asked the process running "+e.run.ID+" to cancel it", false)
	}
	s.cancels.Store(e.run.ID, true)
	return shared.StatusCmd("cancelling "+e.run.ID+"…", false)
}

// Shutdown cancels every batch (the workbench is closing) so containers
// are stopped and removed rather than left behind.
func (s *Model) Shutdown() {
	s.stopFileSearch()
	for _, b := range s.batches {
		b.cancel()
		for range b.events { // drain until the validator returns
		}
	}
}

// Finish lets every batch run to its end (the curator quit and chose to
// keep the runs), saying on out which runs finish; an interrupt or
// SIGTERM or SIGHUP cancels what is left.
func (s *Model) Finish(out io.Writer) {
	if len(s.batches) == 0 {
		return
	}
	ctx, stop := stopsig.Context(context.Background())
	defer stop()
	fmt.Fprintf(out, "curate: finishing %d validation batch(es); ctrl+c cancels them\n", len(s.batches))
	var mu sync.Mutex
	report := func(r pipeline.Run) {
		mu.Lock()
		defer mu.Unlock()
		fmt.Fprintf(out, "  %s %s %s: %s\n", r.ID, frame.CleanLine(r.TaskID), r.Mode, r.Outcome)
	}
	for _, b := range s.batches {
		b.report.Store(&report)
		cancel := context.AfterFunc(ctx, b.cancel)
		for m := range b.events { // until the validator returns and records
			if m, ok := m.(batchDoneMsg); ok && m.err != nil {
				fmt.Fprintf(out, "curate: validate: %v\n", m.err)
			}
		}
		cancel()
	}
}

// batchWhat names a batch's tasks: the first three ids, and how many more.
func batchWhat(jobs []validate.Job) string {
	var ids []string
	for _, j := range jobs {
		if len(ids) == 0 || ids[len(ids)-1] != j.TaskID {
			ids = append(ids, j.TaskID)
		}
	}
	return app.FirstFew(ids, 3)
}
