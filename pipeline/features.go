package pipeline

// Feature names. Rules in profiles refer to features by these names, so a new
// benchmark can use any feature an importer records without Go changes.
const (
	FeatFilesChanged    = "files_changed"    // files in the solution patch
	FeatLOCChanged      = "loc_changed"      // added + removed lines of the solution
	FeatLinesAdded      = "lines_added"      // added lines of the solution
	FeatLinesRemoved    = "lines_removed"    // removed lines of the solution
	FeatContextLength   = "context_length"   // tokens of context the task needs
	FeatFilesCount      = "files_count"      // files the task spans (metadata)
	FeatSourceFiles     = "source_files"     // source files in the target repo
	FeatTestFiles       = "test_files"       // test files touched
	FeatCodeRatio       = "code_ratio"       // repoqa code density
	FeatRepoCount       = "repo_count"       // repositories a task spans
	FeatCodebaseLOC     = "codebase_loc"     // lines of code in the target codebase(s)
	FeatBaselineRuntime = "baseline_runtime" // seconds the unoptimised code runs (sweperf)
)

// Features are numeric task properties with where each was read from.
type Features struct {
	Values  map[string]float64 `json:"values,omitempty"`
	Sources map[string]string  `json:"sources,omitempty"`
}

// Get returns a feature and whether it is known.
func (f Features) Get(name string) (float64, bool) {
	v, ok := f.Values[name]
	return v, ok
}

// Int returns a feature as an int, 0 when unknown.
func (f Features) Int(name string) int { return int(f.Values[name]) }

// Set records a feature and its source ("solution/fix.patch", "task.toml", ...).
func (f *Features) Set(name string, v float64, source string) {
	if f.Values == nil {
		f.Values = map[string]float64{}
	}
	if f.Sources == nil {
		f.Sources = map[string]string{}
	}
	f.Values[name] = v
	f.Sources[name] = source
}

// ScoreBreakdown is the MCP benefit score's four components and the rule
// that produced each, so the curator can see why a task scores what it does.
type ScoreBreakdown struct {
	ContextComplexity       float64           `json:"context_complexity"`
	CrossFileDeps           float64           `json:"cross_file_deps"`
	SemanticSearchPotential float64           `json:"semantic_search_potential"`
	TaskCategoryWeight      float64           `json:"task_category_weight"`
	Rules                   map[string]string `json:"rules,omitempty"`
}
