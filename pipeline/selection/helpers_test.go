package selection_test

import (
	"testing"

	"curate/internal/fixtures"
	"curate/pipeline"
)

// seedCatalog is fixtures.SeedSpec with synthetic scores until the scorer
// lands: a deterministic function of the task's features.
func seedCatalog(t testing.TB) []*pipeline.Task { return seedCatalogWith(1) }

func seedCatalogWith(seed uint64) []*pipeline.Task {
	tasks := fixtures.Catalog(fixtures.SeedSpec, seed)
	for i, tk := range tasks {
		tk.Score = float64((i*7919)%1000) / 1000
	}
	return tasks
}
