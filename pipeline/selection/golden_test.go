package selection_test

import (
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"curate/internal/fixtures"
	"curate/pipeline"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden")

// TestGoldenSelection pins the exact selection (ids, order, rationales) of
// a fixed catalogue with fixed scores, so a platform or Go version that
// chose differently fails here. Scores are synthetic so that rule changes
// in the score profile do not move it; regenerate with -update.
func TestGoldenSelection(t *testing.T) {
	tasks := fixtures.Catalog(fixtures.SeedSpec, 1)
	for i, tk := range tasks {
		tk.Score = float64((i*7919)%1000) / 1000
		tk.SDLCPhase = pipeline.SDLCPhases[i%len(pipeline.SDLCPhases)]
	}
	cfg := ccbConfig(t)
	cfg.Quotas = []pipeline.Quota{{Dimension: "language", Value: "rust", Min: ip(14)}}
	r := solve(t, tasks, cfg)
	var b strings.Builder
	for _, p := range r.Picks {
		fmt.Fprintf(&b, "%s\t%s\n", p.Task.ID, p.Rationale)
	}
	fmt.Fprintf(&b, "total %.4f bound %.4f\n", r.TotalScore, r.UpperBound)
	sum := sha256.Sum256([]byte(b.String()))
	got := hex.EncodeToString(sum[:]) + "\n"
	path := filepath.Join("testdata", "seed_selection.golden")
	if *update {
		os.MkdirAll("testdata", 0o755)
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if got != string(want) {
		text := b.String()
		if len(text) > 3000 {
			text = text[:3000]
		}
		t.Errorf("selection digest %s, golden %s; the selection changed:\n%s", strings.TrimSpace(got), strings.TrimSpace(string(want)), text)
	}
}
