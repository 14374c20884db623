package selection_test

import (
	"fmt"
	"testing"

	"curate/pipeline"

	"curate/pipeline/profiles"
	"curate/pipeline/selection"
)

// seedSelected is seed 000's Selected column (with repoqa's 10).
var seedSelected = map[string]int{
	"ccb_largerepo": 4, "ccb_pytorch": 12, "ccb_k8sdocs": 5, "ccb_locobench": 25, "ccb_swebenchpro": 36,
	"ccb_sweperf": 3, "ccb_tac": 8, "ccb_crossrepo": 5, "ccb_dibench": 8, "ccb_repoqa": 10,
}

func ccbConfig(t testing.TB) selection.Config {
	t.Helper()
	p, err := profiles.Load("ccb", "")
	if err != nil {
		t.Fatal(err)
	}
	return p.Selection
}

func TestSeedReproduction(t *testing.T) {
	for seed := uint64(1); seed <= 12; seed++ {
		t.Run(fmt.Sprint("catalogue seed ", seed), func(t *testing.T) { checkSeed(t, seedCatalogWith(t, seed)) })
	}
}

func checkSeed(t *testing.T, tasks []*pipeline.Task) {
	s, err := selection.NewSolver(tasks, ccbConfig(t))
	if err != nil {
		t.Fatal(err)
	}
	r, err := s.Solve()
	if err != nil {
		t.Fatal(err)
	}
	if !r.Feasible || len(r.Shortfalls) > 0 {
		t.Fatalf("feasible=%v violations=%v shortfalls=%v", r.Feasible, r.Violations, r.Shortfalls)
	}
	got := map[string]int{}
	repos := map[string]int{}
	langs := map[string]int{}
	for _, p := range r.Picks {
		got[p.Task.Benchmark]++
		if p.Rationale == "" {
			t.Errorf("%s has no rationale", p.Task.ID)
		}
		if p.Task.Benchmark == "ccb_swebenchpro" {
			repos[p.Task.Repo]++
			langs[p.Task.Language]++
		}
	}
	for b, n := range seedSelected {
		if got[b] != n {
			t.Errorf("%s: selected %d, seed says %d", b, got[b], n)
		}
	}
	if len(r.Picks) != 116 {
		t.Errorf("selected %d, want 116", len(r.Picks))
	}
	for _, tk := range tasks {
		if tk.Benchmark == "ccb_swebenchpro" && repos[tk.Repo] == 0 {
			t.Errorf("swebenchpro repo %s has no selected task", tk.Repo)
		}
	}
	for _, l := range []string{"go", "typescript", "javascript"} {
		if langs[l] < 3 {
			t.Errorf("swebenchpro %s: %d selected, want >= 3", l, langs[l])
		}
	}
}
