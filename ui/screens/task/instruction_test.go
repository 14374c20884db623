package task

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"

	"curate/pipeline"
)

// A 60 MB one-line instruction: the screen keeps at most instructionCap
// bytes of it, lays it out as plain rows no wider than the screen, and the
// preview before that looks at one row's worth of each line.
func TestHugeInstructionIsBounded(t *testing.T) {
	dir := t.TempDir()
	line := strings.Repeat("word ", 60<<20/5)
	if err := os.WriteFile(filepath.Join(dir, "instruction.md"), []byte(line), 0o644); err != nil {
		t.Fatal(err)
	}
	text, source := readInstruction("", &pipeline.Task{TaskDir: dir, Body: line})
	if len(text) > instructionCap || !strings.Contains(source, "the first 256 KB of 61440 KB") {
		t.Fatalf("kept %d bytes, source %q", len(text), source)
	}
	if _, source := readInstruction("", &pipeline.Task{Body: line}); !strings.Contains(source, "task body (the first 256 KB") {
		t.Errorf("a huge body is not cut: %q", source)
	}
	const w = 156
	rows, err := renderInstruction(text, w, "notty", termenv.Ascii)
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range rows {
		if ansi.StringWidth(r) > w+2 {
			t.Fatalf("row %d is %d cells wide", i, ansi.StringWidth(r))
		}
	}
	if n := len(rows); n > instructionCap/(w-10) {
		t.Errorf("%d rows for %d bytes", n, len(text))
	}
	if p := preview(line, w); len(p) != 1 || ansi.StringWidth(p[0]) > w+2 {
		t.Errorf("preview of one huge line: %d rows", len(p))
	}
}

func TestSmallMarkdownIsRendered(t *testing.T) {
	rows, err := renderInstruction("# Title\n\nSome `code` here.\n", 80, "notty", termenv.Ascii)
	if err != nil || strings.Contains(strings.Join(rows, "\n"), "`code`") {
		t.Errorf("not rendered as Markdown: %q, %v", rows, err)
	}
}
