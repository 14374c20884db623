package score_test

import (
	"math"
	"testing"

	"curate/pipeline"
	"curate/pipeline/profiles"
	"curate/pipeline/score"
)

// point is one task of a feature-table row and the components ccb gives it.
type point struct {
	cat          string
	feats        map[string]float64
	cc, cfd, ssp float64
}

// Seed 000, "Per-Task Feature Extraction": each benchmark's components come
// from the source the table names. Every row is checked at two tasks whose
// features differ: a component the seed derives from a feature moves with
// it, a benchmark-level default does not.
func TestSeed000FeatureTable(t *testing.T) {
	s := ccb(t)
	const (
		CL, FC, SF, CR = pipeline.FeatContextLength, pipeline.FeatFilesCount, pipeline.FeatSourceFiles, pipeline.FeatCodeRatio
		FX, LOC, CB    = pipeline.FeatFilesChanged, pipeline.FeatLOCChanged, pipeline.FeatCodebaseLOC
		RC, RT         = pipeline.FeatRepoCount, pipeline.FeatBaselineRuntime
	)
	rows := []struct {
		bench string
		a, b  point
	}{
		// context_length from task.toml (975K-1.16M); files_count (73-86); ssp derived from context_length.
		{"ccb_locobench",
			point{"architectural_understanding", map[string]float64{CL: 975_000, FC: 15}, 0.975, 0.75, 0.7},
			point{"architectural_understanding", map[string]float64{CL: 400_000, FC: 86}, 0.4, 1, 0.4}},
		// source file count (65-559) for cc and cfd, normalised differently; code_ratio (0.0-0.79) for ssp.
		{"ccb_repoqa",
			point{"semantic-code-navigation", map[string]float64{SF: 65, CR: 0}, 0.3, 0.217, 0.5},
			point{"semantic-code-navigation", map[string]float64{SF: 450, CR: 0.79}, 0.9, 1, 0.994}},
		// cc default 0.7, cfd files_changed of the patch, ssp default 0.6: LOC moves nothing.
		{"ccb_swebenchpro",
			point{"debugging", map[string]float64{FX: 2, LOC: 12}, 0.7, 0.1, 0.6},
			point{"debugging", map[string]float64{FX: 14, LOC: 2400}, 0.7, 0.7, 0.6}},
		// the same defaults, cfd from the instruction's files-modified count.
		{"ccb_pytorch",
			point{"cross_module_bug_fix", map[string]float64{FX: 3, LOC: 30}, 0.7, 0.15, 0.6},
			point{"cross_module_bug_fix", map[string]float64{FX: 110, LOC: 3526}, 0.7, 1, 0.6}},
		// codebase LOC (1.1M-3.6M) for cc and ssp; expected files touched (5-15) for cfd.
		{"ccb_largerepo",
			point{"big_code_feature", map[string]float64{CB: 1_100_000, FC: 5}, 0.773, 0.25, 0.828},
			point{"big_code_feature", map[string]float64{CB: 3_600_000, FC: 15}, 0.94, 0.75, 0.89}},
		// source file count (25-450) drives all three.
		{"ccb_k8sdocs",
			point{"package-documentation", map[string]float64{SF: 225}, 0.5, 0.5, 0.563},
			point{"package-documentation", map[string]float64{SF: 450}, 1, 1, 1}},
		// source file count (20-82) drives all three.
		{"ccb_dibench",
			point{"dependency_inference", map[string]float64{SF: 20}, 0.2, 0.2, 0.3},
			point{"dependency_inference", map[string]float64{SF: 82}, 0.82, 0.82, 0.82}},
		// per-category resource scaling: category moves all three, features do not.
		{"ccb_tac",
			point{"find-in-codebase", map[string]float64{FX: 30, SF: 900}, 0.6, 0.31, 0.8},
			point{"dependency", nil, 0.4, 0.25, 0.25}},
		// baseline runtime for cc and ssp; cfd a benchmark-level default.
		{"ccb_sweperf",
			point{"performance", map[string]float64{RT: 60}, 0.35, 0.3, 0.33},
			point{"performance", map[string]float64{RT: 600}, 0.8, 0.3, 0.6}},
		// repos x repo size (all repos' LOC) for cc; number of repos for cfd and ssp.
		{"ccb_crossrepo",
			point{"cross_file_reasoning", map[string]float64{RC: 2, CB: 400_000}, 0.44, 0.333, 0.6},
			point{"cross_file_reasoning", map[string]float64{RC: 4, CB: 2_000_000}, 1, 0.667, 0.9}},
	}
	for _, r := range rows {
		t.Run(r.bench, func(t *testing.T) {
			for _, p := range []point{r.a, r.b} {
				tk := task(r.bench, p.cat, p.feats)
				s.Apply(tk)
				b := tk.Breakdown
				if b.ContextComplexity != p.cc || b.CrossFileDeps != p.cfd || b.SemanticSearchPotential != p.ssp {
					t.Errorf("%v: components %.3f %.3f %.3f (rules %v), want %.3f %.3f %.3f", p.feats,
						b.ContextComplexity, b.CrossFileDeps, b.SemanticSearchPotential, b.Rules, p.cc, p.cfd, p.ssp)
				}
			}
		})
	}
}

