package selection_test

import (
	"os"
	"path/filepath"
	"testing"

	"curate/pipeline/profiles"
)

// An override file that changes one number of one benchmark keeps the
// rest of that benchmark's rule from the embedded profile.
func TestProfileOverrideKeepsOtherFields(t *testing.T) {
	path := filepath.Join(t.TempDir(), "mine.toml")
	os.WriteFile(path, []byte("[selection.benchmarks.ccb_pytorch]\ntake = 10\n"), 0o644)
	p, err := profiles.Load("ccb", path)
	if err != nil {
		t.Fatal(err)
	}
	b := p.Selection.Benchmarks["ccb_pytorch"]
	if b.Take != int64(10) || b.Strategy != "top" || len(b.Sort) != 2 {
		t.Fatalf("override: %+v", b)
	}
	if err := p.Selection.Validate(); err != nil {
		t.Fatal(err)
	}
}
