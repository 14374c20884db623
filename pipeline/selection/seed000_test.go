package selection_test

import (
	"testing"

	"curate/pipeline"
	"curate/pipeline/selection"
)

// Seed 000's pytorch strategy "prefer hard difficulty" ranks by the
// difficulty the source assigned (difficulty_source = "imported" in ccb):
// calibration happens after selection and must not reorder it.
func TestDifficultySource(t *testing.T) {
	tasks := seedCatalog(t)
	var pytorch []*pipeline.Task
	for _, tk := range tasks {
		if tk.Benchmark == "ccb_pytorch" {
			pytorch = append(pytorch, tk)
		}
	}
	if len(pytorch) < 13 {
		t.Fatalf("catalogue has %d pytorch tasks", len(pytorch))
	}
	// The source calls the first four "expert"; calibration says "medium".
	// Everything else: imported "medium", calibrated "critical".
	hardByImport := map[string]bool{}
	for i, tk := range pytorch {
		tk.DifficultyImported, tk.DifficultyCalibrated = "medium", "critical"
		if i < 4 {
			tk.DifficultyImported, tk.DifficultyCalibrated = "expert", "medium"
			hardByImport[tk.ID] = true
		}
	}
	picked := func(src string) map[string]bool {
		cfg := ccbConfig(t)
		cfg.DifficultySource = src
		out := map[string]bool{}
		for _, p := range solve(t, tasks, cfg).Picks {
			out[p.Task.ID] = true
		}
		return out
	}
	if ccbConfig(t).DifficultySource != selection.DifficultyImported {
		t.Fatalf("ccb difficulty_source = %q, want imported", ccbConfig(t).DifficultySource)
	}
	imported, effective := picked(selection.DifficultyImported), picked(selection.DifficultyEffective)
	for id := range hardByImport {
		if !imported[id] {
			t.Errorf("imported: %s (source says expert) not selected", id)
		}
		if effective[id] {
			t.Errorf("effective: %s (calibrated medium) selected over 12 critical tasks", id)
		}
	}
	cfg := ccbConfig(t)
	cfg.DifficultySource = "calibrated"
	if _, err := selection.NewSolver(tasks, cfg); err == nil {
		t.Error("difficulty_source \"calibrated\" accepted")
	}
}

// Pinned tasks count toward their benchmark's take: pinning tasks the
// strategies did not choose changes neither the budget nor the
// per-benchmark counts of seed 000's table.
func TestPinnedCountTowardTake(t *testing.T) {
	tasks := seedCatalog(t)
	base := solve(t, tasks, ccbConfig(t))
	chosen := map[string]bool{}
	for _, id := range base.IDs() {
		chosen[id] = true
	}
	pinned := map[string]int{}
	for _, tk := range tasks {
		b := tk.Benchmark
		if !chosen[tk.ID] && pinned[b] < 2 && (b == "ccb_pytorch" || b == "ccb_swebenchpro" || b == "ccb_dibench" || b == "ccb_locobench") {
			tk.Labels.Pinned = true
			pinned[b]++
		}
	}
	r := solve(t, tasks, ccbConfig(t))
	if r.Budget != 116 || len(r.Picks) != 116 {
		t.Fatalf("budget %d, picks %d; want 116 (pins count toward takes)", r.Budget, len(r.Picks))
	}
	got := map[string]int{}
	for _, p := range r.Picks {
		got[p.Task.Benchmark]++
	}
	for b, n := range seedSelected {
		if got[b] != n {
			t.Errorf("%s: %d selected with %d pinned, seed's take is %d", b, got[b], pinned[b], n)
		}
	}
}
