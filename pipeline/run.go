package pipeline

import "time"

// Outcome classifies a validation run. Every run stores one.
type Outcome string

const (
	OutcomePending       Outcome = "pending"
	OutcomeRunning       Outcome = "running"
	OutcomeOK            Outcome = "ok"
	OutcomeNopPassed     Outcome = "nop_passed"    // the tests do not catch the bug
	OutcomeNopNotRun     Outcome = "nop_not_run"   // NOP gave 0 but the test suite never ran
	OutcomeOracleFailed  Outcome = "oracle_failed" // the reference fix does not pass
	OutcomeRewardMissing Outcome = "reward_missing"
	OutcomeRewardInvalid Outcome = "reward_invalid"
	OutcomeBuildFailed   Outcome = "build_failed"
	OutcomeUnsupported   Outcome = "unsupported" // task.toml asks for what the runner cannot enforce
	OutcomeTimeout       Outcome = "timeout"
	OutcomeFlaky         Outcome = "flaky"
	OutcomeInfraError    Outcome = "infra_error"
	OutcomeOOM           Outcome = "oom"        // stopped by the container's memory limit
	OutcomeDiskLimit     Outcome = "disk_limit" // stopped for writing more than the disk cap
	OutcomeInterrupted   Outcome = "interrupted"
	OutcomeCancelled     Outcome = "cancelled"
)

// Finished reports whether the outcome is final.
func (o Outcome) Finished() bool { return o != OutcomePending && o != OutcomeRunning }

// Run is one validation of one task in one mode (nop, oracle, gold).
type Run struct {
	ID         string   `json:"id"`
	TaskID     string   `json:"task_id"`
	Mode       string   `json:"mode"`
	Attempt    int      `json:"attempt"`
	Outcome    Outcome  `json:"outcome"`
	Reward     *float64 `json:"reward,omitempty"`
	Digest     string   `json:"digest"` // task digest the run used; stale when it differs
	Detail     string   `json:"detail,omitempty"`
	FailToPass []string `json:"fail_to_pass,omitempty"`
	PassToPass []string `json:"pass_to_pass,omitempty"`
	Flaky      []string `json:"flaky,omitempty"`
	// Unstable lists test ids seen in one run of a state and not in its
	// repeat (a time, random value or address in the name): they are in
	// neither list, since no later run could match them.
	Unstable []string `json:"unstable,omitempty"`
	// Failure says why a finished run is not ok (nil when it is).
	Failure    *Failure `json:"failure,omitempty"`
	DockerHost string   `json:"docker_host,omitempty"`
	// Retry says how the run moved engines ("retried on B after A stopped
	// answering"); empty when it ran where it started.
	Retry      string    `json:"retry,omitempty"`
	Container  string    `json:"container,omitempty"`
	PID        int       `json:"pid,omitempty"` // process that owns the run, to detect crashes
	LogPath    string    `json:"log_path,omitempty"`
	StartedAt  time.Time `json:"started_at"`
	FinishedAt time.Time `json:"finished_at,omitempty"`
}

// Stale reports whether the run was made on other files than the task has now.
func (r *Run) Stale(currentDigest string) bool {
	return r.Digest != "" && currentDigest != "" && r.Digest != currentDigest
}
