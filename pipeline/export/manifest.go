package export

import (
	"encoding/json"
	"io"
	"strings"

	"curate/pipeline"
	"curate/pipeline/stats"
)

// BuildManifest assembles the manifest of in.
func BuildManifest(in *Input) *pipeline.Manifest {
	st := in.Stats
	m := &pipeline.Manifest{
		Metadata: pipeline.ManifestMetadata{
			Title: title(in), Version: "1.0", GeneratedBy: generatedBy(in), RandomSeed: in.Config.RandomSeed,
			TotalAvailable: st.TotalAvailable, TotalSelected: st.TotalSelected,
		},
		Methodology: pipeline.ManifestMethodology{
			Description:       strings.ReplaceAll(overview(in), "**", ""),
			SDLCPhases:        pipeline.SDLCPhases,
			MCPScoringWeights: map[string]float64{},
			SelectionTargets:  map[string]any{},
		},
		Statistics: pipeline.ManifestStatistics{
			TasksPerSDLCPhase: map[string]int{}, TasksPerBenchmark: map[string]int{}, TasksPerLanguage: map[string]int{},
			AvgMCPBenefitScore: st.AvgScore,
		},
		Tasks: []pipeline.ManifestTask{},
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
		score := stats.Round(t.Score, 4)
		m.Tasks = append(m.Tasks, pipeline.ManifestTask{
			TaskID: t.ID, Benchmark: t.Benchmark, SDLCPhase: t.Phase(), Language: t.Language,
			Difficulty: string(t.EffectiveDifficulty()), Category: t.EffectiveCategory(), Repo: t.Repo,
			MCPBenefitScore: &score,
			MCPBreakdown: &pipeline.ScoreBreakdown{
				ContextComplexity:       stats.Round(t.Breakdown.ContextComplexity, 3),
				CrossFileDeps:           stats.Round(t.Breakdown.CrossFileDeps, 3),
				SemanticSearchPotential: stats.Round(t.Breakdown.SemanticSearchPotential, 3),
				TaskCategoryWeight:      stats.Round(t.Breakdown.TaskCategoryWeight, 3),
			},
			SelectionRationale: it.Rationale, TaskDir: t.TaskDir,
			InstructionSource: pipeline.InstructionSource(t), StatementFlags: pipeline.StatementFlags(t),
			ReviewColumns: t.Labels.Columns(),
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
