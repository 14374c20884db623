package cli

import (
	"encoding/json"
	"io"
	"math"

	"curate/app"
	"curate/pipeline"
	"curate/pipeline/envgen"
	"curate/pipeline/statement"
)

// taskJSON is the stable JSON shape of a task in `list --json` and
// `show --json`, documented in the README. Add fields; never rename.
type taskJSON struct {
	ID                   string                  `json:"id"`
	Benchmark            string                  `json:"benchmark"`
	Source               string                  `json:"source"`
	Repo                 string                  `json:"repo"`
	PR                   int                     `json:"pr,omitempty"`
	Title                string                  `json:"title,omitempty"`
	Language             string                  `json:"language"`
	Category             string                  `json:"category"`
	SDLCPhase            string                  `json:"sdlc_phase"`
	Difficulty           string                  `json:"difficulty"`
	DifficultyImported   string                  `json:"difficulty_imported"`
	DifficultyCalibrated string                  `json:"difficulty_calibrated"`
	DifficultyLabel      string                  `json:"difficulty_label"`
	DifficultyRule       string                  `json:"difficulty_rule,omitempty"`
	Score                float64                 `json:"mcp_benefit_score"`
	Breakdown            pipeline.ScoreBreakdown `json:"mcp_breakdown"`
	FilesChanged         int                     `json:"files_changed"`
	LOCChanged           int                     `json:"loc_changed"`
	Features             map[string]float64      `json:"features,omitempty"`
	FeatureSources       map[string]string       `json:"feature_sources,omitempty"`
	Status               string                  `json:"status"`
	Reasons              []string                `json:"reasons,omitempty"`
	Failure              *pipeline.Failure       `json:"failure,omitempty"`
	Excluded             bool                    `json:"excluded"`
	ExcludeReason        string                  `json:"exclude_reason,omitempty"`
	Pinned               bool                    `json:"pinned"`
	Note                 string                  `json:"note,omitempty"`
	TaskDir              string                  `json:"task_dir"`
	Digest               string                  `json:"digest,omitempty"`
	Body                 string                  `json:"body,omitempty"`
	// The problem statement: where its text came from, its flags, and
	// the Interface section's declarations.
	InstructionSource string `json:"instruction_source,omitempty"`
	// InstructionSources are the sources of the text's paragraphs, in
	// order (the first is instruction_source).
	InstructionSources []string         `json:"instruction_sources,omitempty"`
	StatementFlags     []string         `json:"statement_flags"`
	Interface          []statement.Decl `json:"interface,omitempty"`
	// Requirements are the values the hidden tests check that the fix
	// introduces (the statement's Requirements section).
	Requirements []statement.Requirement `json:"requirements,omitempty"`
	// StrictTests are the tests that check values the instruction does
	// not give (the strict_tests flag), each with those values.
	StrictTests []statement.StrictTest `json:"strict_tests,omitempty"`
	// UnderspecifiedBecause says what an underspecified statement leaves
	// unsaid.
	UnderspecifiedBecause []string `json:"underspecified_because,omitempty"`
	// InstructionGenerated is the generated instruction.md a curator's
	// statement replaced, to diff against.
	InstructionGenerated string `json:"instruction_generated,omitempty"`
	// Review is "unreviewed", "reviewed" or "flagged"; the review's
	// columns follow, absent when not reviewed.
	Review string `json:"review"`
	pipeline.ReviewColumns
}

// showJSON is `show --json`: the task as list prints it, plus everything
// `show` prints beyond the listing. Lists are [] when empty, never null.
type showJSON struct {
	taskJSON
	SourcePath        string           `json:"source_path"`
	BaseCommit        string           `json:"base_commit"`
	HeadCommit        string           `json:"head_commit"`
	BuildStrategy     string           `json:"build_strategy"`
	SDLCPhaseComputed string           `json:"sdlc_phase_computed"`
	PhaseLabel        string           `json:"phase_label"`
	PhaseRule         string           `json:"phase_rule"`
	EnvironmentNotes  []string         `json:"environment_notes"`
	FailToPass        []string         `json:"fail_to_pass"`
	PassToPass        []string         `json:"pass_to_pass"`
	SourceKeys        map[string]any   `json:"source_keys"`
	Runs              []runJSON        `json:"runs"`
	History           []pipeline.Event `json:"history"`

	// ToolchainDecisions: each toolchain choice and where it came from.
	ToolchainDecisions []envgen.Decision `json:"toolchain_decisions"`
}

// runJSON is a run with whether it was made on other files than the task
// has now (the text's "stale"), its test lists [] when empty.
type runJSON struct {
	*pipeline.Run
	FailToPass []string `json:"fail_to_pass"`
	PassToPass []string `json:"pass_to_pass"`
	Flaky      []string `json:"flaky"`
	Stale      bool     `json:"stale"`
}

