package quotas

import (
	"testing"

	"curate/internal/fixtures"
	"curate/pipeline"
	"curate/pipeline/profiles"
	"curate/ui/shared"
	"curate/ui/uitest"
	"curate/workspace"
)

// BenchmarkQuotaNudge835 is one keypress on the Quotas screen over 835
// tasks: nudge a quota's min, re-solve, redraw the bars (its View).
func BenchmarkQuotaNudge835(b *testing.B) {
	tasks := fixtures.Large(835)
	for i, t := range tasks {
		t.Score = float64((i*7919)%1000) / 1000
	}
	c := uitest.Context(b, "dark", nil)
	c.Catalog = shared.NewCatalog(tasks, nil)
	c.Active = shared.TabQuotas
	q := New(c)
	q.SetSize(160, 43)
	p, err := profiles.Load("ccb", "")
	if err != nil {
		b.Fatal(err)
	}
	twenty := 20
	q.SetSelection(p.Selection, workspace.SelectionConfig{Quotas: []pipeline.Quota{{Dimension: "language", Value: "rust", Min: &twenty}}})
	for i, r := range q.rows {
		if r.dim == "language" && r.value == "rust" {
			q.list.Cursor = i
		}
	}
	if q.res == nil || q.rows[q.list.Cursor].value != "rust" {
		b.Fatalf("no solve or no rust row: %s", q.err)
	}
	up, down := shared.KeyMsg("+"), shared.KeyMsg("-")
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		k := up
		if i%2 == 1 {
			k = down
		}
		q.Update(k)
		_ = q.View()
	}
	b.StopTimer()
	if !q.res.Feasible {
		b.Fatalf("infeasible: %v", q.res.Violations)
	}
}
