package app

import (
	"context"
	"fmt"
	"strings"

	"curate/pipeline"
	"curate/pipeline/statement"
	"curate/workspace"
)

// AddMissingRequirements writes the values id's tests check that its
// instruction does not give (its strict_tests) into the curator's
// statement, as a Requirements section: the generated one's lines plus
// the missing ones, or the missing lines added to the curator's own
// section. An undoable edit like any statement edit; the task must be
// validated again.
func AddMissingRequirements(ctx context.Context, ws *workspace.Workspace, actor, id string) ([]pipeline.Event, error) {
	t, err := ws.Store.Task(ctx, id)
	if err != nil {
		return nil, err
	}
	if err := curatable(t); err != nil {
		return nil, err
	}
	var missing []statement.Requirement
	seen := map[string]bool{}
	known := map[string]statement.Requirement{}
	for _, r := range TaskRequirements(t) {
		known[r.Value] = r
	}
	for _, s := range TaskStrictTests(t) {
		for _, v := range s.Values {
			if seen[v] {
				continue
			}
			seen[v] = true
			r, ok := known[v]
			if !ok {
				r = statement.Requirement{Value: v, Context: "value"}
			}
			missing = append(missing, r)
		}
	}
	if len(missing) == 0 {
		return nil, fmt.Errorf("%s: its tests check no value its statement leaves out (no strict_tests)", t.ID)
	}
	in, err := ReadStatementInput(ctx, t)
	if err != nil {
		return nil, err
	}
	text := t.Labels.Instruction
	if text == "" {
		text = GeneratedText(in)
	}
	// Values that name a hidden test or file stay out, as in the derived
	// section: dropping the test is the curator's other way.
	text = strings.TrimSpace(text)
	if sec := statement.RequirementsSection(missing, Hidden(in)); sec == "" {
		return nil, fmt.Errorf("%s: every value its tests check beyond the statement names a hidden test or file; drop the test instead", t.ID)
	} else if statement.HasRequirementsSection(text) {
		text += "\n" + sec[strings.Index(sec, "\n- ")+1:]
	} else {
		text += "\n\n" + statement.RequirementsSection(append(TaskRequirements(t), missing...), Hidden(in))
	}
	return SetInstruction(ctx, ws, actor, id, strings.TrimSpace(text))
}
