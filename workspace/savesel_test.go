package workspace

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"curate/pipeline"
)

func TestSaveSelection(t *testing.T) {
	n := func(v int) *int { return &v }
	quotas := []pipeline.Quota{{Dimension: "language", Value: "go", Min: n(3), Max: n(9)}, {Dimension: "sdlc_phase", Value: "Implementation (bug \"fix\")", Target: n(4)}}
	tests := []struct {
		name, in   string
		budget     *int
		quotas     []pipeline.Quota
		keep, gone []string
	}{
		{"default template", DefaultConfigText, n(80), quotas, []string{"# Total budget", "[ui]", "theme = \"dark\"", "# [repos.\"owner/name\"]"}, nil},
		{"replaces old keys and tables", "[workspace]\nname = \"x\" # keep\n\n[selection]\nbudget = 5\nquotas = [\n  { dimension = \"language\", value = \"a]b\", min = 1 },\n]\n\n[[selection.quotas]]\ndimension = \"language\"\nvalue = \"rust\"\nmin = 2\n\n[ui]\nmouse = false\n",
			nil, quotas[:1], []string{"name = \"x\" # keep", "mouse = false"}, []string{"budget = 5", "rust", "a]b"}},
		{"no selection table", "[ui]\nmouse = true\n", n(7), nil, []string{"[ui]", "[selection]", "budget = 7"}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "curate.toml")
			if err := os.WriteFile(path, []byte(tc.in), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := SaveSelection(path, tc.budget, tc.quotas); err != nil {
				t.Fatal(err)
			}
			cfg, err := LoadConfig(path)
			if err != nil {
				t.Fatalf("saved file does not load: %v", err)
			}
			if !sameQuotas(cfg.Selection.Quotas, tc.quotas) || (tc.budget == nil) != (cfg.Selection.Budget == nil) {
				t.Errorf("read back %+v %v", cfg.Selection.Quotas, cfg.Selection.Budget)
			}
			data, _ := os.ReadFile(path)
			for _, s := range tc.keep {
				if !strings.Contains(string(data), s) {
					t.Errorf("lost %q:\n%s", s, data)
				}
			}
			for _, s := range tc.gone {
				if strings.Contains(string(data), s) {
					t.Errorf("kept %q:\n%s", s, data)
				}
			}
		})
	}
}

func TestSaveSelectionRefusesBadResult(t *testing.T) {
	path := filepath.Join(t.TempDir(), "curate.toml")
	in := "selection.budget = 4\n" // a dotted key this editor does not rewrite
	os.WriteFile(path, []byte(in), 0o644)
	n := 9
	if err := SaveSelection(path, &n, nil); err == nil {
		t.Fatal("no error")
	}
	if data, _ := os.ReadFile(path); string(data) != in {
		t.Errorf("file changed: %q", data)
	}
}
