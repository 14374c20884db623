package ui

import (
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"curate/internal/fixtures"
	"curate/ui/uitest"
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
	defer uitest.ReportCPU(b)()
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
	defer uitest.ReportCPU(b)()
	for i := 0; i < b.N; i++ {
		j := i % (len(word) + 1)
		if j == len(word) { // clear and start again, off the clock
			b.StopTimer()
			a.Update(keyMsg("esc")) // clears the filter
			a.Update(keyMsg("/"))
			b.StartTimer()
			continue
		}
		a.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{rune(word[j])}})
		_ = a.View()
	}
}
