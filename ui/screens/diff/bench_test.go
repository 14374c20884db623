package diff

import (
	"testing"

	"curate/pipeline/unidiff"
	"curate/ui/shared"
	"curate/ui/uitest"
)

// BenchmarkDiffScrollPage: one page down in a 20,000-line patch, the new
// rows highlighted (cache misses: each page is new).
func BenchmarkDiffScrollPage(b *testing.B) {
	files, err := unidiff.Parse("big.patch", uitest.BigPatch(20000))
	if err != nil {
		b.Fatal(err)
	}
	c := uitest.Context(b, "dark", nil)
	c.Active = shared.TabDiff
	s := New(c)
	s.SetSize(160, 43)
	s.id = "big"
	s.patches[patchFix] = &patchSet{files: files}
	s.relayout()
	pg := shared.KeyMsg("pgdown")
	b.ResetTimer()
	defer uitest.ReportCPU(b)()
	for i := 0; i < b.N; i++ {
		if s.scroll.Offset >= s.doc.Len()-s.bodyHeight() {
			s.scroll.Offset = 0
			s.doc.SetHScroll(1) // drops the rendered rows
			s.doc.SetHScroll(0)
		}
		s.Update(pg)
		_ = s.View()
	}
}
