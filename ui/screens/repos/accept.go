package repos

import (
	tea "github.com/charmbracelet/bubbletea"

	"curate/ui/shared"
)

// acceptEnv takes the selected repo's failed env check's failing tests
// as known failures (app.AcceptEnvFailures, as `curate env accept`), so
// R then mirrors its PRs whose tests do not touch them.
func (s *Model) acceptEnv() tea.Cmd {
	r := s.selected()
	accept := s.ctx.Services.AcceptEnvFailures
	switch {
	case r == nil:
		return shared.StatusCmd("no repository: mine one first (curate mine git PATH)", true)
	case accept == nil:
		return shared.StatusCmd("accepting an env check needs a workspace", true)
	}
	repo := r.name
	return s.ctx.Job(func() tea.Msg {
		st, err := accept(repo)
		return acceptedMsg{repo: repo, st: st, err: err}
	})
}

func (s *Model) accepted(m acceptedMsg) tea.Cmd {
	if m.err != nil {
		return shared.StatusCmd(m.err.Error(), true)
	}
	msg := m.repo + ": the env check's failing tests are accepted as known failures; R rebuilds so the PRs that do not touch them mirror onto the snapshot"
	return tea.Batch(shared.StatusCmd(msg, false), s.load())
}
