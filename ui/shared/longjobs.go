package shared

import (
	"fmt"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"curate/ui/components/frame"
)

// JobState is where a long job is in its life.
type JobState int

const (
	JobRunning JobState = iota
	JobCancelling
	JobDone
	JobFailed
	JobCancelled
)

func (s JobState) String() string {
	return [...]string{"running", "cancelling", "done", "failed", "cancelled"}[s]
}

// LongJob is work that outlives a keypress (an import, a mine, a build, a
// validation batch, an export): the status bar shows its progress, the
// jobs list (J) its counts, rate and ETA, and ctrl+x or the list cancel
// it. A finished job stays in the list with a line saying what changed.
type LongJob struct {
	ID          int
	Name        string // the kind: import, mine, build, validate, rebuild, export
	What        string // what it works on ("~/bench/tasks", "acme/calc")
	Stage       string // the operation's current stage ("read", "write")
	Item        string // the last item done
	Done, Total int
	State       JobState
	// Line says what a finished job changed, or why it failed.
	Line string
	// Started and Ended bound the job; StageAt is when Stage began and
	// Moved when Done last changed (rate and ETA are measured between).
	Started, Ended, StageAt, Moved time.Time
	stageDone                      int // Done when Stage began
	cancel                         func()
	now                            func() time.Time
	// Runs marks a validation batch: quitting asks before it drops one.
	Runs bool
	// Waiting says how many of a batch's runs wait for the cluster's
	// capacity ("" when none): shown, not counted as failures.
	Waiting string
	// Repos is, in a job over several repositories (a campaign), each
	// one's latest step and what it did ("build: 3 built").
	Repos map[string]string
}

// Progress records how far the job has got; a new stage restarts the
// rate. Owners call it from the UI loop (messages), never from workers.
func (j *LongJob) Progress(stage string, done, total int, item string) {
	now := j.now()
	if stage != j.Stage {
		if j.Stage != "" { // a first stage counts from the start
			j.StageAt, j.stageDone = now, 0
		}
		j.Stage = stage
	}
	if done != j.Done {
		j.Moved = now
	}
	j.Done, j.Total, j.Item = done, total, item
}

// Step counts one more item done (validation runs).
func (j *LongJob) Step() { j.Progress(j.Stage, j.Done+1, j.Total, j.Item) }

// Rate is items a second in the current stage (0 before two points).
func (j *LongJob) Rate() float64 {
	from := j.StageAt
	if from.IsZero() {
		from = j.Started
	}
	d := j.Moved.Sub(from).Seconds()
	n := j.Done - j.stageDone
	if n <= 0 || d <= 0 {
		return 0
	}
	return float64(n) / d
}

// ETA is the time left at the current rate (0: unknown).
func (j *LongJob) ETA() time.Duration {
	r := j.Rate()
	if r <= 0 || j.Total <= j.Done {
		return 0
	}
	return time.Duration(float64(j.Total-j.Done) / r * float64(time.Second)).Round(time.Second)
}

// Elapsed is how long it ran (so far).
func (j *LongJob) Elapsed() time.Duration {
	end := j.Ended
	if end.IsZero() {
		end = j.now()
	}
	return end.Sub(j.Started).Round(time.Second)
}

// Active reports a job still running (or stopping).
func (j *LongJob) Active() bool { return j.State == JobRunning || j.State == JobCancelling }

// Cancel asks the job to stop; it answers through its owner's Finish.
func (j *LongJob) Cancel() bool {
	if !j.Active() || j.cancel == nil {
		return false
	}
	j.State = JobCancelling
	j.cancel()
	return true
}

// LongJobs is every long job of this session, oldest first: the running
// ones and the finished ones (the newest maxFinished).
type LongJobs struct {
	list    []*LongJob
	next    int
	confirm bool // ctrl+x was pressed once; the next press cancels
	// Now is the clock (nil: time.Now); tests fix it.
	Now func() time.Time
}

// maxFinished is how many finished jobs the list keeps.
const maxFinished = 50

func (l *LongJobs) now() time.Time {
	if l.Now != nil {
		return l.Now()
	}
	return time.Now()
}

// Add starts tracking a job; cancel stops it.
func (l *LongJobs) Add(name string, total int, cancel func()) *LongJob {
	l.next++
	t := l.now()
	j := &LongJob{ID: l.next, Name: name, Total: total, cancel: cancel, now: l.now, Started: t, StageAt: t, Moved: t}
	l.list = append(l.list, j)
	return j
}

