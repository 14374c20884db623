// Package score extracts features, computes the MCP benefit score, the
// SDLC phase and the calibrated difficulty from a profile's rules.
package score

// Config is the profile's [score] section: SDLC phase map, weights,
// category weights, component rules, difficulty rules, language overrides.
// Every list of rules is first-match-wins, in file order.
type Config struct {
	// BenchmarkPrefixes are stripped from a task's benchmark before rules
	// compare it, so "ccb_tac" and "tac" both match benchmark = ["tac"].
	BenchmarkPrefixes []string `toml:"benchmark_prefixes"`
	// DefaultPhase is the phase of a task no phase rule matches.
	DefaultPhase string `toml:"default_phase"`
	// Weights of the four components in the MCP benefit score.
	Weights Weights `toml:"weights"`
	// CategoryWeights is the task_category_weight per category.
	CategoryWeights map[string]float64 `toml:"category_weights"`
	// BenchmarkCategoryWeights apply when a task has no category weight of
	// its own (a benchmark's default category).
	BenchmarkCategoryWeights map[string]float64 `toml:"benchmark_category_weights"`
	// DefaultCategoryWeight applies when neither map names the task.
	DefaultCategoryWeight float64 `toml:"default_category_weight"`
	// LanguageOverrides maps a repo ("owner/name" or just "name", any case)
	// to the language its tasks really are.
	LanguageOverrides map[string]string `toml:"language_overrides"`

	Phase                   []PhaseRule      `toml:"phase"`
	ContextComplexity       []ComponentRule  `toml:"context_complexity"`
	CrossFileDeps           []ComponentRule  `toml:"cross_file_deps"`
	SemanticSearchPotential []ComponentRule  `toml:"semantic_search_potential"`
	Difficulty              []DifficultyRule `toml:"difficulty"`
}

// Weights of the score's components; they should sum to 1.
type Weights struct {
	ContextComplexity       float64 `toml:"context_complexity"`
	CrossFileDeps           float64 `toml:"cross_file_deps"`
	SemanticSearchPotential float64 `toml:"semantic_search_potential"`
	TaskCategoryWeight      float64 `toml:"task_category_weight"`
}

// Match is when a rule applies. Every field given must hold: benchmark and
// category are lists of alternatives; has lists features that must be
// known; when lists conditions like "files_changed >= 4" (a condition on an
// unknown feature is false).
type Match struct {
	Name      string   `toml:"name"`
	Benchmark []string `toml:"benchmark"`
	Category  []string `toml:"category"`
	Has       []string `toml:"has"`
	When      []string `toml:"when"`
}

// PhaseRule maps matching tasks to an SDLC phase.
type PhaseRule struct {
	Match
	Phase string `toml:"phase"`
}

// ComponentRule computes one score component. With no feature the value is
// Value; with a feature (the rule then needs it known) it is
//
//	base + scale * clamp(feature / div, min, max)
//
// so "clamp(files/450, 0.1, 1)" is feature="source_files" div=450 min=0.1
// max=1, and "0.6 + 0.4*min(loc/500, 1)" is base=0.6 scale=0.4 div=500 max=1.
type ComponentRule struct {
	Match
	Value   *float64 `toml:"value"`
	Feature string   `toml:"feature"`
	Base    float64  `toml:"base"`
	Scale   *float64 `toml:"scale"`
	Div     *float64 `toml:"div"`
	Min     *float64 `toml:"min"`
	Max     *float64 `toml:"max"`
}

// DifficultyRule calibrates a difficulty label.
type DifficultyRule struct {
	Match
	Label string `toml:"label"`
}
