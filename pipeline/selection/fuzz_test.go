package selection_test

import (
	"bytes"
	"testing"

	"github.com/pelletier/go-toml/v2"

	"curate/internal/fixtures"
	"curate/pipeline/selection"
)

// FuzzConfig feeds arbitrary [selection] TOML (curate.toml and profile
// overrides come from users) through strict decoding, validation and a
// solve: no panic, and a valid config gives a set within its budget with
// no task twice.
func FuzzConfig(f *testing.F) {
	f.Add([]byte(`[selection]
budget = 20
[selection.benchmarks.ccb_swebenchpro]
take = 10
strategy = "proportional"
key = "repo"
min_per_group = 1
sort = ["-files_changed"]
[[selection.benchmarks.ccb_swebenchpro.top_up]]
key = "language"
values = ["go"]
min = 3
[selection.benchmarks.ccb_tac]
take = "all"
strategy = "all"
`))
	f.Add([]byte(`[selection]
quotas = [{ dimension = "language", value = "go", min = 4, max_share = 0.5 }]
[selection.benchmarks.ccb_locobench]
take = 5
strategy = "priority"
key = "category"
order = ["bug_investigation"]
[selection.benchmarks.ccb_dibench]
strategy = "per_value"
key = "language"
per_value = 1
values = ["rust", "python"]
diverse = "repo"
where = "files<=1"
`))
	f.Add([]byte("[selection]\nbudget = -3\n"))
	tasks := fixtures.Catalog(fixtures.Spec{"ccb_swebenchpro": 40, "ccb_tac": 8, "ccb_locobench": 20, "ccb_dibench": 12}, 2)
	f.Fuzz(func(t *testing.T, data []byte) {
		var doc struct {
			Selection selection.Config `toml:"selection"`
		}
		if toml.NewDecoder(bytes.NewReader(data)).DisallowUnknownFields().Decode(&doc) != nil {
			return
		}
		s, err := selection.NewSolver(tasks, doc.Selection)
		if err != nil {
			return
		}
		r, err := s.Solve()
		if err != nil {
			return
		}
		seen := map[string]bool{}
		for _, p := range r.Picks {
			if seen[p.Task.ID] {
				t.Fatalf("%s selected twice", p.Task.ID)
			}
			seen[p.Task.ID] = true
			if p.Rationale == "" {
				t.Fatalf("%s has no rationale", p.Task.ID)
			}
		}
		if len(r.Picks) > r.Budget {
			t.Fatalf("%d picks over budget %d", len(r.Picks), r.Budget)
		}
	})
}
