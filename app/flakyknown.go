package app

import (
	"context"
	"slices"

	"curate/pipeline"
	"curate/pipeline/validate"
	"curate/pipeline/validate/parse"
)

// flakyKnownFailures are the tests that keep a task whose gold run found a
// FAIL_TO_PASS from being valid only because they changed status between
// repeats (a TLS test that hangs in one repeat and not the other: flaky),
// and the tests that fail after the fix and never passed before it
// (known). formats.md
// puts a flaky test in neither list; SWE-bench grades the lists alone.
// curate's test.sh runs the whole selection, so its reward would be as
// flaky as they are unless they are forgiven like known failures. nil
// when anything else is wrong: NOP must have passed (checked by the
// caller), the Oracle must have passed or failed only on these tests, and
// no test may pass before the fix and fail after it.
func flakyKnownFailures(ctx context.Context, root string, t *pipeline.Task, oracle, gold *pipeline.Run) (known, flaky []string) {
	if gold.Outcome != pipeline.OutcomeFlaky || len(gold.FailToPass) == 0 || len(gold.Flaky) == 0 {
		return nil, nil
	}
	m, err := GoldMatrix(ctx, root, t, gold)
	if err != nil {
		return nil, nil
	}
	for _, row := range m.Rows {
		buggy, fixed := row.Status[validate.StateBuggy], row.Status[validate.StateFixed]
		switch {
		case slices.Contains(gold.Flaky, row.Test), !allFail(fixed):
			continue
		case slices.ContainsFunc(buggy, parse.Status.Pass):
			return nil, nil // it passed before the fix: the fix breaks it
		}
		known = append(known, row.Test)
	}
	if oracle.Outcome != pipeline.OutcomeOK {
		failed := oracleFailures(root, t, oracle)
		if len(failed) == 0 {
			return nil, nil
		}
		for _, name := range failed {
			if !slices.Contains(known, name) && !slices.Contains(gold.Flaky, name) {
				return nil, nil
			}
		}
	}
	slices.Sort(known)
	return known, slices.Sorted(slices.Values(gold.Flaky))
}
