package pipeline

// ExtraKnownFailures (Task.Extra) lists the tests that fail after the fix
// and never passed before it on the task's environment (a gold run found
// them: neither FAIL_TO_PASS nor PASS_TO_PASS, as SWE-bench leaves them
// out). The build writes them to KnownFailuresFile and test.sh does not
// let them decide the reward; `curate validate` records them (see
// app.adoptKnownFailures).
const ExtraKnownFailures = "known_failures"

// ExtraFlakyTests (Task.Extra) lists the tests whose status changed
// between repeats of one state in a gold run that still found a
// FAIL_TO_PASS: formats.md puts them in neither list, and they join the
// known failures so that they do not make test.sh's reward flaky.
const ExtraFlakyTests = "flaky_tests"

// ExtraKnownFailuresEnv (Task.Extra) is the environment digest
// (validate.EnvDigest) the known failures and flaky tests were measured
// on: a rebuild that changes the environment makes them stale, and they
// are measured again.
const ExtraKnownFailuresEnv = "known_failures_env"

// KnownFailuresFile is where a built task lists ExtraKnownFailures, one
// per line, relative to the task directory.
const KnownFailuresFile = "tests/known_failures.txt"

// KnownFailures is the task's ExtraKnownFailures, its ExtraFlakyTests and
// the tests a curator dropped: none decides the reward.
func KnownFailures(t *Task) []string {
	out := MeasuredKnownFailures(t)
	for _, d := range t.Labels.DroppedTests() {
		if !containsString(out, d.Test) {
			out = append(out, d.Test)
		}
	}
	return out
}

// MeasuredKnownFailures is the task's ExtraKnownFailures and
// ExtraFlakyTests: what gold runs found, which a gold run leaves out of
// both lists. A curator's drops are not among them: gold still reports
// those, so that the lists keep them as dropped (FAIL_TO_PASS_dropped)
// and an undo can give them back.
func MeasuredKnownFailures(t *Task) []string {
	out := append([]string(nil), ExtraStrings(t, ExtraKnownFailures)...)
	for _, f := range ExtraStrings(t, ExtraFlakyTests) {
		if !containsString(out, f) {
			out = append(out, f)
		}
	}
	return out
}

func containsString(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// ExtraStrings reads a string list from t.Extra[key], fresh ([]string) or
// decoded from the store ([]any of strings).
func ExtraStrings(t *Task, key string) []string {
	switch l := t.Extra[key].(type) {
	case []string:
		return l
	case []any:
		out := make([]string, 0, len(l))
		for _, x := range l {
			if s, ok := x.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}
