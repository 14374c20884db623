package selection_test

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"curate/pipeline"
	"curate/pipeline/selection"
)

func ip(n int) *int { return &n }

func solve(t *testing.T, tasks []*pipeline.Task, cfg selection.Config) *selection.Result {
	t.Helper()
	s, err := selection.NewSolver(tasks, cfg)
	if err != nil {
		t.Fatal(err)
	}
	r, err := s.Solve()
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func rationales(r *selection.Result) []string {
	var out []string
	for _, p := range r.Picks {
		out = append(out, p.Task.ID+" "+p.Rationale)
	}
	return out
}

func TestDeterministicAcrossInputOrder(t *testing.T) {
	a := seedCatalog(t)
	b := seedCatalog(t)
	rng := rand.New(rand.NewPCG(3, 4))
	rng.Shuffle(len(b), func(i, j int) { b[i], b[j] = b[j], b[i] })
	ra, rb := solve(t, a, ccbConfig(t)), solve(t, b, ccbConfig(t))
	if !reflect.DeepEqual(rationales(ra), rationales(rb)) {
		t.Fatal("same catalogue in another order gave another selection")
	}
	if ra.TotalScore != rb.TotalScore || ra.UpperBound < ra.TotalScore {
		t.Fatalf("scores %v/%v, bound %v", ra.TotalScore, rb.TotalScore, ra.UpperBound)
	}
}

func TestPinsAndExclusions(t *testing.T) {
	tasks := seedCatalog(t)
	base := solve(t, tasks, ccbConfig(t))
	chosen := map[string]bool{}
	for _, id := range base.IDs() {
		chosen[id] = true
	}
	var pin, drop *pipeline.Task
	for _, tk := range tasks {
		if tk.Benchmark == "ccb_dibench" && !chosen[tk.ID] && pin == nil {
			pin = tk
		}
		if tk.Benchmark == "ccb_locobench" && chosen[tk.ID] && drop == nil {
			drop = tk
		}
	}
	pin.Labels.Pinned = true
	drop.Labels.Excluded = true
	r := solve(t, tasks, ccbConfig(t))
	got := map[string]string{}
	for _, p := range r.Picks {
		got[p.Task.ID] = p.Rationale
	}
	if !strings.Contains(got[pin.ID], "pinned") {
		t.Errorf("pinned %s: rationale %q", pin.ID, got[pin.ID])
	}
	if _, ok := got[drop.ID]; ok {
		t.Errorf("excluded %s was selected", drop.ID)
	}
	if len(r.Picks) != 116 {
		t.Errorf("selected %d, want 116", len(r.Picks))
	}
	// a quota that would push the pinned task out cannot: it is reported
	q := pipeline.Quota{Dimension: "benchmark", Value: "ccb_dibench", Max: ip(0)}
	cfg := ccbConfig(t)
	cfg.Quotas = []pipeline.Quota{q}
	r = solve(t, tasks, cfg)
	if r.Feasible || !strings.Contains(r.Violations[0].Message, "benchmark=ccb_dibench max 0") || r.Violations[0].Over != 1 {
		t.Fatalf("violations %+v", r.Violations)
	}
	for _, p := range r.Picks {
		if p.Task.ID == pin.ID {
			return
		}
	}
	t.Errorf("pinned task left under a max quota")
}

func TestInfeasibleQuotaNamed(t *testing.T) {
	tasks := seedCatalog(t)
	tests := []struct {
		quota pipeline.Quota
		want  string
		short int
	}{
		{pipeline.Quota{Dimension: "language", Value: "java", Min: ip(200)}, "only", 0},
		{pipeline.Quota{Dimension: "benchmark", Value: "ccb_dibench", Min: ip(300)}, "budget of 116", 300 - 116},
		{pipeline.Quota{Dimension: "repo", Value: "no/such-repo", Min: ip(1)}, "only 0 eligible", 1},
	}
	for _, tc := range tests {
		cfg := ccbConfig(t)
		cfg.Quotas = []pipeline.Quota{tc.quota}
		r := solve(t, tasks, cfg)
		if r.Feasible || len(r.Violations) != 1 {
			t.Fatalf("%s: feasible=%v %+v", selection.QuotaLabel(tc.quota), r.Feasible, r.Violations)
		}
		v := r.Violations[0]
		if !strings.Contains(v.Message, selection.QuotaLabel(tc.quota)) || !strings.Contains(v.Message, tc.want) || !strings.Contains(v.Message, "short by") {
			t.Errorf("message %q", v.Message)
		}
		if tc.short > 0 && v.Short != tc.short {
			t.Errorf("%s: short %d, want %d", v.Label, v.Short, tc.short)
		}
		if len(r.Picks) != 116 {
			t.Errorf("an infeasible quota changed the budget: %d", len(r.Picks))
		}
	}
}

func TestQuotaChangeMovesOnlyWhatItMust(t *testing.T) {
	tasks := seedCatalog(t)
	s, err := selection.NewSolver(tasks, ccbConfig(t))
	if err != nil {
		t.Fatal(err)
	}
	r0, err := s.Solve()
	if err != nil {
		t.Fatal(err)
	}
	rust := 0
	for _, p := range r0.Picks {
		if p.Task.Language == "rust" {
			rust++
		}
	}
	for step, want := range []int{rust + 3, rust + 4, rust + 4} {
		// step 0 appends the quota, later steps change its number in place
		if err := s.SetQuota(0, pipeline.Quota{Dimension: "language", Value: "rust", Min: ip(want)}); err != nil {
			t.Fatal(err)
		}
		r, err := s.Solve()
		if err != nil {
			t.Fatal(err)
		}
		moved := []int{3, 1, 0}[step]
		if !r.Feasible || len(r.Entered) != moved || len(r.Left) != moved || len(r.Picks) != 116 {
			t.Fatalf("step %d: feasible=%v entered %v left %v", step, r.Feasible, r.Entered, r.Left)
		}
		if q := r.Quotas[0]; !q.Met || q.Have != want || q.Min != want || q.Max != -1 {
			t.Errorf("step %d: quota status %+v", step, q)
		}
		for _, p := range r.Picks {
			for _, id := range r.Entered {
				if p.Task.ID == id && (p.Task.Language != "rust" || !strings.HasPrefix(p.Rationale, "quota language=rust")) {
					t.Errorf("entered %s (%s): %q", id, p.Task.Language, p.Rationale)
				}
			}
		}
	}
	// lowering it back restores the original set exactly
	if err := s.SetQuotas(nil); err != nil {
		t.Fatal(err)
	}
	r, _ := s.Solve()
	if !reflect.DeepEqual(r.IDs(), r0.IDs()) {
		t.Error("removing the quota did not restore the strategies' selection")
	}
}

func TestBadInput(t *testing.T) {
	tasks := seedCatalog(t)
	bad := []struct {
		name string
		edit func(*selection.Config)
		want string
	}{
		{"budget 0", func(c *selection.Config) { c.Budget = ip(0) }, "budget 0: must be at least 1"},
		{"budget too large", func(c *selection.Config) { c.Budget = ip(len(tasks) + 1) }, "larger than the catalogue"},
		{"negative quota", func(c *selection.Config) {
			c.Quotas = []pipeline.Quota{{Dimension: "language", Value: "go", Min: ip(-1)}}
		}, "min -1: must not be negative"},
		{"min above max", func(c *selection.Config) {
			c.Quotas = []pipeline.Quota{{Dimension: "language", Value: "go", Min: ip(5), Max: ip(2)}}
		}, "min 5 is above max 2"},
		{"unknown dimension", func(c *selection.Config) {
			c.Quotas = []pipeline.Quota{{Dimension: "colour", Value: "blue", Min: ip(1)}}
		}, `unknown dimension "colour"`},
		{"unknown strategy", func(c *selection.Config) {
			b := c.Benchmarks["ccb_tac"]
			b.Strategy = "random"
			c.Benchmarks["ccb_tac"] = b
		}, `benchmark ccb_tac: strategy "random"`},
		{"bad take", func(c *selection.Config) {
			b := c.Benchmarks["ccb_tac"]
			b.Take = "many"
			c.Benchmarks["ccb_tac"] = b
		}, `take "many"`},
		{"negative take", func(c *selection.Config) {
			b := c.Benchmarks["ccb_pytorch"]
			b.Take = int64(-2)
			c.Benchmarks["ccb_pytorch"] = b
		}, `take -2`},
	}
	for _, tc := range bad {
		t.Run(tc.name, func(t *testing.T) {
			cfg := ccbConfig(t)
			tc.edit(&cfg)
			_, err := selection.NewSolver(tasks, cfg)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
		})
	}
	s, _ := selection.NewSolver(tasks, ccbConfig(t))
	if err := s.SetBudget(0); err == nil {
		t.Error("SetBudget(0) accepted")
	}
	if err := s.SetQuota(5, pipeline.Quota{Dimension: "language", Value: "go", Min: ip(1)}); err == nil {
		t.Error("quota index out of range accepted")
	}
}

func TestShortfallIsReportedNotAnError(t *testing.T) {
	tasks := seedCatalog(t)
	cfg := ccbConfig(t)
	b := cfg.Benchmarks["ccb_sweperf"]
	b.Take = int64(10)
	cfg.Benchmarks["ccb_sweperf"] = b
	r := solve(t, tasks, cfg)
	if len(r.Shortfalls) != 1 || r.Shortfalls[0] != (selection.Shortfall{Benchmark: "ccb_sweperf", Take: 10, Available: 3, Short: 7}) {
		t.Fatalf("shortfalls %+v", r.Shortfalls)
	}
	if len(r.Picks) != 116 {
		t.Errorf("selected %d", len(r.Picks))
	}
}

func TestBudgetScalesCountedTakesFirst(t *testing.T) {
	tasks := seedCatalog(t)
	cfg := ccbConfig(t)
	cfg.Budget = ip(70)
	r := solve(t, tasks, cfg)
	per := map[string]int{}
	for _, p := range r.Picks {
		per[p.Task.Benchmark]++
	}
	if len(r.Picks) != 70 || per["ccb_tac"] != 8 || per["ccb_largerepo"] != 4 {
		t.Fatalf("budget 70: %d picks, %v", len(r.Picks), per)
	}
	cfg.Budget = ip(200)
	r = solve(t, tasks, cfg)
	fill := 0
	for _, p := range r.Picks {
		if strings.HasPrefix(p.Rationale, "budget fill") {
			fill++
		}
	}
	if len(r.Picks) != 200 || fill != 84 {
		t.Fatalf("budget 200: %d picks, %d fill", len(r.Picks), fill)
	}
}

func TestProportionalAllocation(t *testing.T) {
	var tasks []*pipeline.Task
	for g, n := range map[string]int{"a/big": 10, "b/mid": 5, "c/one": 1} {
		for i := 0; i < n; i++ {
			tk := &pipeline.Task{ID: fmt.Sprintf("%s-%02d", g, i), Benchmark: "x", Repo: g, Language: "go", Status: pipeline.StatusImported}
			tk.Features.Set(pipeline.FeatFilesChanged, float64(i), "t")
			tasks = append(tasks, tk)
		}
	}
	cfg := selection.Config{Benchmarks: map[string]selection.Benchmark{
		"x": {Take: int64(8), Strategy: "proportional", Key: "repo", MinPerGroup: 1, Sort: []string{"-files_changed"}},
	}}
	r := solve(t, tasks, cfg)
	per := map[string]int{}
	for _, p := range r.Picks {
		per[p.Task.Repo]++
	}
	// mins 1+1+1, rest 5: floors 3, 1, 0, remainder 1 to the largest
	if want := map[string]int{"a/big": 5, "b/mid": 2, "c/one": 1}; !reflect.DeepEqual(per, want) {
		t.Fatalf("allocation %v, want %v", per, want)
	}
	if r.Picks[0].Task.ID != "a/big-09" {
		t.Errorf("within-group order: first pick %s, want the most files changed", r.Picks[0].Task.ID)
	}
}

func TestWhereRestrictsCandidatesAndDefaultBudget(t *testing.T) {
	tasks := seedCatalog(t)
	cfg := ccbConfig(t)
	b := cfg.Benchmarks["ccb_tac"]
	b.Where = "category=implement"
	cfg.Benchmarks["ccb_tac"] = b
	r := solve(t, tasks, cfg)
	tac := 0
	for _, p := range r.Picks {
		if p.Task.Benchmark == "ccb_tac" {
			tac++
			if p.Task.Category != "implement" {
				t.Errorf("%s passed where", p.Task.ID)
			}
		}
	}
	if tac != 2 || len(r.Picks) != 110 {
		t.Errorf("tac %d, total %d; want 2 and 110", tac, len(r.Picks))
	}
}

func fp(f float64) *float64 { return &f }

func TestQuotaTargetsAndShares(t *testing.T) {
	tasks := seedCatalog(t)
	tests := []struct {
		q    pipeline.Quota
		want func(n int) bool
	}{
		{pipeline.Quota{Dimension: "language", Value: "go", Target: ip(20)}, func(n int) bool { return n == 20 }},
		{pipeline.Quota{Dimension: "sdlc_phase", Value: "Implementation (bug fix)", MaxShare: fp(0.25)}, func(n int) bool { return n <= 29 }},
		{pipeline.Quota{Dimension: "difficulty", Value: "medium", MinShare: fp(0.2)}, func(n int) bool { return n >= 24 }},
		{pipeline.Quota{Dimension: "repo", Value: "ansible/ansible", Max: ip(1)}, func(n int) bool { return n == 1 }},
		{pipeline.Quota{Dimension: "category", Value: "debugging", Min: ip(40)}, func(n int) bool { return n >= 40 }},
	}
	for _, tc := range tests {
		cfg := ccbConfig(t)
		cfg.Quotas = []pipeline.Quota{tc.q}
		r := solve(t, tasks, cfg)
		n := 0
		for _, p := range r.Picks {
			if selection.Value(p.Task, tc.q.Dimension) == tc.q.Value {
				n++
			}
		}
		if !r.Feasible || !tc.want(n) || len(r.Picks) != 116 {
			t.Errorf("%s: %d selected, feasible %v %+v", selection.QuotaLabel(tc.q), n, r.Feasible, r.Violations)
		}
	}
}

func TestInteractingQuotas(t *testing.T) {
	tasks := seedCatalog(t)
	cfg := ccbConfig(t)
	cfg.Quotas = []pipeline.Quota{
		{Dimension: "language", Value: "go", Min: ip(30)},
		{Dimension: "benchmark", Value: "ccb_swebenchpro", Max: ip(36)},
		{Dimension: "benchmark", Value: "ccb_tac", Min: ip(8)},
	}
	r := solve(t, tasks, cfg)
	if !r.Feasible {
		t.Fatalf("violations %+v", r.Violations)
	}
	for _, q := range r.Quotas {
		if !q.Met {
			t.Errorf("%+v", q)
		}
	}
}
