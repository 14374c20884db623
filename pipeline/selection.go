package pipeline

import "time"

// Quota bounds how many selected tasks have a given value of a dimension.
// Counts and shares are alternatives: a share is of the total budget.
type Quota struct {
	Dimension string   `json:"dimension" toml:"dimension"` // sdlc_phase, language, benchmark, difficulty, repo, category
	Value     string   `json:"value" toml:"value"`
	Min       *int     `json:"min,omitempty" toml:"min,omitempty"`
	Max       *int     `json:"max,omitempty" toml:"max,omitempty"`
	Target    *int     `json:"target,omitempty" toml:"target,omitempty"`
	MinShare  *float64 `json:"min_share,omitempty" toml:"min_share,omitempty"`
	MaxShare  *float64 `json:"max_share,omitempty" toml:"max_share,omitempty"`
	// Remove, in curate.toml, drops the profile's quota on the same
	// dimension and value (it carries no bounds).
	Remove bool `json:"remove,omitempty" toml:"remove,omitempty"`
}

// SelectedTask is a chosen task with the rule that chose it.
type SelectedTask struct {
	TaskID    string `json:"task_id"`
	Rationale string `json:"rationale"`
	Rank      int    `json:"rank"`
}

// Selection is a named snapshot of a chosen set with its config and stats.
type Selection struct {
	Name      string         `json:"name"`
	CreatedAt time.Time      `json:"created_at"`
	Source    string         `json:"source"` // "solver" or "manifest:<path>"
	Config    map[string]any `json:"config,omitempty"`
	Stats     map[string]any `json:"stats,omitempty"`
	Tasks     []SelectedTask `json:"tasks"`
}