// The seed's benchmark-level defaults hold whatever the task's size: a
// swebenchpro or pytorch task with no features still scores 0.7 and 0.6.
func TestSeed000BenchmarkDefaults(t *testing.T) {
	s := ccb(t)
	for _, bench := range []string{"ccb_swebenchpro", "ccb_pytorch"} {
		tk := task(bench, "", nil)
		s.Apply(tk)
		if tk.Breakdown.ContextComplexity != 0.7 || tk.Breakdown.SemanticSearchPotential != 0.6 {
			t.Errorf("%s: cc %.3f ssp %.3f, want the seed's defaults 0.7 and 0.6", bench, tk.Breakdown.ContextComplexity, tk.Breakdown.SemanticSearchPotential)
		}
	}
}

// Seed 000's scoring formula: 0.25 cc + 0.30 cfd + 0.20 ssp + 0.25 tcw.
func TestSeed000Weights(t *testing.T) {
	p, err := profiles.Load("ccb", "")
	if err != nil {
		t.Fatal(err)
	}
	want := score.Weights{ContextComplexity: 0.25, CrossFileDeps: 0.30, SemanticSearchPotential: 0.20, TaskCategoryWeight: 0.25}
	if p.Score.Weights != want {
		t.Fatalf("weights %+v, want %+v", p.Score.Weights, want)
	}
}

// Seed 000's category weights (architectural_understanding=1.0,
// cross_file_refactoring=0.9, big_code_feature=0.95 in the worked example)
// and the rest of the table the seed's implementation uses.
func TestSeed000CategoryWeights(t *testing.T) {
	s := ccb(t)
	want := map[string]float64{
		"architectural_understanding": 1.0, "big_code_feature": 0.95, "semantic-code-navigation": 0.95,
		"cross_file_refactoring": 0.9, "cross_file_reasoning": 0.9,
		"cross_module_bug_fix": 0.85, "api_upgrade": 0.85, "bug_localization": 0.85, "refactor_rename": 0.85,
		"smoke_test": 0.85, "dependency_inference": 0.85,
		"feature_implementation": 0.8, "find-in-codebase": 0.8, "multifile_editing": 0.8,
		"debugging": 0.75, "package-documentation": 0.7, "bug_investigation": 0.7, "implement": 0.7,
		"performance": 0.65, "endpoint": 0.65, "unit-test": 0.6, "repository_construction": 0.6,
		"troubleshoot": 0.55, "dependency": 0.5, "dependency_recognition": 0.5,
	}
	for cat, w := range want {
		// The weight is fixed per category across all benchmarks.
		for _, bench := range []string{"ccb_locobench", "ccb_tac", "mined"} {
			tk := task(bench, cat, nil)
			s.Apply(tk)
			if tk.Breakdown.TaskCategoryWeight != w {
				t.Errorf("%s/%s: weight %v, want %v", bench, cat, tk.Breakdown.TaskCategoryWeight, w)
			}
		}
	}
	tk := task("ccb_swebenchpro", "", nil)
	s.Apply(tk)
	if tk.Breakdown.TaskCategoryWeight != 0.75 {
		t.Errorf("swebenchpro default category weight %v, want 0.75", tk.Breakdown.TaskCategoryWeight)
	}
	tk = task("mined", "unheard_of", nil)
	s.Apply(tk)
	if tk.Breakdown.TaskCategoryWeight != 0.5 {
		t.Errorf("default category weight %v, want 0.5", tk.Breakdown.TaskCategoryWeight)
	}
}

