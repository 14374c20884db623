// Package task is the Task screen: one task's metadata, score, runs,
// history and instruction.
package task

import (
	"context"
	"fmt"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/muesli/termenv"

	"curate/pipeline"
	"curate/ui/components/form"
	"curate/ui/components/scroller"
	"curate/ui/shared"
)

// Model shows one task: metadata, score breakdown with its rules,
// the three difficulties, the instruction as Markdown, filter reasons,
// runs with staleness and the task's label history.
type Model struct {
	ctx    *shared.Context
	w, h   int
	id     string
	data   *taskData
	lines  []string // the page, built in Update, sliced in View
	scroll scroller.Model
	label  form.Labeler
	// queue is the review queue mode: a saved review moves on to the next
	// unreviewed valid task with the form open again.
	queue bool
	// drop is the open form that drops FAIL_TO_PASS tests (D), or nil.
	drop *dropForm

	rendered map[string][]string // the instruction's rows by task, width and theme
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

func (taskDataMsg) Target() shared.TabID { return shared.TabTask }

type instructionMsg struct {
	key  string
	rows []string
	err  error
}

func (instructionMsg) Target() shared.TabID { return shared.TabTask }

// New builds the screen; it loads when it is shown.
func New(c *shared.Context) *Model {
	s := &Model{ctx: c, label: form.NewLabeler(c), rendered: map[string][]string{}}
	s.label.AfterReview = s.afterReview
	return s
}

func (s *Model) Title() string   { return "Task" }
func (s *Model) Init() tea.Cmd   { return nil }
func (s *Model) Capturing() bool { return s.label.Active() || s.drop != nil }

func (s *Model) SetSize(w, h int) {
	s.w, s.h = w, h
	s.label.Width = w
	s.build()
}

func (s *Model) ShortHelp() []key.Binding {
	return s.ctx.Keys.List("down", "up", "next_task", "prev_task", "edit_instruction", "drop_tests", "add_requirements", "easy", "exclude", "review", "review_queue", "undo", "diff")
}

func (s *Model) FullHelp() [][]key.Binding {
	k := s.ctx.Keys
	return [][]key.Binding{k.List("up", "down", "page_up", "page_down", "top", "bottom", "next_task", "prev_task", "diff", "review_queue", "edit_instruction", "drop_tests"), s.label.Bindings()}
}

func (s *Model) task() *pipeline.Task { return s.ctx.Catalog.Task(s.id) }

// Update loads the current task when the screen is shown, takes keys, and
// takes the loaded data and rendered Markdown.
func (s *Model) Update(msg tea.Msg) tea.Cmd {
	switch m := msg.(type) {
	case shared.CurrentMsg:
		if s.ctx.Active != shared.TabTask || m.ID == "" {
			return nil
		}
		if m.ID == s.id && s.data != nil {
			return nil
		}
		s.id, s.data, s.scroll, s.drop = m.ID, nil, scroller.Model{}, nil
		s.build()
		return s.load()
	case shared.CatalogChangedMsg:
		if s.id == "" || s.ctx.Active != shared.TabTask {
			return nil
		}
		s.build()
		return s.load() // new events and labels
	case shared.ResizedMsg:
		if s.ctx.Active == shared.TabTask {
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
			s.rendered[m.key] = m.rows
		}
		s.build()
		return nil
	case tea.MouseMsg:
		switch m.Button {
		case tea.MouseButtonWheelUp:
			s.scrollBy(-3)
		case tea.MouseButtonWheelDown:
			s.scrollBy(3)
		}
		return nil
	case editReadyMsg, editorExitMsg:
		return s.editUpdate(m)
	case queueNextMsg:
		if !s.queue {
			return nil
		}
		return s.queueStep(m.done, false, m.done)
	case tea.KeyMsg:
		return s.key(m)
	}
	return nil
}

func (s *Model) key(m tea.KeyMsg) tea.Cmd {
	if s.label.Active() {
		_, cmd := s.label.Handle(m, nil, false)
		return cmd
	}
	if s.drop != nil {
		return s.dropKey(m)
	}
	k := s.ctx.Keys
	switch {
	case k.Is(m, "down"):
		s.scrollBy(1)
	case k.Is(m, "up"):
		s.scrollBy(-1)
	case k.Is(m, "page_down"):
		s.scrollBy(s.h - 1)
	case k.Is(m, "page_up"):
		s.scrollBy(-(s.h - 1))
	case k.Is(m, "top"):
		s.scroll.Offset = 0
	case k.Is(m, "bottom"):
		s.scrollBy(len(s.lines))
	case k.Is(m, "next_task"):
		return shared.MsgCmd(shared.StepTaskMsg{Delta: 1})
	case k.Is(m, "prev_task"):
		return shared.MsgCmd(shared.StepTaskMsg{Delta: -1})
	case k.Is(m, "edit_instruction"):
		return s.editInstruction()
	case k.Is(m, "drop_tests"):
		return s.openDrop()
	case k.Is(m, "add_requirements"):
		return s.addRequirements()
	case k.Is(m, "diff"):
		return shared.MsgCmd(shared.OpenTaskMsg{ID: s.id, Tab: shared.TabDiff})
	case k.Is(m, "review_queue"):
		if s.queue {
			s.queue = false
			s.build()
			return shared.StatusCmd("review queue: left", false)
		}
		s.queue = true
		return s.queueStep(s.id, true, "")
	default:
		if s.id != "" {
			_, cmd := s.label.Handle(m, []string{s.id}, true)
			return cmd
		}
	}
	return nil
}

func (s *Model) scrollBy(d int) { s.scroll.ScrollBy(d, len(s.lines), s.h) }

// load reads runs, history and the instruction in the background.
func (s *Model) load() tea.Cmd {
	t := s.task()
	if t == nil || s.ctx.Store == nil {
		return nil
	}
	st, root, task := s.ctx.Store, s.ctx.Root, *t
	return s.ctx.Job(func() tea.Msg {
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

func (s *Model) renderKey() string {
	return fmt.Sprintf("%s|%d|%s", s.id, s.w, s.ctx.Styles.Palette.Name)
}

// renderCmd lays the instruction out off the UI goroutine, once per
// task, width and theme (see renderInstruction).
func (s *Model) renderCmd() tea.Cmd {
	if s.data == nil || s.data.instruction == "" {
		return nil
	}
	key := s.renderKey()
	if _, ok := s.rendered[key]; ok {
		return nil
	}
	text, width := s.data.instruction, s.instructionWidth()
	style, profile := s.ctx.Styles.Palette.Glamour, s.ctx.Styles.Profile
	if profile == termenv.Ascii {
		style = "notty"
	}
	return s.ctx.Job(func() tea.Msg {
		rows, err := renderInstruction(text, width, style, profile)
		return instructionMsg{key: key, rows: rows, err: err}
	})
}
