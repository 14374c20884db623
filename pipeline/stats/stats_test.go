package stats

import (
	"reflect"
	"testing"

	"curate/pipeline"
)

func task(id, bench, lang, phase string, d pipeline.Difficulty, score float64) *pipeline.Task {
	return &pipeline.Task{ID: id, Benchmark: bench, Language: lang, SDLCPhase: phase, DifficultyCalibrated: d, Score: score}
}

func TestCompute(t *testing.T) {
	sel := []*pipeline.Task{
		task("a", "b1", "go", "Documentation", "hard", 0.2),
		task("b", "b1", "go", "Implementation (bug fix)", "medium", 0.4),
		task("c", "b2", "python", "Documentation", "hard", 0.9),
	}
	sel[1].Labels.Difficulty = "easy" // the curator's label wins
	cat := append([]*pipeline.Task{task("d", "b2", "rust", "", "", 0.1), task("e", "b3", "c", "", "", 0.5)}, sel...)
	st := Compute(cat, sel, Options{Order: []string{"b2", "b1"}, Strategies: map[string]string{"b1": "top"}})
	if st.TotalAvailable != 5 || st.TotalSelected != 3 || st.BenchmarkCount != 2 || st.AvgScore != 0.5 {
		t.Fatalf("totals %+v", st)
	}
	wantB := []BenchmarkRow{
		{Benchmark: "b2", Available: 2, Selected: 1, ScoreMin: 0.9, ScoreMax: 0.9, ScoreMean: 0.9},
		{Benchmark: "b1", Available: 2, Selected: 2, Strategy: "top", ScoreMin: 0.2, ScoreMax: 0.4, ScoreMean: 0.3, StdDev: 0.1},
		{Benchmark: "b3", Available: 1},
	}
	if !reflect.DeepEqual(st.Benchmarks, wantB) {
		t.Errorf("benchmarks\n got %+v\nwant %+v", st.Benchmarks, wantB)
	}
	wantP := []PhaseRow{
		{Phase: "Implementation (bug fix)", Tasks: 1, Benchmarks: []string{"b1"}},
		{Phase: "Documentation", Tasks: 2, Benchmarks: []string{"b2", "b1"}},
	}
	if !reflect.DeepEqual(st.Phases, wantP) {
		t.Errorf("phases %+v", st.Phases)
	}
	if want := []CountRow{{"go", 2, 66.7}, {"python", 1, 33.3}}; !reflect.DeepEqual(st.Languages, want) {
		t.Errorf("languages %+v", st.Languages)
	}
	if want := []CountRow{{"easy", 1, 33.3}, {"hard", 2, 66.7}}; !reflect.DeepEqual(st.Difficulties, want) {
		t.Errorf("difficulties %+v", st.Difficulties)
	}
}

func TestComputeEmpty(t *testing.T) {
	st := Compute(nil, nil, Options{})
	if st.TotalSelected != 0 || st.AvgScore != 0 || len(st.Benchmarks) != 0 {
		t.Fatalf("%+v", st)
	}
}
