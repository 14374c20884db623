package diffview

import (
	"testing"

	"curate/pipeline/unidiff"
	"curate/ui/uitest"
)

// BenchmarkDiffOpen20k: parse a 20,000-line patch, lay it out and render
// the first screen.
func BenchmarkDiffOpen20k(b *testing.B) {
	text := uitest.BigPatch(20000)
	st := uitest.Styles(b, "dark")
	b.SetBytes(int64(len(text)))
	b.ResetTimer()
	defer uitest.ReportCPU(b)()
	for i := 0; i < b.N; i++ {
		files, err := unidiff.Parse("big.patch", text)
		if err != nil {
			b.Fatal(err)
		}
		d := New(files, false, 160, st)
		for r := 0; r < 43; r++ {
			d.Render(r)
		}
	}
}
