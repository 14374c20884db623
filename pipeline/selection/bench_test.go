package selection_test

import (
	"testing"

	"curate/internal/fixtures"
	"curate/pipeline"
	"curate/pipeline/selection"
)

// benchResolve measures one quota change and re-solve, as the workbench's
// Quotas screen does on every keypress.
func benchResolve(b *testing.B, n int) {
	tasks := fixtures.Large(n)
	for i, t := range tasks {
		t.Score = float64((i*7919)%1000) / 1000
	}
	s, err := selection.NewSolver(tasks, ccbConfig(b))
	if err != nil {
		b.Fatal(err)
	}
	if _, err := s.Solve(); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		min := 20 + i%5
		if err := s.SetQuota(0, pipeline.Quota{Dimension: "language", Value: "rust", Min: &min}); err != nil {
			b.Fatal(err)
		}
		r, err := s.Solve()
		if err != nil || !r.Feasible {
			b.Fatalf("err %v violations %v", err, r.Violations)
		}
	}
}

func BenchmarkResolveQuota835(b *testing.B)    { benchResolve(b, 835) }
func BenchmarkResolveQuota100000(b *testing.B) { benchResolve(b, 100000) }

// BenchmarkFullSolve835 is the baseline: a new solver and solve from scratch.
func BenchmarkFullSolve835(b *testing.B) {
	tasks := fixtures.Large(835)
	cfg := ccbConfig(b)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s, err := selection.NewSolver(tasks, cfg)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := s.Solve(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkResolveBudget100000 changes the total budget, which re-runs the
// strategies (on pre-sorted candidates).
func BenchmarkResolveBudget100000(b *testing.B) {
	tasks := fixtures.Large(100000)
	for i, t := range tasks {
		t.Score = float64((i*7919)%1000) / 1000
	}
	s, err := selection.NewSolver(tasks, ccbConfig(b))
	if err != nil {
		b.Fatal(err)
	}
	if _, err := s.Solve(); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := s.SetBudget(100 + i%10); err != nil {
			b.Fatal(err)
		}
		if _, err := s.Solve(); err != nil {
			b.Fatal(err)
		}
	}
}
