package diffview

import (
	"curate/ui/uitest"
	"curate/ui/unidiff"
	"testing"
)

func TestChangedSpan(t *testing.T) {
	cases := []struct{ a, b, want string }{
		{"return amount * 100", "return total * 100", "amount"},
		{"x = 1", "x = 2", "1"},
		{"same", "same", ""},
		{"abc", "xyz", ""},
		{"out[i] = total / n", "out[i] = total / n + extra", ""},
	}
	for _, c := range cases {
		f, to := changedSpan(c.a, c.b)
		if got := c.a[f:to]; got != c.want {
			t.Errorf("changedSpan(%q, %q) = %q, want %q", c.a, c.b, got, c.want)
		}
	}
}

func TestDiffLargePatchRendersOnlyVisible(t *testing.T) {
	files, err := unidiff.Parse("big.patch", uitest.BigPatch(20000))
	if err != nil {
		t.Fatal(err)
	}
	d := New(files, false, 160, uitest.Styles(t, "dark"))
	if len(d.rows) < 20000 {
		t.Fatalf("%d rows", len(d.rows))
	}
	for i := 0; i < 40; i++ {
		d.Render(i)
	}
	if len(d.cache) != 40 {
		t.Errorf("rendered %d rows for a 40-row screen", len(d.cache))
	}
}

func TestSideBySidePairsChangedLines(t *testing.T) {
	files, err := unidiff.Parse("p", "--- a/x.go\n+++ b/x.go\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n")
	if err != nil {
		t.Fatal(err)
	}
	d := New(files, true, 80, uitest.Styles(t, "dark"))
	found := false
	for _, r := range d.rows {
		if r.kind == rowLine && r.a != nil && r.b != nil && r.a.Kind == unidiff.Removed && r.b.Kind == unidiff.Added {
			found = true
		}
	}
	if !found {
		t.Error("no paired row in side-by-side")
	}
}
