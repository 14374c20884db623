package selection_test

import (
	"testing"

	"curate/internal/fixtures"
	"curate/pipeline"
	"curate/pipeline/profiles"
	"curate/pipeline/score"
)

// seedCatalog is fixtures.SeedSpec scored by the ccb profile's real scorer.
func seedCatalog(t testing.TB) []*pipeline.Task { return seedCatalogWith(t, 1) }

func seedCatalogWith(t testing.TB, seed uint64) []*pipeline.Task {
	t.Helper()
	p, err := profiles.Load("ccb", "")
	if err != nil {
		t.Fatal(err)
	}
	sc, err := score.Compile(p.Score)
	if err != nil {
		t.Fatal(err)
	}
	tasks := fixtures.Catalog(fixtures.SeedSpec, seed)
	for _, tk := range tasks {
		sc.Apply(tk)
	}
	return tasks
}
