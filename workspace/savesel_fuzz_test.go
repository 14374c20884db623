package workspace

import (
	"os"
	"path/filepath"
	"testing"

	"curate/pipeline"
)

// FuzzSaveSelection: whatever curate.toml holds, saving either refuses and
// leaves the file alone, or writes a file that loads strictly and reads
// back the budget and quotas written.
func FuzzSaveSelection(f *testing.F) {
	f.Add(DefaultConfigText, "go")
	f.Add("[selection]\nquotas = [\n { dimension = \"language\", value = \"x]\" },\n]\n[[selection.quotas]]\ndimension = \"language\"\nvalue = \"y\"\n", "a\"b\\c")
	f.Add("selection.budget = 3\n", "\x1b[31m")
	f.Add("[selection] # c\nbudget = 2 # [\n[ui]\nmouse = true\n", "")
	f.Fuzz(func(t *testing.T, text, value string) {
		path := filepath.Join(t.TempDir(), "curate.toml")
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		n := 5
		qs := []pipeline.Quota{{Dimension: "language", Value: value, Min: &n}}
		err := SaveSelection(path, &n, qs)
		data, _ := os.ReadFile(path)
		if err != nil {
			if string(data) != text {
				t.Fatalf("refused (%v) but changed the file", err)
			}
			return
		}
		cfg, err := ParseConfig(path, data)
		if err != nil {
			t.Fatalf("saved a file that does not load: %v\n%s", err, data)
		}
		if cfg.Selection.Budget == nil || *cfg.Selection.Budget != 5 || !sameQuotas(cfg.Selection.Quotas, qs) {
			t.Fatalf("read back %+v", cfg.Selection)
		}
	})
}
