package diff

import (
	"strings"
	"testing"

	"curate/ui/shared"
	"curate/ui/uitest"
)

// openDiff shows task id's patches on a fresh test workspace at w×h.
func openDiff(t *testing.T, id string, w, h int) (*uitest.Host, *Model) {
	t.Helper()
	ws := uitest.Workspace(t)
	c := uitest.Context(t, "dark", ws)
	s := New(c)
	x := uitest.NewHost(t, c, shared.TabDiff, s, w, h)
	x.Current(t, id)
	return x, s
}

func TestDiffScreenPatchesAndViews(t *testing.T) {
	a, s := openDiff(t, "fixture-calc", 160, 40)
	if s.kind != patchFix || s.doc == nil || len(s.doc.Files()) != 2 {
		t.Fatalf("fix.patch not shown first: kind %d doc %v", s.kind, s.doc)
	}
	v := uitest.Plain(s.View())
	for _, want := range []string{"fix.patch +5 -4", "calc/total.py  +2 -2", "calc/money.go  +3 -2", "unified", "@@ -1,9 +1,9 @@"} {
		if !strings.Contains(v, want) {
			t.Errorf("diff view lacks %q:\n%s", want, v)
		}
	}
	a.Press(t, "b")
	if s.kind != patchBug || len(s.doc.Files()) != 1 {
		t.Fatalf("b: kind %d", s.kind)
	}
	a.Press(t, "t")
	if s.kind != patchTests || len(s.doc.Files()) != 2 || s.doc.Files()[0].Name() != "tests/test.sh" {
		t.Fatalf("t: %+v", s.doc.Files())
	}
	// tests/ files show as added files; each hunk header counts its lines.
	if v := uitest.Plain(s.View()); !strings.Contains(v, "@@ -0,0 +1,") || strings.Contains(v, "+1,0 @@") {
		t.Errorf("hunk header of an added file:\n%s", v)
	}
	a.Press(t, "F", "S")
	if !s.sideBySide || !strings.Contains(uitest.Plain(s.View()), "side by side") {
		t.Fatal("S did not switch to side by side")
	}
	a.Press(t, "S")
	if s.sideBySide {
		t.Fatal("S did not switch back")
	}
}

func TestDiffJumps(t *testing.T) {
	a, s := openDiff(t, "fixture-calc", 160, 8)
	hunks := s.doc.HunkRows()
	if len(hunks) != 3 || len(s.doc.FileRows()) != 2 {
		t.Fatalf("hunks %v files %v", hunks, s.doc.FileRows())
	}
	a.Press(t, "]")
	if s.scroll.Offset != hunks[0] {
		t.Fatalf("] → %d, want %d", s.scroll.Offset, hunks[0])
	}
	a.Press(t, "]")
	if s.scroll.Offset != hunks[1] {
		t.Fatalf("] ] → %d, want %d", s.scroll.Offset, hunks[1])
	}
	a.Press(t, "[")
	if s.scroll.Offset != hunks[0] {
		t.Fatalf("[ → %d, want %d", s.scroll.Offset, hunks[0])
	}
	a.Press(t, "}")
	if s.scroll.Offset != s.doc.FileRows()[1] || s.doc.FileAt(s.scroll.Offset) != 1 {
		t.Fatalf("} → %d", s.scroll.Offset)
	}
	a.Press(t, "{")
	if s.scroll.Offset != 0 {
		t.Fatalf("{ → %d", s.scroll.Offset)
	}
	a.Press(t, "G")
	if s.scroll.Offset != s.doc.Len()-s.bodyHeight() {
		t.Fatalf("G → %d", s.scroll.Offset)
	}
}

func TestDiffNoTaskDir(t *testing.T) {
	_, s := openDiff(t, "sgt-001", 100, 20)
	if v := uitest.Plain(s.View()); !strings.Contains(v, "no task dir (not built yet)") {
		t.Errorf("view:\n%s", v)
	}
}

func TestDiffHorizontalScroll(t *testing.T) {
	a, s := openDiff(t, "fixture-calc", 80, 30)
	before := uitest.Plain(s.View())
	if !strings.Contains(before, "quantize(Decimal") {
		t.Fatalf("long line start not shown:\n%s", before)
	}
	a.Press(t, ">", ">")
	v := uitest.Plain(s.View())
	if s.doc.HScroll() != 16 || !strings.Contains(v, `"0.01"))`) {
		t.Fatalf("after > >: hscroll %d\n%s", s.doc.HScroll(), v)
	}
	a.Press(t, "<", "<", "<")
	if s.doc.HScroll() != 0 {
		t.Errorf("< past the start: %d", s.doc.HScroll())
	}
}
