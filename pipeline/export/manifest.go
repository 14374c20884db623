package export

import (
	"encoding/json"
	"io"
	"strings"

	"curate/pipeline"
	"curate/pipeline/stats"
)

// Manifest is selected_benchmark_tasks.json, version "1.0" (formats.md §4).
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

// ManifestTask is one selected task.
type ManifestTask struct {
	TaskID             string            `json:"task_id"`
	Benchmark          string            `json:"benchmark"`
	SDLCPhase          string            `json:"sdlc_phase"`
	Language           string            `json:"language"`
	Difficulty         string            `json:"difficulty"`
	Category           string            `json:"category"`
	Repo               string            `json:"repo"`
	MCPBenefitScore    float64           `json:"mcp_benefit_score"`
	MCPBreakdown       ManifestBreakdown `json:"mcp_breakdown"`
	SelectionRationale string            `json:"selection_rationale"`
	TaskDir            string            `json:"task_dir"`
}

// ManifestBreakdown is the score's four components.
type ManifestBreakdown struct {
	ContextComplexity       float64 `json:"context_complexity"`
	CrossFileDeps           float64 `json:"cross_file_deps"`
	SemanticSearchPotential float64 `json:"semantic_search_potential"`
	TaskCategoryWeight      float64 `json:"task_category_weight"`
}

// BuildManifest assembles the manifest of in.
func BuildManifest(in *Input) *Manifest {
	st := in.Stats
	m := &Manifest{
		Metadata: ManifestMetadata{
			Title: title(in), Version: "1.0", GeneratedBy: generatedBy(in), RandomSeed: in.Config.RandomSeed,
			TotalAvailable: st.TotalAvailable, TotalSelected: st.TotalSelected,
		},
		Methodology: ManifestMethodology{
			Description:       strings.ReplaceAll(overview(in), "**", ""),
			SDLCPhases:        pipeline.SDLCPhases,
			MCPScoringWeights: map[string]float64{},
			SelectionTargets:  map[string]any{},
		},
		Statistics: ManifestStatistics{
			TasksPerSDLCPhase: map[string]int{}, TasksPerBenchmark: map[string]int{}, TasksPerLanguage: map[string]int{},
			AvgMCPBenefitScore: st.AvgScore,
		},
		Tasks: []ManifestTask{},
	}
	for _, w := range in.Weights {
		m.Methodology.MCPScoringWeights[w.Name] = w.Value
	}
	for _, name := range in.Config.BenchmarkNames() {
		b := in.Config.Benchmarks[name]
		if b.Take != nil {
			m.Methodology.SelectionTargets[name] = b.Take
		} else {
			m.Methodology.SelectionTargets[name] = "all"
		}
	}
	for _, p := range st.Phases {
		m.Statistics.TasksPerSDLCPhase[p.Phase] = p.Tasks
	}
	for _, b := range st.Benchmarks {
		if b.Selected > 0 {
			m.Statistics.TasksPerBenchmark[b.Benchmark] = b.Selected
		}
	}
	for _, l := range st.Languages {
		m.Statistics.TasksPerLanguage[l.Name] = l.Count
	}
	for _, it := range in.Selected {
		t := it.Task
		m.Tasks = append(m.Tasks, ManifestTask{
			TaskID: t.ID, Benchmark: t.Benchmark, SDLCPhase: t.Phase(), Language: t.Language,
			Difficulty: string(t.EffectiveDifficulty()), Category: t.EffectiveCategory(), Repo: t.Repo,
			MCPBenefitScore: stats.Round(t.Score, 4),
			MCPBreakdown: ManifestBreakdown{
				ContextComplexity:       stats.Round(t.Breakdown.ContextComplexity, 3),
				CrossFileDeps:           stats.Round(t.Breakdown.CrossFileDeps, 3),
				SemanticSearchPotential: stats.Round(t.Breakdown.SemanticSearchPotential, 3),
				TaskCategoryWeight:      stats.Round(t.Breakdown.TaskCategoryWeight, 3),
			},
			SelectionRationale: it.Rationale, TaskDir: t.TaskDir,
		})
	}
	return m
}

func writeManifest(w io.Writer, in *Input) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(BuildManifest(in))
}

func title(in *Input) string {
	if in.Config.Title != "" {
		return in.Config.Title
	}
	return "Task Selection"
}

func generatedBy(in *Input) string {
	if in.GeneratedBy != "" {
		return in.GeneratedBy
	}
	return "curate"
}
