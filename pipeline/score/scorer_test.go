package score_test

import (
	"strings"
	"testing"

	"curate/internal/fixtures"
	"curate/pipeline"
	"curate/pipeline/profiles"
	"curate/pipeline/score"
)

func ccb(t testing.TB) *score.Scorer {
	t.Helper()
	p, err := profiles.Load("ccb", "")
	if err != nil {
		t.Fatal(err)
	}
	s, err := score.Compile(p.Score)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func task(bench, cat string, feats map[string]float64) *pipeline.Task {
	t := &pipeline.Task{ID: "t", Benchmark: bench, Category: cat}
	for k, v := range feats {
		t.Features.Set(k, v, "test")
	}
	return t
}

// Seed 000's worked example: big-code-k8s-001 has a ~3.6M LOC codebase and
// ~15 files touched; its components are 0.94, 0.75, 0.89, 0.95 = 0.8755.
func TestWorkedExampleBigCodeK8s001(t *testing.T) {
	s := ccb(t)
	tk := task("ccb_largerepo", "big_code_feature", map[string]float64{pipeline.FeatCodebaseLOC: 3_600_000, pipeline.FeatFilesCount: 15})
	s.Apply(tk)
	b := tk.Breakdown
	want := pipeline.ScoreBreakdown{ContextComplexity: 0.94, CrossFileDeps: 0.75, SemanticSearchPotential: 0.89, TaskCategoryWeight: 0.95}
	if b.ContextComplexity != want.ContextComplexity || b.CrossFileDeps != want.CrossFileDeps ||
		b.SemanticSearchPotential != want.SemanticSearchPotential || b.TaskCategoryWeight != want.TaskCategoryWeight {
		t.Fatalf("breakdown = %+v, want %+v", b, want)
	}
	if tk.Score != 0.8755 {
		t.Fatalf("score = %v, want 0.8755", tk.Score)
	}
	for _, k := range []string{score.KeyContext, score.KeyCrossDep, score.KeySemantic, score.KeyCategory} {
		if b.Rules[k] == "" || b.Rules[k] == "none" {
			t.Errorf("component %s has no rule: %v", k, b.Rules)
		}
	}
	if b.Rules[score.KeyCrossDep] != "files_count/20" || b.Rules[score.KeyCategory] != "category big_code_feature" {
		t.Errorf("rules = %v", b.Rules)
	}
	if tk.SDLCPhase != "Implementation (feature)" || tk.DifficultyCalibrated != "hard" {
		t.Errorf("phase %q difficulty %q", tk.SDLCPhase, tk.DifficultyCalibrated)
	}
}

func TestDifficultyBoundaries(t *testing.T) {
	s := ccb(t)
	F, L, C, S := pipeline.FeatFilesChanged, pipeline.FeatLOCChanged, pipeline.FeatContextLength, pipeline.FeatSourceFiles
	cases := []struct {
		name, bench, cat string
		feats            map[string]float64
		want             pipeline.Difficulty
	}{
		{"swebenchpro 1 file", "ccb_swebenchpro", "debugging", map[string]float64{F: 1}, "medium"},
		{"swebenchpro 3 files", "ccb_swebenchpro", "debugging", map[string]float64{F: 3}, "medium"},
		{"swebenchpro 4 files", "ccb_swebenchpro", "debugging", map[string]float64{F: 4}, "hard"},
		{"swebenchpro 10 files", "ccb_swebenchpro", "debugging", map[string]float64{F: 10}, "hard"},
		{"swebenchpro 11 files", "ccb_swebenchpro", "debugging", map[string]float64{F: 11}, "very_hard"},
		{"swebenchpro no patch", "ccb_swebenchpro", "debugging", nil, ""},
		{"pytorch 49 loc", "ccb_pytorch", "cross_module_bug_fix", map[string]float64{F: 3, L: 49}, "medium"},
		{"pytorch 50 loc", "ccb_pytorch", "cross_module_bug_fix", map[string]float64{F: 3, L: 50}, "hard"},
		{"pytorch 200 loc", "ccb_pytorch", "cross_module_bug_fix", map[string]float64{F: 3, L: 200}, "hard"},
		{"pytorch 201 loc", "ccb_pytorch", "cross_module_bug_fix", map[string]float64{F: 3, L: 201}, "very_hard"},
		{"pytorch 109 files", "ccb_pytorch", "cross_module_bug_fix", map[string]float64{F: 109, L: 100}, "hard"},
		{"pytorch 110 files", "ccb_pytorch", "cross_module_bug_fix", map[string]float64{F: 110, L: 100}, "critical"},
		{"pytorch 3499 loc", "ccb_pytorch", "cross_module_bug_fix", map[string]float64{F: 5, L: 3499}, "very_hard"},
		{"pytorch 3500 loc", "ccb_pytorch", "cross_module_bug_fix", map[string]float64{F: 5, L: 3500}, "critical"},
		{"locobench arch 1M tokens", "ccb_locobench", "architectural_understanding", map[string]float64{C: 1_000_000}, ""},
		{"locobench arch 1M+1 tokens", "ccb_locobench", "architectural_understanding", map[string]float64{C: 1_000_001}, "expert"},
		{"locobench bug", "ccb_locobench", "bug_investigation", map[string]float64{C: 900_000}, "hard"},
		{"locobench refactor", "ccb_locobench", "cross_file_refactoring", nil, "hard"},
		{"repoqa 49 files", "ccb_repoqa", "semantic-code-navigation", map[string]float64{S: 49}, "medium"},
		{"repoqa 100 files", "ccb_repoqa", "semantic-code-navigation", map[string]float64{S: 100}, "medium"},
		{"repoqa 101 files", "ccb_repoqa", "semantic-code-navigation", map[string]float64{S: 101}, "hard"},
		{"dibench", "ccb_dibench", "dependency_inference", nil, "medium"},
		{"largerepo", "ccb_largerepo", "big_code_feature", nil, "hard"},
		{"tac manual", "ccb_tac", "implement", nil, ""},
		{"unprefixed name", "pytorch", "cross_module_bug_fix", map[string]float64{F: 3, L: 10}, "medium"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tk := task(c.bench, c.cat, c.feats)
			s.Apply(tk)
			if tk.DifficultyCalibrated != c.want {
				t.Fatalf("difficulty = %q (rule %s), want %q", tk.DifficultyCalibrated, tk.DifficultyRule, c.want)
			}
			if c.want == "" && tk.DifficultyRule != "manual" {
				t.Fatalf("rule = %q, want manual", tk.DifficultyRule)
			}
		})
	}
}

