package ui

import (
	"fmt"
	"strings"
	"testing"

	"curate/pipeline/unidiff"
)

func openDiff(t *testing.T, a *App, id string) *DiffScreen {
	t.Helper()
	press(t, a, "/")
	typeText(t, a, id)
	press(t, a, "enter", "d")
	if a.active != tabDiff {
		t.Fatalf("d opened tab %d", a.active)
	}
	return a.screens[tabDiff].(*DiffScreen)
}

func TestDiffScreenPatchesAndViews(t *testing.T) {
	a, _ := newTestApp(t, "dark", 160, 40)
	s := openDiff(t, a, "fixture-calc")
	if s.kind != patchFix || s.doc == nil || len(s.doc.files) != 2 {
		t.Fatalf("fix.patch not shown first: kind %d doc %v", s.kind, s.doc)
	}
	v := plain(a.View())
	for _, want := range []string{"fix.patch +5 -4", "calc/total.py  +2 -2", "calc/money.go  +3 -2", "unified", "@@ -1,9 +1,9 @@"} {
		if !strings.Contains(v, want) {
			t.Errorf("diff view lacks %q:\n%s", want, v)
		}
	}
	press(t, a, "b")
	if s.kind != patchBug || len(s.doc.files) != 1 {
		t.Fatalf("b: kind %d", s.kind)
	}
	press(t, a, "t")
	if s.kind != patchTests || len(s.doc.files) != 2 || s.doc.files[0].Name() != "tests/test.sh" {
		t.Fatalf("t: %+v", s.doc.files)
	}
	press(t, a, "F", "S")
	if !s.sideBySide || !strings.Contains(plain(a.View()), "side by side") {
		t.Fatal("S did not switch to side by side")
	}
	// Side by side: the removed and the added line share a row.
	found := false
	for i := range s.doc.rows {
		r := s.doc.rows[i]
		if r.kind == rowLine && r.a != nil && r.b != nil && r.a.Kind == unidiff.Removed && r.b.Kind == unidiff.Added {
			found = true
		}
	}
	if !found {
		t.Error("no paired row in side-by-side")
	}
	press(t, a, "S")
	if s.sideBySide {
		t.Fatal("S did not switch back")
	}
}

func TestDiffJumps(t *testing.T) {
	a, _ := newTestApp(t, "dark", 160, 8)
	s := openDiff(t, a, "fixture-calc")
	hunks := s.doc.hunkRows
	if len(hunks) != 3 || len(s.doc.fileRows) != 2 {
		t.Fatalf("hunks %v files %v", hunks, s.doc.fileRows)
	}
	press(t, a, "]")
	if s.offset != hunks[0] {
		t.Fatalf("] → %d, want %d", s.offset, hunks[0])
	}
	press(t, a, "]")
	if s.offset != hunks[1] {
		t.Fatalf("] ] → %d, want %d", s.offset, hunks[1])
	}
	press(t, a, "[")
	if s.offset != hunks[0] {
		t.Fatalf("[ → %d, want %d", s.offset, hunks[0])
	}
	press(t, a, "}")
	if s.offset != s.doc.fileRows[1] || s.doc.fileAt(s.offset) != 1 {
		t.Fatalf("} → %d", s.offset)
	}
	press(t, a, "{")
	if s.offset != 0 {
		t.Fatalf("{ → %d", s.offset)
	}
	press(t, a, "G")
	if s.offset != len(s.doc.rows)-s.bodyHeight() {
		t.Fatalf("G → %d", s.offset)
	}
}

func TestDiffNoTaskDir(t *testing.T) {
	a, _ := newTestApp(t, "dark", 100, 20)
	openDiff(t, a, "sgt-001")
	if v := plain(a.View()); !strings.Contains(v, "no task dir (not built yet)") {
		t.Errorf("view:\n%s", v)
	}
}

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

// bigPatch is a patch of about n lines over 20 files.
func bigPatch(n int) string {
	var b strings.Builder
	hunks := n/20/8 + 1 // 8 lines a hunk
	for f := 0; f < 20; f++ {
		fmt.Fprintf(&b, "diff --git a/pkg/file%02d.go b/pkg/file%02d.go\n--- a/pkg/file%02d.go\n+++ b/pkg/file%02d.go\n", f, f, f, f)
		for h := 0; h < hunks; h++ {
			fmt.Fprintf(&b, "@@ -%d,6 +%d,6 @@ func f%d() {\n", h*10+1, h*10+1, h)
			fmt.Fprintf(&b, " \tx := compute(%d)\n \tif x > 0 {\n-\t\treturn x * 2\n+\t\treturn x * 3\n \t}\n \treturn 0\n", h)
			fmt.Fprintf(&b, " // line %d\n", h)
		}
	}
	return b.String()
}

func TestDiffLargePatchRendersOnlyVisible(t *testing.T) {
	files, err := unidiff.Parse("big.patch", bigPatch(20000))
	if err != nil {
		t.Fatal(err)
	}
	d := newDiffDoc(files, false, 160, testStyles(t, "dark"))
	if len(d.rows) < 20000 {
		t.Fatalf("%d rows", len(d.rows))
	}
	for i := 0; i < 40; i++ {
		d.render(i)
	}
	if len(d.cache) != 40 {
		t.Errorf("rendered %d rows for a 40-row screen", len(d.cache))
	}
}

func TestDiffHorizontalScroll(t *testing.T) {
	a, _ := newTestApp(t, "dark", 80, 30)
	s := openDiff(t, a, "fixture-calc")
	before := plain(a.View())
	if !strings.Contains(before, "quantize(Decimal") {
		t.Fatalf("long line start not shown:\n%s", before)
	}
	press(t, a, ">", ">")
	v := plain(a.View())
	if s.doc.hscroll != 16 || !strings.Contains(v, `"0.01"))`) {
		t.Fatalf("after > >: hscroll %d\n%s", s.doc.hscroll, v)
	}
	press(t, a, "<", "<", "<")
	if s.doc.hscroll != 0 {
		t.Errorf("< past the start: %d", s.doc.hscroll)
	}
}
