package task

import (
	"context"
	"strings"

	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"

	"curate/app"
	"curate/pipeline"
	"curate/ui/components/form"
	"curate/ui/components/frame"
	"curate/ui/shared"
)

// D drops tests from the task's FAIL_TO_PASS through the operation
// `curate edit ID tests --drop NAME --reason WHY` runs: the curator
// marks tests with space, types the reason, and enter applies it in a
// job (the task is rebuilt and waits for validation; u undoes it).

// dropRows is how many tests the form shows at once.
const dropRows = 8

type dropForm struct {
	id     string
	tests  []string
	marked map[string]bool
	cursor int
	reason textinput.Model
	typing bool // the reason has the keys
}

func (s *Model) openDrop() tea.Cmd {
	t := s.task()
	if t == nil {
		return nil
	}
	f2p := pipeline.ExtraStrings(t, "FAIL_TO_PASS")
	if len(f2p) == 0 {
		return shared.StatusCmd("no FAIL_TO_PASS tests to drop: validate the task first", true)
	}
	in := form.NewInput()
	in.Prompt = "Reason: "
	in.Placeholder = "environment-dependent, over-specified, ..."
	in.Width = max(s.w-len(in.Prompt)-2, 10)
	s.drop = &dropForm{id: t.ID, tests: f2p, marked: map[string]bool{}, reason: in}
	return nil
}

func (s *Model) dropKey(m tea.KeyMsg) tea.Cmd {
	f := s.drop
	switch m.String() {
	case "esc":
		s.drop = nil
		return shared.StatusCmd("drop: cancelled, nothing changed", false)
	case "tab", "shift+tab":
		f.typing = !f.typing
		if f.typing {
			return f.reason.Focus()
		}
		f.reason.Blur()
		return nil
	case "enter":
		if !f.typing {
			f.typing = true
			return f.reason.Focus()
		}
		return s.applyDrop()
	}
	if f.typing {
		var cmd tea.Cmd
		f.reason, cmd = f.reason.Update(m)
		return cmd
	}
	switch m.String() {
	case "down", "j":
		f.cursor = min(f.cursor+1, len(f.tests)-1)
	case "up", "k":
		f.cursor = max(f.cursor-1, 0)
	case " ", "space", "x":
		name := f.tests[f.cursor]
		f.marked[name] = !f.marked[name]
	}
	return nil
}

// applyDrop runs app.DropTests in a job; the form stays open on a
// refusal the curator can fix (no test marked, no reason).
func (s *Model) applyDrop() tea.Cmd {
	f := s.drop
	var names []string
	for _, n := range f.tests {
		if f.marked[n] {
			names = append(names, n)
		}
	}
	reason := strings.TrimSpace(f.reason.Value())
	switch {
	case len(names) == 0:
		f.typing = false
		f.reason.Blur()
		return shared.StatusCmd("drop: mark the tests to drop with space first", true)
	case reason == "":
		return shared.StatusCmd("drop: say why (environment-dependent, over-specified, ...)", true)
	}
	ws := s.ctx.Services.Workspace
	if ws == nil {
		return shared.StatusCmd("no workspace: tests cannot be dropped here (curate edit ID tests --drop NAME --reason WHY)", true)
	}
	s.drop = nil
	return s.editJob("drop tests", f.id, func(ctx context.Context, actor string) ([]pipeline.Event, error) {
		return app.DropTests(ctx, ws, actor, f.id, "FAIL_TO_PASS", names, reason)
	})
}

// editJob runs a curation edit of task id in a job and sends the events
// with the task as stored after it, as a label does.
func (s *Model) editJob(what, id string, edit func(ctx context.Context, actor string) ([]pipeline.Event, error)) tea.Cmd {
	st, actor := s.ctx.Store, s.ctx.Actor
	return s.ctx.Job(func() tea.Msg {
		ctx := context.Background()
		evs, err := edit(ctx, actor)
		msg := shared.LabelledMsg{Events: evs, Err: err, What: what}
		if err == nil {
			t, err := st.Task(ctx, id)
			msg.Err = err
			if t != nil {
				msg.Tasks = append(msg.Tasks, t)
			}
		}
		return msg
	})
}

// dropView draws the open form: the tests with their marks, the reason.
func (s *Model) dropView(w int) string {
	f, st := s.drop, s.ctx.Styles
	var b strings.Builder
	b.WriteString(st.Title.Render(frame.Truncate("Drop FAIL_TO_PASS tests of "+frame.CleanLine(f.id), w)) + "\n")
	from := max(0, min(f.cursor-dropRows/2, len(f.tests)-dropRows))
	for i := from; i < len(f.tests) && i < from+dropRows; i++ {
		mark := "[ ]"
		if f.marked[f.tests[i]] {
			mark = "[x]"
		}
		line := frame.Truncate(mark+" "+frame.CleanLine(f.tests[i]), max(w-2, 10))
		if i == f.cursor && !f.typing {
			b.WriteString(st.Cursor.Render("> "+line) + "\n")
		} else {
			b.WriteString("  " + line + "\n")
		}
	}
	b.WriteString(f.reason.View() + "\n")
	help := "space marks · tab/enter: the reason · esc cancels"
	if f.typing {
		help = "enter drops the marked tests (rebuilt, validate again; u undoes) · tab: the tests · esc cancels"
	}
	b.WriteString(st.Muted.Render(frame.Truncate(help, w)))
	return b.String()
}
