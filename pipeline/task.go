// Package pipeline holds the domain types every stage shares. Stages live in
// sub-packages (source, patch, filter, envgen, validate, score, selection,
// export, profiles) and depend on this package only; nothing here does I/O.
package pipeline

import "time"

// Task is one benchmark task or mined candidate: the unit a curator judges.
// Computed values (phase, score, calibrated difficulty) are kept apart from
// the curator's labels so a re-score never overwrites a human decision.
type Task struct {
	ID        string `json:"id"`
	Benchmark string `json:"benchmark"`
	// Source says where the task came from: harbor, swebench, manifest, git,
	// github or demo; SourcePath is the file or folder it was read from.
	Source     string `json:"source"`
	SourcePath string `json:"source_path,omitempty"`

	Repo       string `json:"repo"`
	PR         int    `json:"pr,omitempty"`
	BaseCommit string `json:"base_commit,omitempty"`
	HeadCommit string `json:"head_commit,omitempty"`
	Title      string `json:"title,omitempty"`
	Body       string `json:"body,omitempty"`
	// Language is the primary language, or a comma list ("python,cpp") for
	// tasks that genuinely span languages, as seed 000 reports them.
	Language string `json:"language"`
	Category string `json:"category"`

	// SDLCPhase is the computed phase and PhaseRule the rule that chose it.
	SDLCPhase string `json:"sdlc_phase_computed"`
	PhaseRule string `json:"phase_rule,omitempty"`

	Features  Features       `json:"features"`
	Score     float64        `json:"mcp_benefit_score"`
	Breakdown ScoreBreakdown `json:"mcp_breakdown"`

	DifficultyImported   Difficulty `json:"difficulty_imported"`
	DifficultyCalibrated Difficulty `json:"difficulty_calibrated"`
	DifficultyRule       string     `json:"difficulty_rule,omitempty"`

	Labels Labels `json:"labels"`

	Status  Status   `json:"status"`
	Reasons []string `json:"reasons,omitempty"`
	// Failure says why validation found the task invalid (nil otherwise).
	Failure *Failure `json:"failure,omitempty"`

	TaskDir string `json:"task_dir,omitempty"`
	Digest  string `json:"digest,omitempty"`

	// Extra keeps source fields the product does not model (unknown task.toml
	// keys, SWE-bench columns) so nothing is lost on a round trip.
	Extra map[string]any `json:"extra,omitempty"`

	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
}

// Labels are the curator's decisions. Each change is an event in the store.
type Labels struct {
	Difficulty    Difficulty `json:"difficulty,omitempty"`
	Phase         string     `json:"phase,omitempty"`
	Category      string     `json:"category,omitempty"`
	Note          string     `json:"note,omitempty"`
	Excluded      bool       `json:"excluded"`
	ExcludeReason string     `json:"exclude_reason,omitempty"`
	Pinned        bool       `json:"pinned"`

	// The human review (see review.go); "" means not reviewed.
	Underspecified string `json:"underspecified,omitempty"`
	FalseNegative  string `json:"false_negative,omitempty"`
	FixTime        string `json:"fix_time,omitempty"`
	ReviewComment  string `json:"review_comment,omitempty"`
	Reviewer       string `json:"reviewer,omitempty"`

	// Instruction is the curator's problem statement ("" = generated);
	// TestsDropped the tests a curator took out of FAIL_TO_PASS and
	// PASS_TO_PASS, as JSON (see DroppedTests).
	Instruction  string `json:"instruction,omitempty"`
	TestsDropped string `json:"tests_dropped,omitempty"`
}

// EffectiveDifficulty is the curator's label when set, else the calibrated
// value, else what the source said.
func (t *Task) EffectiveDifficulty() Difficulty {
	switch {
	case t.Labels.Difficulty != "":
		return t.Labels.Difficulty
	case t.DifficultyCalibrated != "":
		return t.DifficultyCalibrated
	default:
		return t.DifficultyImported
	}
}

// Phase is the curator's phase label when set, else the computed phase.
func (t *Task) Phase() string {
	if t.Labels.Phase != "" {
		return t.Labels.Phase
	}
	return t.SDLCPhase
}

// EffectiveCategory is the curator's category label when set.
func (t *Task) EffectiveCategory() string {
	if t.Labels.Category != "" {
		return t.Labels.Category
	}
	return t.Category
}

// Status is where a task stands in the pipeline.
type Status string

const (
	StatusCandidate Status = "candidate" // mined, filter passed or not yet run
	StatusRejected  Status = "rejected"  // a filter or check failed; see Reasons
	StatusImported  Status = "imported"  // read from an existing benchmark
	StatusBuilt     Status = "built"     // a Harbor task dir exists
	StatusValid     Status = "valid"     // validation passed on the current digest
	StatusInvalid   Status = "invalid"   // validation failed on the current digest
)

// Statuses lists every status in pipeline order.
var Statuses = []Status{StatusCandidate, StatusRejected, StatusImported, StatusBuilt, StatusValid, StatusInvalid}