func TestPhaseMap(t *testing.T) {
	s := ccb(t)
	const (
		req, arch, feat, bug, ref = "Requirements & Discovery", "Architecture & Design", "Implementation (feature)", "Implementation (bug fix)", "Implementation (refactoring)"
		test, docs, maint         = "Testing & QA", "Documentation", "Maintenance"
	)
	cases := []struct{ bench, cat, want string }{
		{"tac", "find-in-codebase", req}, {"repoqa", "semantic-code-navigation", req},
		{"locobench", "architectural_understanding", arch}, {"crossrepo", "cross_file_reasoning", arch},
		{"largerepo", "big_code_feature", feat}, {"tac", "implement", feat}, {"tac", "endpoint", feat},
		{"pytorch", "feature_implementation", feat}, {"dibench", "dependency_inference", feat},
		{"swebenchpro", "debugging", bug}, {"pytorch", "cross_module_bug_fix", bug},
		{"locobench", "bug_investigation", bug}, {"crossrepo", "bug_localization", bug},
		{"locobench", "cross_file_refactoring", ref}, {"crossrepo", "api_upgrade", ref},
		{"crossrepo", "refactor_rename", ref}, {"dependeval", "multifile_editing", ref},
		{"tac", "unit-test", test}, {"sweperf", "performance", test}, {"crossrepo", "smoke_test", test},
		{"k8sdocs", "package-documentation", docs},
		{"tac", "dependency", maint}, {"tac", "troubleshoot", maint},
		{"dependeval", "dependency_recognition", maint}, {"dependeval", "repository_construction", maint},
		// per-benchmark defaults
		{"swebenchpro", "other", bug}, {"pytorch", "", bug}, {"locobench", "x", arch},
		{"largerepo", "x", feat}, {"tac", "x", feat}, {"k8sdocs", "x", docs}, {"sweperf", "x", test},
		// any other benchmark: by category alone, then the profile default
		{"mined", "feature", feat}, {"mined", "refactoring", ref}, {"swebench", "docs", bug},
		{"mined", "docs", docs}, {"mined", "testing", test}, {"mined", "chore", maint},
		{"someother", "x", bug},
	}
	for _, c := range cases {
		for _, prefix := range []string{"", "ccb_"} {
			tk := task(prefix+c.bench, c.cat, nil)
			s.Apply(tk)
			if tk.SDLCPhase != c.want || tk.PhaseRule == "" {
				t.Errorf("%s%s/%s: phase %q (rule %q), want %q", prefix, c.bench, c.cat, tk.SDLCPhase, tk.PhaseRule, c.want)
			}
		}
	}
	tk := task("someother", "x", nil)
	s.Apply(tk)
	if tk.PhaseRule != "default" {
		t.Errorf("default phase rule = %q", tk.PhaseRule)
	}
}