// Seed 000's score table: ccb_tac spans 0.350-0.603. Per-category scaling
// puts dependency at the bottom and find-in-codebase at the top.
func TestSeed000TacRange(t *testing.T) {
	s := ccb(t)
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, cat := range []string{"find-in-codebase", "implement", "endpoint", "unit-test", "troubleshoot", "dependency"} {
		tk := task("ccb_tac", cat, nil)
		s.Apply(tk)
		lo, hi = math.Min(lo, tk.Score), math.Max(hi, tk.Score)
	}
	if lo != 0.35 || hi != 0.603 {
		t.Fatalf("tac range %.4f-%.4f, seed says 0.350-0.603", lo, hi)
	}
}

// Seed 000's manual-assessment benchmarks get no calibrated label: the
// source's (or the curator's) difficulty stands.
func TestSeed000ManualDifficulty(t *testing.T) {
	s := ccb(t)
	for _, bench := range []string{"ccb_k8sdocs", "ccb_crossrepo", "ccb_tac", "ccb_sweperf"} {
		tk := task(bench, "x", map[string]float64{pipeline.FeatSourceFiles: 200, pipeline.FeatFilesChanged: 12})
		s.Apply(tk)
		if tk.DifficultyCalibrated != "" || tk.DifficultyRule != "manual" {
			t.Errorf("%s: calibrated %q by %q, want manual", bench, tk.DifficultyCalibrated, tk.DifficultyRule)
		}
	}
}

// Profile ccb-loc keeps the LOC-based variants for swebenchpro and pytorch
// and falls back to ccb's defaults when the features are unknown.
func TestLOCVariantProfile(t *testing.T) {
	p, err := profiles.Load("ccb-loc", "")
	if err != nil {
		t.Fatal(err)
	}
	if p.Name != "ccb-loc" {
		t.Fatalf("name %q", p.Name)
	}
	s, err := score.Compile(p.Score)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		bench, cat   string
		feats        map[string]float64
		cc, cfd, ssp float64
	}{
		{"ccb_swebenchpro", "debugging", map[string]float64{pipeline.FeatFilesChanged: 2, pipeline.FeatLOCChanged: 40}, 0.2, 0.1, 0.3},
		{"ccb_swebenchpro", "", map[string]float64{pipeline.FeatFilesChanged: 12, pipeline.FeatLOCChanged: 250}, 0.5, 0.6, 0.4},
		{"ccb_pytorch", "cross_module_bug_fix", map[string]float64{pipeline.FeatFilesChanged: 15, pipeline.FeatLOCChanged: 250}, 0.8, 0.75, 0.75},
		{"ccb_swebenchpro", "debugging", nil, 0.7, 0.3, 0.6},
		// other benchmarks are ccb's
		{"ccb_tac", "find-in-codebase", nil, 0.6, 0.31, 0.8},
	}
	for _, c := range cases {
		tk := task(c.bench, c.cat, c.feats)
		s.Apply(tk)
		b := tk.Breakdown
		if b.ContextComplexity != c.cc || b.CrossFileDeps != c.cfd || b.SemanticSearchPotential != c.ssp {
			t.Errorf("%s %v: %.3f %.3f %.3f (%v), want %.3f %.3f %.3f", c.bench, c.feats, b.ContextComplexity,
				b.CrossFileDeps, b.SemanticSearchPotential, b.Rules, c.cc, c.cfd, c.ssp)
		}
	}
	base, _ := profiles.Load("ccb", "")
	if len(p.Score.Difficulty) != len(base.Score.Difficulty) || len(p.Score.Phase) != len(base.Score.Phase) {
		t.Errorf("ccb-loc must inherit ccb's phase and difficulty rules")
	}
}
