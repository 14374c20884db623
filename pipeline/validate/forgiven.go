package validate

import (
	"fmt"
	"slices"

	"curate/pipeline"
)

// leaveOutKnown applies the task's known failures (Job.LeftOut) to a
// gold run: they are in neither list, and a run flaky only on them is
// settled. The known failures include the tests an earlier gold run found
// flaky (app.adoptKnownFailures), not the curator's drops (RecordResults
// keeps those as dropped): formats.md puts a flaky test in neither list,
// test.sh no longer lets it decide the reward, and the FAIL_TO_PASS that
// never changed make the task valid. Such a test may pass in every run of
// the fixed state and fail (hang) in the buggy one; it is still no
// FAIL_TO_PASS. A flaky test the task does not list keeps it flaky.
func leaveOutKnown(run *pipeline.Run, leftOut []string) {
	known := map[string]bool{}
	for _, n := range leftOut {
		known[n] = true
	}
	switch {
	case len(known) == 0, run.Failure != nil:
		return
	case run.Outcome == pipeline.OutcomeFlaky && len(run.Flaky) == 0:
		return // the repeats differ in outcome or reward, not in a test
	case run.Outcome != pipeline.OutcomeOK && run.Outcome != pipeline.OutcomeFlaky:
		return
	}
	keep := func(names []string) []string {
		return slices.DeleteFunc(slices.Clone(names), func(n string) bool { return known[n] })
	}
	f2p, p2p := keep(run.FailToPass), keep(run.PassToPass)
	listed := len(run.FailToPass) + len(run.PassToPass) - len(f2p) - len(p2p)
	unlisted := slices.ContainsFunc(run.Flaky, func(n string) bool { return !known[n] })
	if listed == 0 && (run.Outcome == pipeline.OutcomeOK || unlisted) {
		return
	}
	run.FailToPass, run.PassToPass = f2p, p2p
	switch {
	case unlisted:
		return
	case len(f2p) == 0:
		run.Outcome = pipeline.OutcomeFlaky
		run.Detail = "every test that fails before the fix and passes after it is one the task leaves out of its reward (flaky or a known failure)"
	default:
		run.Outcome = pipeline.OutcomeOK
		run.Detail = fmt.Sprintf("%d FAIL_TO_PASS, %d PASS_TO_PASS; left out as the task's known failures: %d flaky here, %d more that would be in a list",
			len(f2p), len(p2p), len(run.Flaky), listed)
	}
}
