package ui

import (
	"fmt"
	"strings"

	tea "github.com/charmbracelet/bubbletea"
)

// longJob is work that outlives a keypress (a validation batch, an
// export): the status bar shows its progress and ctrl+x cancels it.
type longJob struct {
	id          int
	name        string
	done, total int
	cancel      func()
}

// longJobs is the App's list of long jobs, newest last.
type longJobs struct {
	list    []*longJob
	next    int
	confirm bool // ctrl+x was pressed once; the next press cancels
}

func (l *longJobs) add(name string, total int, cancel func()) *longJob {
	l.next++
	j := &longJob{id: l.next, name: name, total: total, cancel: cancel}
	l.list = append(l.list, j)
	return j
}

func (l *longJobs) remove(j *longJob) {
	for i, x := range l.list {
		if x == j {
			l.list = append(l.list[:i], l.list[i+1:]...)
			return
		}
	}
}

// text is the status bar's progress: "validate ▰▰▱▱ 2/4".
func (l *longJobs) text() string {
	if len(l.list) == 0 {
		return ""
	}
	parts := make([]string, 0, len(l.list))
	for _, j := range l.list {
		parts = append(parts, fmt.Sprintf("%s %s %d/%d", j.name, miniBar(j.done, j.total, 8), j.done, j.total))
	}
	s := strings.Join(parts, " · ")
	if l.confirm {
		return s + " · ctrl+x again cancels " + l.list[len(l.list)-1].name
	}
	return s + " (ctrl+x cancels)"
}

// key handles ctrl+x: the first press asks, the second cancels the newest.
func (l *longJobs) key() tea.Cmd {
	if len(l.list) == 0 {
		return statusCmd("no long job to cancel", false)
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
	return statusCmd("cancelling "+j.name+"…", false)
}

// miniBar is a w-cell progress bar.
func miniBar(done, total, w int) string {
	if total <= 0 {
		return strings.Repeat("▱", w)
	}
	n := min(done*w/total, w)
	return strings.Repeat("▰", n) + strings.Repeat("▱", w-n)
}
