package shared

import (
	"fmt"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"curate/ui/components/frame"
)

// LongJob is work that outlives a keypress (a validation batch, an
// export): the status bar shows its progress and ctrl+x cancels it.
type LongJob struct {
	id          int
	Name        string
	Done, Total int
	cancel      func()
	// Runs marks a validation batch: quitting asks before it drops one.
	Runs bool
}

// LongJobs is the list of long jobs, newest last.
type LongJobs struct {
	list    []*LongJob
	next    int
	confirm bool // ctrl+x was pressed once; the next press cancels
}

// Add starts tracking a job; cancel stops it.
func (l *LongJobs) Add(name string, total int, cancel func()) *LongJob {
	l.next++
	j := &LongJob{id: l.next, Name: name, Total: total, cancel: cancel}
	l.list = append(l.list, j)
	return j
}

// Remove stops tracking j.
func (l *LongJobs) Remove(j *LongJob) {
	for i, x := range l.list {
		if x == j {
			l.list = append(l.list[:i], l.list[i+1:]...)
			return
		}
	}
}

// Text is the status bar's progress: "validate ▰▰▱▱ 2/4".
func (l *LongJobs) Text() string {
	if len(l.list) == 0 {
		return ""
	}
	parts := make([]string, 0, len(l.list))
	for _, j := range l.list {
		parts = append(parts, fmt.Sprintf("%s %s %d/%d", j.Name, frame.MiniBar(j.Done, j.Total, 8), j.Done, j.Total))
	}
	s := strings.Join(parts, " · ")
	if l.confirm {
		return s + " · ctrl+x again cancels " + l.list[len(l.list)-1].Name
	}
	return s + " (ctrl+x cancels)"
}

// Key handles ctrl+x: the first press asks, the second cancels the newest.
func (l *LongJobs) Key() tea.Cmd {
	if len(l.list) == 0 {
		return StatusCmd("no long job to cancel", false)
	}
	if !l.confirm {
		l.confirm = true
		return nil
	}
	l.confirm = false
	j := l.list[len(l.list)-1]
	if j.cancel != nil {
		j.cancel()
	}
	return StatusCmd("cancelling "+j.Name+"…", false)
}

// Len is the number of jobs running.
func (l *LongJobs) Len() int { return len(l.list) }

// Unconfirm forgets a first ctrl+x (another key came in between).
func (l *LongJobs) Unconfirm() { l.confirm = false }

// Runs counts the validation batches in flight.
func (l *LongJobs) Runs() int {
	n := 0
	for _, j := range l.list {
		if j.Runs {
			n++
		}
	}
	return n
}
