package pipeline

import "time"

// The phases whose machine time curate records (`curate funnel --timing`).
const (
	TimeMine      = "mine"       // mining a repository's merged PRs
	TimeEnvCheck  = "env_check"  // running the suite at the snapshot
	TimeRepoImage = "repo_image" // building a repository environment image
	TimeTaskLayer = "task_layer" // building a task's own layer (or its whole image)
	TimeRuns      = "runs"       // NOP, Oracle and gold executions
)

// TimedPhases in the order the pipeline runs them.
var TimedPhases = []string{TimeMine, TimeEnvCheck, TimeRepoImage, TimeTaskLayer, TimeRuns}

// PhaseTime is the machine time one piece of work took: a mine, an
// environment check, an image build, a run's executions. CPU is the
// CPU time of the processes that did it, as the kernel accounted it;
// CPUMeasured is false where nothing could account it (docs/funnel.md
// says where each figure comes from).
type PhaseTime struct {
	Phase       string        `json:"phase"`
	Repo        string        `json:"repo,omitempty"`
	TaskID      string        `json:"task_id,omitempty"`
	RunID       string        `json:"run_id,omitempty"`
	Wall        time.Duration `json:"wall"`
	CPU         time.Duration `json:"cpu"`
	CPUMeasured bool          `json:"cpu_measured"`
	At          time.Time     `json:"at"`
}
