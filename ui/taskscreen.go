package ui

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/glamour"
	"github.com/muesli/termenv"

	"curate/pipeline"
	"curate/pipeline/sanitize"
	"curate/pipeline/taskdir"
)

// TaskScreen shows one task: metadata, score breakdown with its rules,
// the three difficulties, the instruction as Markdown, filter reasons,
// runs with staleness and the task's label history.
type TaskScreen struct {
	ctx    *Context
	w, h   int
	id     string
	data   *taskData
	lines  []string // the page, built in Update, sliced in View
	offset int
	label  labeler

	rendered map[string]string // glamour output by task, width and theme
}

type taskData struct {
	id          string
	runs        []*pipeline.Run
	events      []pipeline.Event
	instruction string // sanitized Markdown
	source      string // where it came from
	err         error
}

type taskDataMsg struct{ *taskData }

func (taskDataMsg) target() tabID { return tabTask }

type instructionMsg struct {
	key, text string
	err       error
}

func (instructionMsg) target() tabID { return tabTask }

// NewTaskScreen builds the screen; it loads when it is shown.
func NewTaskScreen(c *Context) *TaskScreen {
	return &TaskScreen{ctx: c, label: newLabeler(c), rendered: map[string]string{}}
}

func (s *TaskScreen) Title() string   { return "Task" }
func (s *TaskScreen) Init() tea.Cmd   { return nil }
func (s *TaskScreen) Capturing() bool { return s.label.active() }

func (s *TaskScreen) SetSize(w, h int) {
	s.w, s.h = w, h
	s.label.width = w
	s.build()
}

func (s *TaskScreen) ShortHelp() []key.Binding {
	return s.ctx.Keys.List("down", "up", "next_task", "prev_task", "easy", "exclude", "undo", "diff")
}

func (s *TaskScreen) FullHelp() [][]key.Binding {
	k := s.ctx.Keys
	return [][]key.Binding{k.List("up", "down", "page_up", "page_down", "top", "bottom", "next_task", "prev_task", "diff"), s.label.bindings()}
}

func (s *TaskScreen) task() *pipeline.Task { return s.ctx.Catalog.Task(s.id) }

// Update loads the current task when the screen is shown, takes keys, and
// takes the loaded data and rendered Markdown.
func (s *TaskScreen) Update(msg tea.Msg) tea.Cmd {
	switch m := msg.(type) {
	case currentMsg:
		if s.ctx.Active != tabTask || m.id == "" {
			return nil
		}
		if m.id == s.id && s.data != nil {
			return nil
		}
		s.id, s.data, s.offset = m.id, nil, 0
		s.build()
		return s.load()
	case catalogChangedMsg:
		if s.id == "" || s.ctx.Active != tabTask {
			return nil
		}
		s.build()
		return s.load() // new events and labels
	case resizedMsg:
		if s.ctx.Active == tabTask {
			return s.renderCmd() // Markdown wraps to the width (cached per width)
		}
		return nil
	case taskDataMsg:
		if m.id != s.id {
			return nil // an answer for a task the curator has left
		}
		s.data = m.taskData
		s.build()
		return s.renderCmd()
	case instructionMsg:
		if m.err == nil {
			s.rendered[m.key] = m.text
		}
		s.build()
		return nil
	case tea.MouseMsg:
		switch m.Button {
		case tea.MouseButtonWheelUp:
			s.scroll(-3)
		case tea.MouseButtonWheelDown:
			s.scroll(3)
		}
		return nil
	case tea.KeyMsg:
		return s.key(m)
	}
	return nil
}

