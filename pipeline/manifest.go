package pipeline

// Manifest is selected_benchmark_tasks.json, version "1.0" (formats.md
// §4): what export writes and import reads.
type Manifest struct {
	Metadata    ManifestMetadata    `json:"metadata"`
	Methodology ManifestMethodology `json:"methodology"`
	Statistics  ManifestStatistics  `json:"statistics"`
	Tasks       []ManifestTask      `json:"tasks"`
}

// ManifestMetadata heads the manifest.
type ManifestMetadata struct {
	Title          string `json:"title"`
	Version        string `json:"version"`
	GeneratedBy    string `json:"generated_by"`
	RandomSeed     int    `json:"random_seed"`
	TotalAvailable int    `json:"total_available"`
	TotalSelected  int    `json:"total_selected"`
}

// ManifestMethodology records how the set was chosen.
type ManifestMethodology struct {
	Description       string             `json:"description"`
	SDLCPhases        []string           `json:"sdlc_phases"`
	MCPScoringWeights map[string]float64 `json:"mcp_scoring_weights"`
	SelectionTargets  map[string]any     `json:"selection_targets"`
}

// ManifestStatistics are the selection's counts.
type ManifestStatistics struct {
	TasksPerSDLCPhase  map[string]int `json:"tasks_per_sdlc_phase"`
	TasksPerBenchmark  map[string]int `json:"tasks_per_benchmark"`
	TasksPerLanguage   map[string]int `json:"tasks_per_language"`
	AvgMCPBenefitScore float64        `json:"avg_mcp_benefit_score"`
}

// ManifestTask is one selected task. Score and breakdown are pointers so
// an imported manifest can leave them out; export always sets them.
type ManifestTask struct {
	TaskID             string          `json:"task_id"`
	Benchmark          string          `json:"benchmark"`
	SDLCPhase          string          `json:"sdlc_phase"`
	Language           string          `json:"language"`
	Difficulty         string          `json:"difficulty"`
	Category           string          `json:"category"`
	Repo               string          `json:"repo"`
	MCPBenefitScore    *float64        `json:"mcp_benefit_score"`
	MCPBreakdown       *ScoreBreakdown `json:"mcp_breakdown"`
	SelectionRationale string          `json:"selection_rationale"`
	TaskDir            string          `json:"task_dir"`
	// Where the statement came from and its flags (absent for a task
	// built before statements were recorded).
	InstructionSource string   `json:"instruction_source,omitempty"`
	StatementFlags    []string `json:"statement_flags,omitempty"`
	// The curator's review (absent when not reviewed).
	ReviewColumns
}