func TestComponentRules(t *testing.T) {
	s := ccb(t)
	cases := []struct {
		name, bench, cat  string
		feats             map[string]float64
		cc, cfd, ssp, tcw float64
	}{
		{"locobench", "ccb_locobench", "architectural_understanding",
			map[string]float64{pipeline.FeatContextLength: 975_000, pipeline.FeatFilesCount: 80}, 0.975, 1, 0.7, 1},
		{"swebenchpro small", "ccb_swebenchpro", "debugging",
			map[string]float64{pipeline.FeatFilesChanged: 2, pipeline.FeatLOCChanged: 40}, 0.7, 0.1, 0.6, 0.75},
		{"swebenchpro no category", "ccb_swebenchpro", "",
			map[string]float64{pipeline.FeatFilesChanged: 12, pipeline.FeatLOCChanged: 250}, 0.7, 0.6, 0.6, 0.75},
		{"swebenchpro no features", "ccb_swebenchpro", "debugging", nil, 0.7, 0.3, 0.6, 0.75},
		{"pytorch", "ccb_pytorch", "cross_module_bug_fix",
			map[string]float64{pipeline.FeatFilesChanged: 15, pipeline.FeatLOCChanged: 250}, 0.7, 0.75, 0.6, 0.85},
		{"k8sdocs", "ccb_k8sdocs", "package-documentation", map[string]float64{pipeline.FeatSourceFiles: 45}, 0.3, 0.1, 0.3, 0.7},
		{"tac find", "ccb_tac", "find-in-codebase", nil, 0.6, 0.31, 0.8, 0.8},
		{"unknown", "mystery", "whatever", nil, 0.4, 0.3, 0.4, 0.5},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tk := task(c.bench, c.cat, c.feats)
			s.Apply(tk)
			b := tk.Breakdown
			if b.ContextComplexity != c.cc || b.CrossFileDeps != c.cfd || b.SemanticSearchPotential != c.ssp || b.TaskCategoryWeight != c.tcw {
				t.Fatalf("got %.3f %.3f %.3f %.3f (%v), want %.3f %.3f %.3f %.3f", b.ContextComplexity, b.CrossFileDeps,
					b.SemanticSearchPotential, b.TaskCategoryWeight, b.Rules, c.cc, c.cfd, c.ssp, c.tcw)
			}
			want := 0.25*c.cc + 0.30*c.cfd + 0.20*c.ssp + 0.25*c.tcw
			if d := tk.Score - want; d > 0.00005 || d < -0.00005 {
				t.Fatalf("score %v, want %v", tk.Score, want)
			}
		})
	}
}

func TestLanguageOverrideAndLabelsKept(t *testing.T) {
	s := ccb(t)
	tk := &pipeline.Task{ID: "x", Benchmark: "ccb_swebenchpro", Repo: "NodeBB/NodeBB", Language: "typescript",
		Labels: pipeline.Labels{Difficulty: "easy", Phase: "Documentation", Note: "mine"}}
	s.Apply(tk)
	if tk.Language != "javascript" || !strings.Contains(tk.Extra["language_override"].(string), "nodebb") || tk.Extra["language_original"] != "typescript" {
		t.Fatalf("language %q extra %v", tk.Language, tk.Extra)
	}
	// A profile without the override gives the source's language back.
	bare, err := score.Compile(score.Config{Weights: score.Weights{0.25, 0.3, 0.2, 0.25}})
	if err != nil {
		t.Fatal(err)
	}
	again := *tk
	bare.Apply(&again)
	if again.Language != "typescript" || again.Extra["language_original"] != nil {
		t.Fatalf("override not undone: %q %v", again.Language, again.Extra)
	}
	s.Apply(&again)
	if again.Language != "javascript" {
		t.Fatalf("override not re-applied: %q", again.Language)
	}
	if tk.Labels.Difficulty != "easy" || tk.Labels.Phase != "Documentation" || tk.Labels.Note != "mine" {
		t.Fatalf("labels changed: %+v", tk.Labels)
	}
	if tk.EffectiveDifficulty() != "easy" {
		t.Fatalf("label must win: %q", tk.EffectiveDifficulty())
	}
	tk = &pipeline.Task{ID: "y", Repo: "element-hq/element-web", Language: "javascript"}
	s.Apply(tk)
	if tk.Language != "typescript" {
		t.Fatalf("element-web language %q", tk.Language)
	}
}

