package task

import (
	"context"

	tea "github.com/charmbracelet/bubbletea"

	"curate/app"
	"curate/ui/shared"
)

// e edits the statement in $EDITOR through the operation `curate edit ID
// instruction` runs: the temp file is written in a job, the editor gets
// the terminal (tea.ExecProcess), and the saved text is applied in a job.

type editReadyMsg struct {
	ed  *app.InstructionEdit
	err error
}

type editorExitMsg struct {
	ed  *app.InstructionEdit
	err error
}

func (editReadyMsg) Target() shared.TabID  { return shared.TabTask }
func (editorExitMsg) Target() shared.TabID { return shared.TabTask }

func (s *Model) editInstruction() tea.Cmd {
	ws := s.ctx.Services.Workspace
	if ws == nil || s.id == "" {
		return shared.StatusCmd("no workspace: the statement cannot be edited here (curate edit ID instruction)", true)
	}
	id := s.id
	return s.ctx.Job(func() tea.Msg {
		ed, err := app.StartInstructionEdit(context.Background(), ws, id)
		return editReadyMsg{ed, err}
	})
}

func (s *Model) editUpdate(msg tea.Msg) tea.Cmd {
	switch m := msg.(type) {
	case editReadyMsg:
		if m.err != nil {
			return shared.StatusCmd("edit: "+m.err.Error(), true)
		}
		ed := m.ed
		return tea.ExecProcess(ed.Command(), func(err error) tea.Msg { return editorExitMsg{ed, err} })
	case editorExitMsg:
		if m.err != nil {
			m.ed.Discard()
			return shared.StatusCmd("editor: "+m.err.Error()+" (the statement is unchanged)", true)
		}
		st, actor, ed := s.ctx.Store, s.ctx.Actor, m.ed
		return s.ctx.Job(func() tea.Msg {
			ctx := context.Background()
			evs, err := ed.Apply(ctx, actor)
			msg := shared.LabelledMsg{Events: evs, Err: err, What: "statement"}
			if err == nil && len(evs) > 0 {
				t, err := st.Task(ctx, ed.ID)
				msg.Err = err
				if t != nil {
					msg.Tasks = append(msg.Tasks, t)
				}
			}
			return msg
		})
	}
	return nil
}