// Finish ends j: err nil is done (or cancelled when it was asked to
// stop), line says what changed.
func (l *LongJobs) Finish(j *LongJob, line string, err error) {
	j.Ended = l.now()
	switch {
	case j.State == JobCancelling:
		j.State = JobCancelled
	case err != nil:
		j.State = JobFailed
	default:
		j.State = JobDone
	}
	j.Line = line
	if err != nil {
		j.Line = err.Error()
		if line != "" {
			j.Line = line + ": " + err.Error()
		}
	}
	finished := 0
	for i := len(l.list) - 1; i >= 0; i-- {
		if !l.list[i].Active() {
			finished++
			if finished > maxFinished {
				l.list = append(l.list[:i], l.list[i+1:]...)
			}
		}
	}
}

// Remove stops tracking j without a finished line.
func (l *LongJobs) Remove(j *LongJob) {
	for i, x := range l.list {
		if x == j {
			l.list = append(l.list[:i], l.list[i+1:]...)
			return
		}
	}
}

// All is every job, oldest first (the list's rows; do not modify).
func (l *LongJobs) All() []*LongJob { return l.list }

// running is the jobs in flight, oldest first.
func (l *LongJobs) running() []*LongJob {
	var out []*LongJob
	for _, j := range l.list {
		if j.Active() {
			out = append(out, j)
		}
	}
	return out
}

// Text is the status bar's progress: "validate ▰▰▱▱ 2/4 · 3.1/s ETA 1s".
// narrow keeps one job and no bar, for an 80-column bar.
func (l *LongJobs) Text(narrow bool) string {
	run := l.running()
	if len(run) == 0 {
		return ""
	}
	shown := run
	if narrow {
		shown = run[len(run)-1:]
	}
	parts := make([]string, 0, len(shown))
	for _, j := range shown {
		parts = append(parts, j.Brief(!narrow))
	}
	s := strings.Join(parts, " · ")
	if narrow && len(run) > 1 {
		s += fmt.Sprintf(" +%d", len(run)-1)
	}
	newest := run[len(run)-1]
	switch {
	case l.confirm:
		return s + " · ctrl+x again cancels " + newest.Name
	case narrow:
		return s + " (J)"
	}
	return s + " (J jobs · ctrl+x cancels)"
}

// Brief is one job's progress in a few cells: name, counts, ETA.
func (j *LongJob) Brief(bar bool) string {
	s := j.Name
	if bar && j.Total > 0 {
		s += " " + frame.MiniBar(j.Done, j.Total, 8)
	}
	s += " " + j.Counts()
	if j.State == JobCancelling {
		return s + " stopping"
	}
	if j.Waiting != "" {
		s += " · " + j.Waiting
	}
	if eta := j.ETA(); eta > 0 {
		s += " ETA " + ShortDuration(eta)
	}
	return s
}

// Counts is "3/10", or "3" while the total is not known.
func (j *LongJob) Counts() string {
	if j.Total > 0 {
		return fmt.Sprintf("%d/%d", j.Done, j.Total)
	}
	return fmt.Sprint(j.Done)
}

// ShortDuration is a duration in at most a few cells: 42s, 3m05s, 2h10m.
func ShortDuration(d time.Duration) string {
	d = d.Round(time.Second)
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d.Seconds()))
	case d < time.Hour:
		return fmt.Sprintf("%dm%02ds", int(d.Minutes()), int(d.Seconds())%60)
	}
	return fmt.Sprintf("%dh%02dm", int(d.Hours()), int(d.Minutes())%60)
}

// Key handles ctrl+x: the first press asks, the second cancels the newest.
func (l *LongJobs) Key() tea.Cmd {
	run := l.running()
	if len(run) == 0 {
		return StatusCmd("no long job to cancel", false)
	}
	if !l.confirm {
		l.confirm = true
		return nil
	}
	l.confirm = false
	j := run[len(run)-1]
	j.Cancel()
	return StatusCmd("cancelling "+j.Name+"…", false)
}

// Len is the number of jobs running.
func (l *LongJobs) Len() int { return len(l.running()) }

// Unconfirm forgets a first ctrl+x (another key came in between).
func (l *LongJobs) Unconfirm() { l.confirm = false }

// Runs counts the validation batches in flight.
func (l *LongJobs) Runs() int {
	n := 0
	for _, j := range l.list {
		if j.Runs && j.Active() {
			n++
		}
	}
	return n
}
