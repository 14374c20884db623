package pipeline

// Failure says why a run or a task is not a valid task, in words a curator
// can act on: one class, the log line that shows it, and a suggested
// `[repos."owner/name"]` line for curate.toml when one would help.
type Failure struct {
	Class      string `json:"class"`
	Evidence   string `json:"evidence,omitempty"`
	Suggestion string `json:"suggestion,omitempty"`
}

// Failure classes. Environment classes come first: they are what a
// curator can fix; no_fail_to_pass is a true negative, not a failure.
const (
	ClassDepsMissing       = "deps_missing"       // a module or package is not installed
	ClassDepsUnreachable   = "deps_unreachable"   // a registry did not answer
	ClassToolchainMismatch = "toolchain_mismatch" // the revision wants another toolchain
	ClassCompileError      = "compile_error"      // the code or its tests do not build
	ClassNoTestsCollected  = "no_tests_collected" // the runner started but found no test
	ClassOOM               = "oom"                // killed for memory
	ClassDiskLimit         = "disk_limit"         // stopped for writing more than [docker] max_disk
	ClassTimeout           = "timeout"
	ClassFlaky             = "flaky" // results differ across reruns
	// ClassUnstableTests: every test that would be FAIL_TO_PASS has an id
	// that changes between runs of one state, so none can be checked.
	ClassUnstableTests = "unstable_tests"
	ClassNopNotRun     = "nop_not_run"
	ClassFixFailsTests = "fix_fails_tests" // the suite ran; the reference fix does not pass it
	ClassInfraError    = "infra_error"     // the engine or machine failed, not the task
	ClassUnclassified  = "unclassified"    // no rule matched: read the log
	ClassNoFailToPass  = "no_fail_to_pass" // a true negative: the PR's tests pass before the fix
	// ClassPatchConflict is a build failure, not a run's: the PR's fix
	// does not reverse at the repository's snapshot (curate build --at
	// snapshot), named with its files and hunks.
	ClassPatchConflict = "patch_conflict"
)

// FailureClasses lists the classes in priority order: when a task's runs
// carry different classes, the first in this list names the task.
var FailureClasses = []string{
	ClassDepsUnreachable, ClassToolchainMismatch, ClassDepsMissing, ClassCompileError, ClassOOM,
	ClassDiskLimit, ClassNoTestsCollected, ClassTimeout, ClassFlaky, ClassUnstableTests, ClassNopNotRun, ClassFixFailsTests,
	ClassUnclassified, ClassInfraError, ClassPatchConflict, ClassNoFailToPass,
}

// ClassRank is a class's place in FailureClasses (unknown classes last).
func ClassRank(class string) int {
	for i, c := range FailureClasses {
		if c == class {
			return i
		}
	}
	return len(FailureClasses)
}

// WorstFailure picks the failure that names a task among its runs'.
func WorstFailure(fs []*Failure) *Failure {
	var best *Failure
	for _, f := range fs {
		if f != nil && f.Class != "" && (best == nil || ClassRank(f.Class) < ClassRank(best.Class)) {
			best = f
		}
	}
	return best
}