func TestCompileErrors(t *testing.T) {
	v := 0.5
	ok := score.Config{Weights: score.Weights{0.25, 0.3, 0.2, 0.25}}
	cases := []struct {
		name string
		mod  func(c *score.Config)
		want string
	}{
		{"weights", func(c *score.Config) { c.Weights.CrossFileDeps = 0.5 }, "sum to"},
		{"bad cond", func(c *score.Config) {
			c.Difficulty = []score.DifficultyRule{{Match: score.Match{When: []string{"files_changed >> 4"}}, Label: "hard"}}
		}, "score.difficulty[1]"},
		{"bad label", func(c *score.Config) { c.Difficulty = []score.DifficultyRule{{Label: "trivial"}} }, "invalid difficulty"},
		{"bad phase", func(c *score.Config) {
			c.Phase = []score.PhaseRule{{Match: score.Match{Benchmark: []string{"x"}}, Phase: "Deploy"}}
		}, "score.phase[1] (x)"},
		{"empty phase rule", func(c *score.Config) { c.Phase = []score.PhaseRule{{Phase: "docs"}} }, "needs a benchmark"},
		{"value and feature", func(c *score.Config) {
			c.ContextComplexity = []score.ComponentRule{{Value: &v, Feature: "x"}}
		}, "not both"},
		{"neither", func(c *score.Config) { c.CrossFileDeps = []score.ComponentRule{{}} }, "give value"},
		{"div 0", func(c *score.Config) {
			z := 0.0
			c.SemanticSearchPotential = []score.ComponentRule{{Feature: "x", Div: &z}}
		}, "div must not be 0"},
		{"default phase", func(c *score.Config) { c.DefaultPhase = "nope" }, "default_phase"},
	}
	if _, err := score.Compile(ok); err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cfg := ok
			c.mod(&cfg)
			_, err := score.Compile(cfg)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err = %v, want %q", err, c.want)
			}
		})
	}
}

// The demo catalogue gets a phase, a score with four named components and
// a difficulty rule for every task, with real spread inside each benchmark.
func TestDemoCatalogScored(t *testing.T) {
	s := ccb(t)
	tasks := fixtures.Catalog(fixtures.DemoSpec, 1)
	per := map[string][]float64{}
	for _, tk := range tasks {
		s.Apply(tk)
		if tk.SDLCPhase == "" || tk.PhaseRule == "" || tk.DifficultyRule == "" || len(tk.Breakdown.Rules) != 4 {
			t.Fatalf("%s: incomplete: %+v", tk.ID, tk)
		}
		if tk.Score <= 0 || tk.Score > 1 {
			t.Fatalf("%s: score %v", tk.ID, tk.Score)
		}
		per[tk.Benchmark] = append(per[tk.Benchmark], tk.Score)
	}
	for b, xs := range per {
		lo, hi := xs[0], xs[0]
		for _, x := range xs {
			lo, hi = min(lo, x), max(hi, x)
		}
		if len(xs) >= 5 && b != "ccb_tac" && hi-lo < 0.02 {
			t.Errorf("%s: scores do not vary (%.4f..%.4f)", b, lo, hi)
		}
	}
}

func BenchmarkRescore100k(b *testing.B) {
	s := ccb(b)
	tasks := fixtures.Large(100_000)
	b.ResetTimer()
	for b.Loop() {
		for _, tk := range tasks {
			s.Apply(tk)
		}
	}
}
