package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"curate/ui/uitest"
	"curate/workspace"
)

// hugeTask gives fixture-calc a 60 MB one-line instruction and a 10 MB
// one-line change in its fix.patch.
func hugeTask(t testing.TB, ws *workspace.Workspace) {
	t.Helper()
	dir := filepath.Join(ws.Root, "tasks", "fixture-calc")
	if err := os.WriteFile(filepath.Join(dir, "instruction.md"), []byte(strings.Repeat("Fix the rounding ", 60<<20/17)), 0o644); err != nil {
		t.Fatal(err)
	}
	line := strings.Repeat("total = round(amount * rate, 2) + ", 10<<20/35)
	patch := "diff --git a/calc/total.py b/calc/total.py\n--- a/calc/total.py\n+++ b/calc/total.py\n@@ -1 +1 @@\n-" + line + "\n+" + line + "0\n"
	if err := os.WriteFile(filepath.Join(dir, "solution", "fix.patch"), []byte(patch), 0o644); err != nil {
		t.Fatal(err)
	}
}

// frameOK checks a frame is the terminal's size: every row at most w cells.
func frameOK(t *testing.T, name, v string, w, h int) {
	t.Helper()
	rows := strings.Split(v, "\n")
	if len(rows) != h {
		t.Errorf("%s: %d rows, want %d", name, len(rows), h)
	}
	for i, r := range rows {
		if n := ansi.StringWidth(r); n > w {
			t.Errorf("%s: row %d is %d cells", name, i, n)
		}
	}
}

// The workbench opens a task whose instruction is one 60 MB line and
// whose fix is one 10 MB line, and answers keys with frames of its size
// (the components' tests count the bytes a frame looks at).
func TestHugeInstructionAndDiffOpen(t *testing.T) {
	for _, w := range []int{80, 160} {
		a, ws := newTestApp(t, "dark", w, 30)
		hugeTask(t, ws)
		press(t, a, "/")
		typeText(t, a, "fixture")
		press(t, a, "enter", "enter") // the statement comes first
		v := a.View()
		frameOK(t, "task", v, w, 30)
		if p := plain(v); !strings.Contains(p, "Fix the rounding Fix") {
			t.Errorf("the instruction is not shown:\n%s", p)
		}
		press(t, a, "d")
		v = a.View()
		frameOK(t, "diff", v, w, 30)
		if p := plain(v); !strings.Contains(p, "total = round(amount * rate, 2)") || !strings.Contains(p, "…") {
			t.Errorf("the long line is not shown cut:\n%s", p)
		}
		press(t, a, ">", ">", "S")
		frameOK(t, "diff side by side", a.View(), w, 30)
	}
}

// BenchmarkKeypressFrameHugeInstruction: one key (down) through Update and
// the frame it renders, on the Task screen of a task whose instruction is
// one 60 MB line.
func BenchmarkKeypressFrameHugeInstruction(b *testing.B) {
	a, ws := newTestApp(b, "dark", 160, 45)
	hugeTask(b, ws)
	press(b, a, "/")
	typeText(b, a, "fixture")
	press(b, a, "enter", "enter")
	if !strings.Contains(plain(a.View()), "Fix the rounding") {
		b.Fatal("the instruction is not shown")
	}
	b.ResetTimer()
	defer uitest.ReportCPU(b)()
	for i := 0; i < b.N; i++ {
		a.Update(downUp(i, 200))
		_ = a.View()
	}
}