func toRunJSON(r *pipeline.Run, taskDigest string) runJSON {
	return runJSON{Run: r, FailToPass: nonNil(r.FailToPass), PassToPass: nonNil(r.PassToPass), Flaky: nonNil(r.Flaky), Stale: r.Stale(taskDigest)}
}

func toShowJSON(t *pipeline.Task, runs []*pipeline.Run, events []pipeline.Event) showJSON {
	out := showJSON{taskJSON: toTaskJSON(t), SourcePath: t.SourcePath, BaseCommit: t.BaseCommit, HeadCommit: t.HeadCommit,
		BuildStrategy: app.TaskStrategy(t), SDLCPhaseComputed: t.SDLCPhase, PhaseLabel: t.Labels.Phase, PhaseRule: t.PhaseRule,
		EnvironmentNotes: nonNil(app.EnvironmentNotes(t)),
		FailToPass:       nonNil(pipeline.ExtraStrings(t, "FAIL_TO_PASS")), PassToPass: nonNil(pipeline.ExtraStrings(t, "PASS_TO_PASS")),
		SourceKeys: map[string]any{}, Runs: []runJSON{}, History: nonNilEvents(events), ToolchainDecisions: app.ToolchainDecisions(t)}
	if out.Reasons == nil {
		out.Reasons = []string{}
	}
	for k, v := range t.Extra {
		out.SourceKeys[k] = v
	}
	for _, r := range runs {
		out.Runs = append(out.Runs, toRunJSON(r, t.Digest))
	}
	return out
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func toTaskJSON(t *pipeline.Task) taskJSON {
	return taskJSON{
		ID: t.ID, Benchmark: t.Benchmark, Source: t.Source, Repo: t.Repo, PR: t.PR, Title: t.Title,
		Language: t.Language, Category: t.EffectiveCategory(), SDLCPhase: t.Phase(),
		Difficulty: string(t.EffectiveDifficulty()), DifficultyImported: string(t.DifficultyImported),
		DifficultyCalibrated: string(t.DifficultyCalibrated), DifficultyLabel: string(t.Labels.Difficulty),
		DifficultyRule: t.DifficultyRule, Score: round4(finite(t.Score)), Breakdown: finiteBreakdown(t.Breakdown),
		FilesChanged: t.Features.Int(pipeline.FeatFilesChanged), LOCChanged: t.Features.Int(pipeline.FeatLOCChanged),
		Features: finiteFeatures(t.Features.Values), FeatureSources: t.Features.Sources,
		Status: string(t.Status), Reasons: t.Reasons, Failure: t.Failure, Excluded: t.Labels.Excluded, ExcludeReason: t.Labels.ExcludeReason,
		Pinned: t.Labels.Pinned, Note: t.Labels.Note, TaskDir: t.TaskDir, Digest: t.Digest, Body: t.Body,
		Review: t.Labels.ReviewState(), ReviewColumns: t.Labels.Columns(),
		InstructionSource: pipeline.InstructionSource(t), InstructionSources: pipeline.ExtraStrings(t, pipeline.ExtraInstructionSources), StatementFlags: nonNil(pipeline.StatementFlags(t)), Interface: app.TaskInterface(t),
		Requirements:          app.TaskRequirements(t),
		StrictTests:           app.TaskStrictTests(t),
		UnderspecifiedBecause: pipeline.ExtraStrings(t, pipeline.ExtraUnderspecified),
		InstructionGenerated:  extraString(t, pipeline.ExtraGenerated),
	}
}

func round4(x float64) float64 { return math.Round(x*1e4) / 1e4 }

// A value JSON cannot hold (NaN, ±Inf: stored before the strict reader
// refused them) must never break a whole listing: such a feature is left
// out and such a score is 0.
func finite(x float64) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return 0
	}
	return x
}

func finiteFeatures(values map[string]float64) map[string]float64 {
	for _, v := range values {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			out := make(map[string]float64, len(values))
			for k, v := range values {
				if !math.IsNaN(v) && !math.IsInf(v, 0) {
					out[k] = v
				}
			}
			return out
		}
	}
	return values
}

func finiteBreakdown(b pipeline.ScoreBreakdown) pipeline.ScoreBreakdown {
	b.ContextComplexity, b.CrossFileDeps = finite(b.ContextComplexity), finite(b.CrossFileDeps)
	b.SemanticSearchPotential, b.TaskCategoryWeight = finite(b.SemanticSearchPotential), finite(b.TaskCategoryWeight)
	return b
}

// writeJSON writes v indented, with a trailing newline.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

func extraString(t *pipeline.Task, key string) string {
	s, _ := t.Extra[key].(string)
	return s
}
