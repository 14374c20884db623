package candidates

import (
	"testing"

	"curate/internal/fixtures"
	"curate/ui/shared"
	"curate/ui/uitest"
)

// BenchmarkFilterExpression100k: an expression filter over 100,000 tasks.
func BenchmarkFilterExpression100k(b *testing.B) {
	c := uitest.Context(b, "dark", nil)
	c.Catalog = shared.NewCatalog(fixtures.Large(100000), nil)
	s := New(c)
	s.SetSize(160, 43)
	b.ResetTimer()
	defer uitest.ReportCPU(b)()
	for i := 0; i < b.N; i++ {
		s.filterText = "language=go,python loc>50"
		if i%2 == 1 {
			s.filterText = "language=go,python loc>5"
		}
		s.prevText = "\x00"
		s.refilter()
		_ = s.View()
	}
}
