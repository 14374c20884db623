package ui

import (
	"fmt"
	"runtime"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"curate/internal/fixtures"
	"curate/pipeline"
	"curate/pipeline/profiles"
	"curate/workspace"
)

// BenchmarkLogPane10kLinesPerSecond is one 60 Hz frame of a run printing
// 10,000 lines a second: a batch of 167 lines through the Runs screen's
// Update, then the whole workbench View. It reports the heap after the
// run: the ring keeps memory flat however long the log.
func BenchmarkLogPane10kLinesPerSecond(b *testing.B) {
	keys, _ := NewKeyMap(nil)
	a := New(Options{Context: &Context{Styles: testStyles(b, "dark"), Keys: keys, Width: 160, Height: 45},
		Catalog: NewCatalog(fixtures.Large(50), nil)})
	a.Update(tea.WindowSizeMsg{Width: 160, Height: 45})
	a.switchTab(tabRuns)
	s := a.runs
	s.entries = []*runEntry{{key: "r", run: pipeline.Run{ID: "r-bench", TaskID: "bench", Mode: "nop"}, state: runRunning}}
	s.entries[0].log = newLogPane()
	s.sizeLogs()
	const perFrame = 10000 / 60
	batch := make([]string, perFrame)
	n := 0
	heap := func() float64 {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return float64(m.HeapAlloc) / (1 << 20)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for j := range batch {
			n++
			batch[j] = fmt.Sprintf("%08d PASSED tests/test_module_%d.py::test_case_%d - a line of typical pytest output", n, n%97, n)
		}
		a.Update(logBatchMsg{id: "r-bench", lines: batch, ok: true})
		_ = a.View()
	}
	b.StopTimer()
	if p := s.entries[0].log; p.n > logRingLines {
		b.Fatalf("ring holds %d lines", p.n)
	}
	b.ReportMetric(float64(n), "lines")
	b.ReportMetric(heap(), "heap-MB")
}

// BenchmarkQuotaNudge835 is one keypress on the Quotas screen over 835
// tasks: nudge a quota's min, re-solve, redraw the bars (the full View).
func BenchmarkQuotaNudge835(b *testing.B) {
	tasks := fixtures.Large(835)
	for i, t := range tasks {
		t.Score = float64((i*7919)%1000) / 1000
	}
	keys, _ := NewKeyMap(nil)
	a := New(Options{Context: &Context{Styles: testStyles(b, "dark"), Keys: keys, Width: 160, Height: 45}, Catalog: NewCatalog(tasks, nil)})
	a.Update(tea.WindowSizeMsg{Width: 160, Height: 45})
	p, err := profiles.Load("ccb", "")
	if err != nil {
		b.Fatal(err)
	}
	a.switchTab(tabQuotas)
	twenty := 20
	a.quotas.SetSelection(p.Selection, workspace.SelectionConfig{Quotas: []pipeline.Quota{{Dimension: "language", Value: "rust", Min: &twenty}}})
	q := a.quotas
	for i, r := range q.rows {
		if r.dim == "language" && r.value == "rust" {
			q.cursor = i
		}
	}
	if q.res == nil || q.rows[q.cursor].value != "rust" {
		b.Fatalf("no solve or no rust row: %s", q.err)
	}
	up, down := keyMsg("+"), keyMsg("-")
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		k := up
		if i%2 == 1 {
			k = down
		}
		a.Update(k)
		_ = a.View()
	}
	b.StopTimer()
	if !q.res.Feasible {
		b.Fatalf("infeasible: %v", q.res.Violations)
	}
}
