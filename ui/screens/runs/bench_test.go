package runs

import (
	"fmt"
	"runtime"
	"testing"

	"curate/internal/fixtures"
	"curate/pipeline"
	"curate/ui/components/logpane"
	"curate/ui/shared"
	"curate/ui/uitest"
)

// BenchmarkLogPane10kLinesPerSecond is one 60 Hz frame of a run printing
// 10,000 lines a second: a batch of 167 lines through the Runs screen's
// Update, then its View. It reports the heap after the
// run: the ring keeps memory flat however long the log.
func BenchmarkLogPane10kLinesPerSecond(b *testing.B) {
	c := uitest.Context(b, "dark", nil)
	c.Catalog = shared.NewCatalog(fixtures.Large(50), nil)
	c.Active = shared.TabRuns
	s := New(c)
	s.SetSize(160, 43)
	s.entries = []*runEntry{{key: "r", run: pipeline.Run{ID: "r-bench", TaskID: "bench", Mode: "nop"}, state: runRunning}}
	s.entries[0].log = logpane.New()
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
		s.Update(logBatchMsg{id: "r-bench", lines: batch, ok: true})
		_ = s.View()
	}
	b.StopTimer()
	if p := s.entries[0].log; p.Held() > logpane.RingLines {
		b.Fatalf("ring holds %d lines", p.Held())
	}
	b.ReportMetric(float64(n), "lines")
	b.ReportMetric(heap(), "heap-MB")
}
