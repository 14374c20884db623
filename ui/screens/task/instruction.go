package task

import (
	"fmt"
	"os"
	"strings"

	"github.com/charmbracelet/glamour"
	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"

	"curate/pipeline"
	"curate/pipeline/sanitize"
	"curate/pipeline/taskdir"
	"curate/ui/components/frame"
	"curate/ui/shared"
)

// The instruction's cost must not grow with a stranger's file: the screen
// shows at most instructionCap bytes of it, renders Markdown only when no
// line is long (glamour's wrapping is quadratic in a line's length), and
// shows at most previewRows rows before the layout answers.
const (
	instructionCap = 256 << 10
	markdownCap    = 64 << 10
	markdownLine   = 1 << 10
	previewRows    = 200
)

// readInstruction is the task dir's instruction.md, else the task's body:
// at most instructionCap bytes, sanitized; source says where it came
// from and whether it was cut.
func readInstruction(root string, t *pipeline.Task) (text, source string) {
	text, source, size := t.Body, "task body", len(t.Body)
	if dir := shared.TaskDirPath(root, t); dir != "" {
		if p, err := taskdir.SafeJoin(dir, "instruction.md"); err == nil {
			if fi, err := os.Lstat(p); err == nil && fi.Mode().IsRegular() {
				if data, err := shared.ReadCapped(p, instructionCap+1); err == nil {
					text, source, size = string(data), "instruction.md", int(fi.Size())
				}
			}
		}
	}
	if size > instructionCap {
		text = frame.CutBytes(text, instructionCap)
		source += fmt.Sprintf(" (the first %d KB of %d KB)", instructionCap>>10, size>>10)
	}
	return sanitize.Text(text), source
}

// renderInstruction lays text out in rows of at most width cells: as
// Markdown through glamour when it is small and has no long line, else
// as plain text wrapped at words (long words cut). It runs in a tea.Cmd.
func renderInstruction(text string, width int, style string, profile termenv.Profile) ([]string, error) {
	if markdownFits(text) {
		r, err := glamour.NewTermRenderer(glamour.WithStandardStyle(style), glamour.WithWordWrap(width), glamour.WithColorProfile(profile))
		if err != nil {
			return nil, err
		}
		out, err := r.Render(text)
		if err != nil {
			return nil, err
		}
		return strings.Split(strings.TrimRight(out, "\n"), "\n"), nil
	}
	rows := strings.Split(ansi.Wrap(text, width, ""), "\n")
	for i, r := range rows {
		rows[i] = "  " + r
	}
	return rows, nil
}

func markdownFits(text string) bool {
	if len(text) > markdownCap {
		return false
	}
	for line := range strings.SplitSeq(text, "\n") {
		if len(line) > markdownLine {
			return false
		}
	}
	return true
}

// preview is what shows until renderInstruction answers: the first rows
// of the text, each line cut to width. Its cost is bounded by previewRows
// and width, never by the text.
func preview(text string, width int) []string {
	var rows []string
	for len(rows) < previewRows && text != "" {
		line, rest, _ := strings.Cut(text, "\n")
		text = rest
		rows = append(rows, "  "+frame.Truncate(frame.CutBytes(line, 4*width+64), width))
	}
	return rows
}
