package task

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"curate/app"
	"curate/pipeline"
	"curate/ui/components/frame"
)

// sideBySide is the width from which the statement and its summary (flags,
// interface, FAIL_TO_PASS, the fix's files) stand side by side.
const sideBySide = 140

// instructionWidth is the width the instruction is rendered to: half the
// screen when the summary stands beside it.
func (s *Model) instructionWidth() int {
	if s.w >= sideBySide {
		return max(s.w/2-4, 20)
	}
	return max(s.w-4, 20)
}

// statementRows are the Statement section (the instruction as the agent
// reads it) and the summary that checks it, side by side when wide.
func (s *Model) statementRows(t *pipeline.Task, w int) []string {
	st := s.ctx.Styles
	left := []string{st.Title.Render("Statement")}
	switch {
	case s.data == nil:
		left = append(left, st.Muted.Render("  loading…"))
	case s.data.instruction == "":
		left = append(left, st.Muted.Render("  (none)"))
	default:
		from := "  from " + s.data.source
		if src := pipeline.InstructionSource(t); src != "" {
			from += " · text from " + frame.CleanLine(src)
		}
		left = append(left, st.Muted.Render(from+" · e edits"))
		if rows, ok := s.rendered[s.renderKey()]; ok {
			left = append(left, rows...)
		} else {
			left = append(left, preview(s.data.instruction, s.instructionWidth())...)
		}
	}
	right := s.summaryRows(t, w)
	if w < sideBySide {
		return append(append(left, ""), right...)
	}
	lw := w / 2
	rw := w - lw - 1
	var out []string
	for i := 0; i < max(len(left), len(right)); i++ {
		l, r := "", ""
		if i < len(left) {
			l = ansi.Truncate(left[i], lw, "…")
		}
		if i < len(right) {
			r = ansi.Truncate(right[i], rw, "…")
		}
		out = append(out, l+strings.Repeat(" ", max(lw-ansi.StringWidth(l), 0))+" "+r)
	}
	return out
}

// summaryRows: the statement's flags, the Interface names, the
// FAIL_TO_PASS tests and the fix's files.
func (s *Model) summaryRows(t *pipeline.Task, w int) []string {
	st := s.ctx.Styles
	var out []string
	flags := pipeline.StatementFlags(t)
	if len(flags) == 0 {
		out = append(out, st.Muted.Render("flags      ")+st.Good.Render("none"))
	} else {
		out = append(out, st.Muted.Render("flags      ")+st.Bad.Render(frame.CleanLine(strings.Join(flags, ", "))))
	}
	if why := pipeline.ExtraStrings(t, pipeline.ExtraUnderspecified); len(why) > 0 {
		out = append(out, st.Muted.Render("unsaid     ")+st.Warn.Render(frame.CleanLine(strings.Join(why, "; "))))
	}
	if ds := app.TaskInterface(t); len(ds) > 0 {
		out = append(out, st.Title.Render(fmt.Sprintf("Interface (%d)", len(ds))))
		for _, d := range ds {
			out = append(out, "  "+frame.CleanLine(strings.ReplaceAll(d.Signature, "\n", " ")))
		}
	}
	f2p := pipeline.ExtraStrings(t, "FAIL_TO_PASS")
	out = append(out, st.Title.Render(fmt.Sprintf("FAIL_TO_PASS (%d)", len(f2p))))
	if len(f2p) == 0 {
		out = append(out, st.Muted.Render("  not validated yet"))
	}
	reqs, strict := app.TaskRequirements(t), app.TaskStrictTests(t)
	for i, n := range f2p {
		if i == 8 {
			out = append(out, st.Muted.Render(fmt.Sprintf("  … %d more", len(f2p)-i)))
			break
		}
		out = append(out, "  "+frame.CleanLine(n))
		out = append(out, checkedRows(n, reqs, strict, s.ctx.Styles)...)
	}
	for _, d := range t.Labels.DroppedTests() {
		out = append(out, st.Warn.Render("  dropped "+frame.CleanLine(d.Test)+" ("+frame.CleanLine(d.Reason)+")"))
	}
	files := fixFiles(t)
	out = append(out, st.Title.Render(fmt.Sprintf("Fix files (%d)", len(files))))
	for i, f := range files {
		if i == 8 {
			out = append(out, st.Muted.Render(fmt.Sprintf("  … %d more", len(files)-i)))
			break
		}
		out = append(out, "  "+f)
	}
	return out
}

// fixFiles are the PR's non-test files with their line counts.
func fixFiles(t *pipeline.Task) []string {
	var out []string
	list, _ := t.Extra["files"].([]any)
	for _, x := range list {
		m, _ := x.(map[string]any)
		if test, _ := m["test"].(bool); test || m == nil {
			continue
		}
		p, _ := m["path"].(string)
		a, _ := m["added"].(float64)
		r, _ := m["removed"].(float64)
		out = append(out, fmt.Sprintf("%s +%d -%d", frame.CleanLine(p), int(a), int(r)))
	}
	return out
}
