package validate

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"curate/pipeline"
	"curate/pipeline/validate/logstream"
)

// One queue feeds every engine. Each engine runs up to Concurrency
// containers at once, taking the next job whenever it has a free slot, so
// an engine that is idle gets work and a slow one takes less. After a run
// that is not ok, its engine is pinged: an engine that does not answer is
// down. It takes no more jobs, and its runs in flight go back to the front
// of the queue, once each, for an engine that still answers; the run keeps
// its id and log, and its record says where it was retried and why
// (Run.Retry). A run whose engine went down a second time, or when no
// engine is left, ends as infra_error naming the engine.

// Checker is a Runner that can tell whether its engine still answers.
type Checker interface {
	Answers(ctx context.Context) error
}

// engineDownPing bounds the check of an engine after a failed run.
const engineDownPing = 5 * time.Second

// item is one job on its way through the queue; run and log are made when
// it first starts and kept across a retry.
type item struct {
	index int
	job   Job
	run   *pipeline.Run
	log   *logstream.Broadcaster
	sink  *os.File
	from  string // the engine that stopped answering, when this is a retry
}

// engine is one runner and whether it went down during the batch.
type engine struct {
	r    Runner
	down error
}

// queue holds the jobs not yet started (retries first) and counts the
// jobs not yet finished and the engines still up.
type queue struct {
	mu    sync.Mutex
	cond  *sync.Cond
	items []*item
	open  int
	alive int
	gate  *gate
	// states holds NOP and Oracle executions for gold (early.go).
	states stateStash
}

func newQueue(jobs []Job, engines int) *queue {
	q := &queue{open: len(jobs), alive: engines, gate: newGate(jobs)}
	q.cond = sync.NewCond(&q.mu)
	for i, j := range jobs {
		q.items = append(q.items, &item{index: i, job: j})
	}
	return q
}

// take waits for the next item for a worker of e. It returns false when
// every job has finished, or when e is down and another engine is up (the
// worker then stops). When every engine is down, workers still take the
// items left so each gets its record.
func (q *queue) take(e *engine) (*item, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for {
		if q.open == 0 || (e.down != nil && q.alive > 0) {
			return nil, false
		}
		for i, it := range q.items {
			if q.gate.ready(it.job) || e.down != nil {
				q.items = append(q.items[:i:i], q.items[i+1:]...)
				return it, true
			}
		}
		q.cond.Wait()
	}
}

// retry puts an item back at the front of the queue, for another engine.
func (q *queue) retry(it *item) {
	q.mu.Lock()
	q.items = append([]*item{it}, q.items...)
	q.mu.Unlock()
	q.cond.Broadcast()
}

// finished counts one job done.
func (q *queue) finished(it *item) {
	q.mu.Lock()
	q.open--
	q.gate.done(it.job, it.run)
	q.mu.Unlock()
	q.cond.Broadcast()
}

// markDown records that e stopped answering; it returns true for the
// first worker that saw it, and whether another engine is still up.
func (q *queue) markDown(e *engine, err error) (first, othersUp bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if e.down == nil {
		e.down = err
		q.alive--
		first = true
		defer q.cond.Broadcast()
	}
	return first, q.alive > 0
}

// skips reports whether an early verdict leaves it out (early.go).
func (q *queue) skips(it *item) bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.gate.skips(it.job)
}

// isDown reports e's error when it stopped answering.
// anyAlive says whether some engine still answers.
func (q *queue) anyAlive() bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.alive > 0
}

func (q *queue) isDown(e *engine) error {
	q.mu.Lock()
	defer q.mu.Unlock()
	return e.down
}

// Validate runs every job and returns their runs in job order.
func (v *Validator) Validate(ctx context.Context, jobs []Job) []*pipeline.Run {
	out := make([]*pipeline.Run, len(jobs))
	runners := v.Runners
	if len(runners) == 0 {
		runners = []Runner{noEngine{}}
	}
	q := newQueue(jobs, len(runners))
	var wg sync.WaitGroup
	for _, r := range runners {
		e := &engine{r: r}
		for w := 0; w < workersFor(r, v.Concurrency); w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for {
					it, ok := q.take(e)
					if !ok {
						return
					}
					if v.runItem(ctx, q, e, it) {
						q.retry(it)
						continue
					}
					out[it.index] = it.run
					q.finished(it)
				}
			}()
		}
	}
	wg.Wait()
	return out
}

