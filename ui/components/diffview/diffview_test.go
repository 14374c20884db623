package diffview

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"curate/pipeline/unidiff"
	"curate/ui/uitest"
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

// A 10 MB one-line change renders like a short one: the rows on screen
// look at a bounded prefix of each line, wherever the view is scrolled.
func TestHugeLineRenderIsBounded(t *testing.T) {
	line := strings.Repeat("x = compute(a, b) + ", 10<<20/20)
	patch := "--- a/big.go\n+++ b/big.go\n@@ -1 +1 @@\n-" + line + "\n+" + line + "y\n"
	files, err := unidiff.Parse("big.patch", patch)
	if err != nil {
		t.Fatal(err)
	}
	const w = 160
	for _, side := range []bool{false, true} {
		d := New(files, side, w, uitest.Styles(t, "dark"))
		for _, h := range []int{0, 5000} {
			d.SetHScroll(h)
			d.examined = 0
			for i := 0; i < d.Len(); i++ {
				if got := ansi.StringWidth(d.Render(i)); got > w {
					t.Errorf("side by side %v, hscroll %d: row %d is %d cells wide", side, h, i, got)
				}
			}
			// Two code rows (each with its partner), each at most (h+w)*4+64 bytes.
			if limit := 4 * ((h+w)*4 + 64); d.examined > limit {
				t.Errorf("side by side %v, hscroll %d: rendering looked at %d bytes, more than %d", side, h, d.examined, limit)
			}
		}
	}
}