func (s *TaskScreen) key(m tea.KeyMsg) tea.Cmd {
	if s.label.active() {
		_, cmd := s.label.handle(m, nil, false)
		return cmd
	}
	k := s.ctx.Keys
	switch {
	case k.Is(m, "down"):
		s.scroll(1)
	case k.Is(m, "up"):
		s.scroll(-1)
	case k.Is(m, "page_down"):
		s.scroll(s.h - 1)
	case k.Is(m, "page_up"):
		s.scroll(-(s.h - 1))
	case k.Is(m, "top"):
		s.offset = 0
	case k.Is(m, "bottom"):
		s.scroll(len(s.lines))
	case k.Is(m, "next_task"):
		return msgCmd(stepTaskMsg{1})
	case k.Is(m, "prev_task"):
		return msgCmd(stepTaskMsg{-1})
	case k.Is(m, "diff"):
		return msgCmd(openTaskMsg{s.id, tabDiff})
	default:
		if s.id != "" {
			_, cmd := s.label.handle(m, []string{s.id}, true)
			return cmd
		}
	}
	return nil
}

func (s *TaskScreen) scroll(d int) {
	s.offset = max(min(s.offset+d, len(s.lines)-s.h), 0)
}

// load reads runs, history and the instruction in the background.
func (s *TaskScreen) load() tea.Cmd {
	t := s.task()
	if t == nil || s.ctx.Store == nil {
		return nil
	}
	st, root, task := s.ctx.Store, s.ctx.Root, *t
	return s.ctx.job(func() tea.Msg {
		ctx := context.Background()
		d := &taskData{id: task.ID}
		if d.runs, d.err = st.Runs(ctx, task.ID); d.err != nil {
			return taskDataMsg{d}
		}
		if d.events, d.err = st.History(ctx, task.ID, 50); d.err != nil {
			return taskDataMsg{d}
		}
		full, err := st.Task(ctx, task.ID)
		if err != nil {
			d.err = err
			return taskDataMsg{d}
		}
		d.instruction, d.source = readInstruction(root, full)
		return taskDataMsg{d}
	})
}

// readInstruction is the task dir's instruction.md (capped, sanitized),
// else the task's body.
func readInstruction(root string, t *pipeline.Task) (text, source string) {
	if dir := taskDirPath(root, t); dir != "" {
		if p, err := taskdir.SafeJoin(dir, "instruction.md"); err == nil {
			if fi, err := os.Lstat(p); err == nil && fi.Mode().IsRegular() {
				if data, err := readCapped(p, 256<<10); err == nil {
					return sanitize.Text(string(data)), "instruction.md"
				}
			}
		}
	}
	return sanitize.Text(t.Body), "task body"
}

func taskDirPath(root string, t *pipeline.Task) string {
	if t.TaskDir == "" {
		return ""
	}
	if filepath.IsAbs(t.TaskDir) {
		return t.TaskDir
	}
	return filepath.Join(root, t.TaskDir)
}

func readCapped(path string, limit int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	buf := make([]byte, limit)
	n, err := f.Read(buf)
	if n == 0 && err != nil {
		return nil, err
	}
	for n < len(buf) && err == nil {
		var k int
		k, err = f.Read(buf[n:])
		n += k
	}
	return buf[:n], nil
}

func (s *TaskScreen) renderKey() string {
	return fmt.Sprintf("%s|%d|%s", s.id, s.w, s.ctx.Styles.Palette.Name)
}

// renderCmd renders the instruction with glamour off the UI goroutine,
// once per task, width and theme.
func (s *TaskScreen) renderCmd() tea.Cmd {
	if s.data == nil || s.data.instruction == "" {
		return nil
	}
	key := s.renderKey()
	if _, ok := s.rendered[key]; ok {
		return nil
	}
	text, width := s.data.instruction, max(s.w-4, 20)
	style, profile := s.ctx.Styles.Palette.Glamour, s.ctx.Styles.Profile
	if profile == termenv.Ascii {
		style = "notty"
	}
	return s.ctx.job(func() tea.Msg {
		r, err := glamour.NewTermRenderer(glamour.WithStandardStyle(style), glamour.WithWordWrap(width), glamour.WithColorProfile(profile))
		if err != nil {
			return instructionMsg{key: key, err: err}
		}
		out, err := r.Render(text)
		return instructionMsg{key: key, text: strings.TrimRight(out, "\n"), err: err}
	})
}