// runItem runs an item on e and finishes its run, or returns true when e
// stopped answering and the item should be retried on another engine.
func (v *Validator) runItem(parent context.Context, q *queue, e *engine, it *item) (retry bool) {
	host := e.r.Host()
	if it.run == nil {
		v.begin(parent, host, it)
		if c, ok := e.r.(interface{ Caps() Caps }); ok {
			it.log.SetOutputLimit(c.Caps().LogBytes) // max_log: a run printing without end fills no disk
		}
	} else if it.from == "" {
		it.run.DockerHost = host // put back before it ran on the engine that took it first
	}
	if q.skips(it) {
		it.run.Outcome, it.run.Detail = pipeline.OutcomeCancelled, earlyStopDetail
		it.log.Line("curate: " + earlyStopDetail)
		v.finish(parent, it)
		return false
	}
	if down := q.isDown(e); down != nil {
		if q.anyAlive() {
			// Taken just as e was marked down by another of its
			// workers: it never ran here, another engine takes it.
			return true
		}
		// Every engine is down (take gives a down engine's worker items
		// only then): the run ends here, saying why.
		it.run.Outcome = pipeline.OutcomeInfraError
		it.run.Detail = fmt.Sprintf("no engine left: %s stopped answering (%v)", host, down)
		it.log.Line("curate: " + string(it.run.Outcome) + ": " + it.run.Detail)
		v.finish(parent, it)
		return false
	}
	if it.from != "" {
		it.run.DockerHost = host
		it.run.Retry = pipeline.RetrySentence(host, it.from)
		it.log.Line("curate: " + it.run.Retry)
		v.save(parent, it.run)
	}

	ctx, cancel := context.WithCancelCause(parent)
	if v.CancelRequested != nil {
		if v.CancelRequested(it.run.ID) { // asked before it started (a queued run)
			cancel(ErrCancelRequested)
		} else {
			go v.pollCancel(ctx, cancel, it.run.ID)
		}
	}
	meter := &Meter{}
	v.execute(WithMeter(ctx, meter), e.r, it.job, it.run, it.log, &q.states)
	cancel(nil)
	v.measured(parent, it, meter)

	if err := v.engineDown(parent, e, it.run); err != nil {
		first, othersUp := q.markDown(e, err)
		if first && v.OnEngineDown != nil {
			v.OnEngineDown(host, err)
		}
		msg := fmt.Sprintf("engine %s stopped answering (%v)", host, err)
		if it.from == "" && othersUp {
			it.log.Line("curate: " + msg + "; the run goes back to the queue for another engine")
			it.from = host
			resetResult(it.run)
			return true
		}
		it.run.Outcome, it.run.Failure = pipeline.OutcomeInfraError, nil
		if it.from != "" {
			it.run.Detail = msg + "; the run was already retried once"
		} else {
			it.run.Detail = msg + "; no other engine answers"
		}
		it.log.Line("curate: " + string(it.run.Outcome) + ": " + it.run.Detail)
	}
	v.finish(parent, it)
	return false
}

// engineDown checks the engine of a run that is not ok: nil when it still
// answers (the result is the task's), else why not.
func (v *Validator) engineDown(parent context.Context, e *engine, run *pipeline.Run) error {
	if parent.Err() != nil || run.Outcome == pipeline.OutcomeOK || run.Outcome == pipeline.OutcomeCancelled {
		return nil
	}
	c, ok := e.r.(Checker)
	if !ok {
		return nil
	}
	ctx, cancel := context.WithTimeout(parent, engineDownPing)
	defer cancel()
	return c.Answers(ctx)
}

// resetResult clears what an execution wrote on a run, before its retry.
func resetResult(r *pipeline.Run) {
	r.Outcome, r.Detail, r.Reward, r.Failure = pipeline.OutcomeRunning, "", nil, nil
	r.FailToPass, r.PassToPass, r.Flaky = nil, nil, nil
}

// begin makes an item's run record and log and reports its start.
func (v *Validator) begin(parent context.Context, host string, it *item) {
	id := v.NewID()
	run := &pipeline.Run{
		ID: id, TaskID: it.job.TaskID, Mode: it.job.Mode, Outcome: pipeline.OutcomeRunning, Digest: it.job.Digest,
		DockerHost: host, PID: v.PID, StartedAt: time.Now().UTC(),
	}
	if v.LogDir != "" {
		path := filepath.Join(v.LogDir, id+".log")
		// O_EXCL: two runs given one id must not write into one log.
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err == nil {
			it.sink, run.LogPath = f, path
		} else {
			run.Detail = "no log file: " + err.Error()
		}
	}
	if it.sink != nil {
		it.log = logstream.New(it.sink)
	} else {
		it.log = logstream.New(nil)
	}
	it.run = run
	v.save(parent, run)
	if v.OnStart != nil {
		v.OnStart(run, it.log)
	}
}

// finish closes an item's log, classifies and stores its run.
func (v *Validator) finish(parent context.Context, it *item) {
	it.log.Close()
	if it.sink != nil {
		it.sink.Close()
	}
	v.classify(it.job, it.run)
	it.run.FinishedAt = time.Now().UTC()
	v.save(context.WithoutCancel(parent), it.run)
	if v.OnDone != nil {
		v.OnDone(it.run)
	}
}

// measured hands the machine time of an item's run to Measured.
func (v *Validator) measured(parent context.Context, it *item, m *Meter) {
	times := m.Times()
	if v.Measured == nil || len(times) == 0 {
		return
	}
	now := time.Now().UTC()
	for i := range times {
		times[i].Repo, times[i].TaskID, times[i].RunID, times[i].At = it.job.Repo, it.job.TaskID, it.run.ID, now
	}
	v.Measured(context.WithoutCancel(parent), times)
}
