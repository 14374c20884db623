package selection_test

import (
	"fmt"
	"testing"

	"curate/pipeline"
	"curate/pipeline/profiles"
	"curate/pipeline/selection"
)

// TestBalancedSpreadsOverLanguagePhaseAndDifficulty: the swe profile's
// balanced strategy must not fill its take with the highest-scoring
// language; each language, phase and difficulty gets its turn.
func TestBalancedSpreadsOverLanguagePhaseAndDifficulty(t *testing.T) {
	p, err := profiles.Load("swe", "")
	if err != nil {
		t.Fatal(err)
	}
	var tasks []*pipeline.Task
	// 20 Python tasks score higher than any Go or Rust task.
	for i := range 20 {
		tasks = append(tasks, &pipeline.Task{ID: fmt.Sprintf("py-%02d", i), Benchmark: "mined", Language: "python",
			SDLCPhase: "Implementation (bug fix)", DifficultyCalibrated: "easy", Score: 0.9 - float64(i)/100, Status: pipeline.StatusValid})
	}
	for i, lang := range []string{"go", "rust"} {
		for j := range 3 {
			tasks = append(tasks, &pipeline.Task{ID: fmt.Sprintf("%s-%d", lang, j), Benchmark: "mined", Language: lang,
				SDLCPhase: "Implementation (feature)", DifficultyCalibrated: "hard", Score: 0.3 - float64(i+j)/100, Status: pipeline.StatusValid})
		}
	}
	cfg := p.Selection
	cfg.Budget = ip(6)
	r := solve(t, tasks, cfg)
	perLang := map[string]int{}
	for _, pk := range r.Picks {
		perLang[pk.Task.Language]++
	}
	// By score alone all 6 would be Python.
	if perLang["go"] < 1 || perLang["rust"] < 1 || perLang["go"]+perLang["rust"] < 3 || perLang["python"] < 1 {
		t.Fatalf("6 picks per language = %v, want every language, Go and Rust together at least 3:\n%v", perLang, rationales(r))
	}
	if r.Picks[0].Task.ID != "py-00" {
		t.Errorf("first pick = %s, want the highest score py-00", r.Picks[0].Task.ID)
	}
}

// TestBalancedNeedsDimensions: a balanced strategy without balance, or
// with an unknown dimension, is refused naming the benchmark.
func TestBalancedNeedsDimensions(t *testing.T) {
	for _, bal := range [][]string{nil, {"colour"}} {
		cfg := selection.Config{Benchmarks: map[string]selection.Benchmark{"mined": {Take: int64(3), Strategy: "balanced", Balance: bal}}}
		if err := cfg.Validate(); err == nil {
			t.Errorf("balance %v accepted", bal)
		} else {
			t.Log(err)
		}
	}
}
