package task

import (
	"context"

	tea "github.com/charmbracelet/bubbletea"

	"curate/app"
	"curate/pipeline"
	"curate/pipeline/statement"
	"curate/themes"
	"curate/ui/components/frame"
	"curate/ui/shared"
)

// checkedRows are the values the FAIL_TO_PASS test id checks: each
// requirement the instruction gives, then each value it does not give
// (the strict_tests flag) marked so a curator can add it or drop the test.
func checkedRows(id string, reqs []statement.Requirement, strict []statement.StrictTest, st *themes.Styles) []string {
	var out []string
	for _, r := range reqs {
		for _, t := range r.Tests {
			if statement.MatchesTest(id, t) {
				out = append(out, st.Muted.Render("    checks "+frame.CleanLine(quoted(r.Value))))
				break
			}
		}
	}
	for _, s := range strict {
		if s.Test == "" || !statement.MatchesTest(id, s.Test) {
			continue
		}
		for _, v := range s.Values {
			out = append(out, st.Bad.Render("    checks "+frame.CleanLine(quoted(v))+", not in the statement"))
		}
	}
	return out
}

func quoted(v string) string { return "`" + v + "`" }

// addRequirements runs app.AddMissingRequirements (`curate edit ID
// requirements`) in a job: the values the tests check that the statement
// leaves out join its Requirements section.
func (s *Model) addRequirements() tea.Cmd {
	t := s.task()
	if t == nil {
		return nil
	}
	if len(app.TaskStrictTests(t)) == 0 {
		return shared.StatusCmd("requirements: the statement gives every value the tests check (no strict_tests)", false)
	}
	ws := s.ctx.Services.Workspace
	if ws == nil {
		return shared.StatusCmd("no workspace: the statement cannot be edited here (curate edit ID requirements)", true)
	}
	return s.editJob("add requirements", t.ID, func(ctx context.Context, actor string) ([]pipeline.Event, error) {
		return app.AddMissingRequirements(ctx, ws, actor, t.ID)
	})
}
