package ui

import (
	"syscall"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"curate/internal/fixtures"
	"curate/pipeline/unidiff"
)

// largeApp is the workbench over 100,000 synthetic tasks (no store: the
// benchmarks never label).
func largeApp(b *testing.B) *App {
	b.Helper()
	keys, _ := NewKeyMap(nil)
	a := New(Options{
		Context: &Context{Styles: testStyles(b, "dark"), Keys: keys, Name: "bench"},
		Catalog: NewCatalog(fixtures.Large(100000), nil),
	})
	a.Update(tea.WindowSizeMsg{Width: 160, Height: 45})
	return a
}

// BenchmarkKeypressFrame100k: one key (cursor down) through Update and the
// frame it renders, with 100,000 tasks in the table.
func BenchmarkKeypressFrame100k(b *testing.B) {
	a := largeApp(b)
	down, up := keyMsg("j"), keyMsg("k")
	b.ResetTimer()
	defer reportCPU(b)()
	for i := 0; i < b.N; i++ {
		k := down
		if i%200 >= 100 {
			k = up
		}
		a.Update(k)
		_ = a.View()
	}
}

// BenchmarkFilterKeystroke100k: typing a filter over 100,000 tasks, one
// keystroke (Update + View) per op; each run types "navidrome" afresh.
func BenchmarkFilterKeystroke100k(b *testing.B) {
	a := largeApp(b)
	a.Update(keyMsg("/"))
	word := "navidrome"
	b.ResetTimer()
	defer reportCPU(b)()
	for i := 0; i < b.N; i++ {
		j := i % (len(word) + 1)
		if j == len(word) { // clear and start again, off the clock
			b.StopTimer()
			a.candidates.filterInput.SetValue("")
			a.candidates.filterText = ""
			a.candidates.refilter()
			b.StartTimer()
			continue
		}
		a.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{rune(word[j])}})
		_ = a.View()
	}
}

// BenchmarkFilterExpression100k: an expression filter over 100,000 tasks.
func BenchmarkFilterExpression100k(b *testing.B) {
	a := largeApp(b)
	c := a.candidates
	b.ResetTimer()
	defer reportCPU(b)()
	for i := 0; i < b.N; i++ {
		c.filterText = "language=go,python loc>50"
		if i%2 == 1 {
			c.filterText = "language=go,python loc>5"
		}
		c.prevText = "\x00"
		c.refilter()
		_ = a.View()
	}
}

// BenchmarkDiffOpen20k: parse a 20,000-line patch, lay it out and render
// the first screen.
func BenchmarkDiffOpen20k(b *testing.B) {
	text := bigPatch(20000)
	st := testStyles(b, "dark")
	b.SetBytes(int64(len(text)))
	b.ResetTimer()
	defer reportCPU(b)()
	for i := 0; i < b.N; i++ {
		files, err := unidiff.Parse("big.patch", text)
		if err != nil {
			b.Fatal(err)
		}
		d := newDiffDoc(files, false, 160, st)
		for r := 0; r < 43; r++ {
			d.render(r)
		}
	}
}

// BenchmarkDiffScrollPage: one page down in a 20,000-line patch, the new
// rows highlighted (cache misses: each page is new).
func BenchmarkDiffScrollPage(b *testing.B) {
	files, err := unidiff.Parse("big.patch", bigPatch(20000))
	if err != nil {
		b.Fatal(err)
	}
	keys, _ := NewKeyMap(nil)
	c := &Context{Styles: testStyles(b, "dark"), Keys: keys, Catalog: NewCatalog(nil, nil), Active: tabDiff}
	s := NewDiffScreen(c)
	s.SetSize(160, 43)
	s.id = "big"
	s.patches[patchFix] = &patchSet{files: files}
	s.relayout()
	pg := keyMsg("pgdown")
	b.ResetTimer()
	defer reportCPU(b)()
	for i := 0; i < b.N; i++ {
		if s.offset >= len(s.doc.rows)-s.bodyHeight() {
			s.offset = 0
			s.doc.cache = map[int]string{}
		}
		s.Update(pg)
		_ = s.View()
	}
}

// cpuTime is the process's user+system CPU time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// reportCPU adds cpu-ns/op beside ns/op: on a shared machine wall time
// includes waiting for a core, CPU time is the work itself.
func reportCPU(b *testing.B) func() {
	start := cpuTime()
	return func() { b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op") }
}
