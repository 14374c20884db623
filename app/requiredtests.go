package app

import (
	"context"
	"slices"

	"curate/pipeline"
	"curate/pipeline/validate"
	"curate/pipeline/validate/parse"
	"curate/workspace"
)

// Gold counts a test missing before the fix as failing (formats.md): a
// bug that compiles the PR's new test out leaves NOP's test.sh nothing to
// fail on, so NOP scores 1 while gold finds FAIL_TO_PASS. test.sh must
// grade as gold does, so curate records those tests as required
// (pipeline.ExtraRequiredTests), rebuilds the task so test.sh fails
// unless each is reported passed, and validates it again, once.

// requiredTestsOf are the FAIL_TO_PASS tests of t's gold run when gold
// read them from the report test.sh writes (ctrf.json), the report test.sh
// can check them in; nil otherwise.
func requiredTestsOf(ctx context.Context, root string, t *pipeline.Task, gold *pipeline.Run) []string {
	if gold == nil || len(gold.FailToPass) == 0 {
		return nil
	}
	m, err := GoldMatrix(ctx, root, t, gold)
	if err != nil || m.Format != "ctrf.json" {
		return nil
	}
	return slices.Sorted(slices.Values(gold.FailToPass))
}

// missingBeforeTheFix says whether some FAIL_TO_PASS test of gold was
// reported in no run of the buggy state.
func missingBeforeTheFix(ctx context.Context, root string, t *pipeline.Task, gold *pipeline.Run) bool {
	m, err := GoldMatrix(ctx, root, t, gold)
	if err != nil {
		return false
	}
	for _, row := range m.Rows {
		if !slices.Contains(gold.FailToPass, row.Test) {
			continue
		}
		if !slices.ContainsFunc(row.Status[validate.StateBuggy], func(s parse.Status) bool { return s != "" }) {
			return true
		}
	}
	return false
}

// adoptRequiredTests records the required tests of the tasks runs
// validated whose NOP passed while gold found FAIL_TO_PASS tests missing
// before the fix, and which have none yet, and returns those tasks (Extra
// set, not yet stored: their rebuild stores them).
func adoptRequiredTests(ctx context.Context, ws *workspace.Workspace, runs []*pipeline.Run) ([]*pipeline.Task, error) {
	var out []*pipeline.Task
	unrequired := func(t *pipeline.Task) bool { return len(pipeline.ExtraStrings(t, pipeline.ExtraRequiredTests)) == 0 }
	err := eachInvalidTask(ctx, ws, runs, unrequired, func(t *pipeline.Task, latest map[string]*pipeline.Run) error {
		nop, gold := latest[pipeline.ModeNop], latest[pipeline.ModeGold]
		if nop == nil || nop.Outcome != pipeline.OutcomeNopPassed || gold == nil || gold.Outcome != pipeline.OutcomeOK {
			return nil
		}
		required := requiredTestsOf(ctx, ws.Root, t, gold)
		if len(required) == 0 || !missingBeforeTheFix(ctx, ws.Root, t, gold) {
			return nil
		}
		if t.Extra == nil {
			t.Extra = map[string]any{}
		}
		t.Extra[pipeline.ExtraRequiredTests] = required
		if env, _ := EnvDigest(ws.Root, t); env != "" {
			t.Extra[pipeline.ExtraKnownFailuresEnv] = env
		}
		out = append(out, t)
		return nil
	})
	return out, err
}
