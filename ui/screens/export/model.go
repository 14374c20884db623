// Package export is the Export screen: the Quotas screen's solve written
// in the chosen formats, with a report preview.
package export

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/glamour"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"

	"curate/app"
	"curate/pipeline"
	"curate/pipeline/export"
	"curate/pipeline/sanitize"
	"curate/pipeline/selection"
	"curate/ui/components/form"
	"curate/ui/components/frame"
	"curate/ui/components/scroller"
	"curate/ui/shared"
)

// Model exports the Quotas screen's current solve (Context.Solve): it saves the solve
// as a named selection (as `curate select` does), then writes each chosen
// format through pipeline/export, one format per step, with progress.
type Model struct {
	ctx *shared.Context
	svc *shared.Services

	chosen  map[string]bool
	field   int // format under the cursor
	dest    string
	editing bool
	input   textinput.Model

	// allow lets harbor and swebench write tasks not validated valid.
	allow bool

	// a running export and the last one's results
	job     *shared.LongJob
	cancel  context.CancelFunc
	name    string
	results []app.FormatResult
	errText string

	preview    map[string]string // glamour output by solve, width, theme
	previewErr string
	scroll     scroller.Model
	w, h       int
}

type (
	exportDoneMsg struct {
		out *app.ExportOutcome
		err error
	}
	exportPreviewMsg struct {
		key, text string
		err       error
	}
)

func (exportDoneMsg) Target() shared.TabID    { return shared.TabExport }
func (exportPreviewMsg) Target() shared.TabID { return shared.TabExport }

// New makes the Export screen.
func New(c *shared.Context) *Model {
	in := form.NewInput()
	in.Prompt = "destination: "
	dest := "export"
	if c.Root != "" {
		dest = filepath.Join(c.Root, "export")
	}
	return &Model{ctx: c, svc: c.Services, input: in, dest: dest,
		chosen: map[string]bool{"manifest": true, "report": true, "csv": true}, preview: map[string]string{}}
}

func (s *Model) Title() string    { return "Export" }
func (s *Model) Init() tea.Cmd    { return nil }
func (s *Model) Capturing() bool  { return s.editing }
func (s *Model) SetSize(w, h int) { s.w, s.h = w, h }

func (s *Model) ShortHelp() []key.Binding {
	return s.ctx.Keys.List("toggle_format", "edit_dest", "allow_unvalidated", "run_export", "refresh_preview")
}

func (s *Model) FullHelp() [][]key.Binding {
	k := s.ctx.Keys
	return [][]key.Binding{k.List("toggle_format", "nudge_up", "nudge_down", "edit_dest", "allow_unvalidated", "run_export", "refresh_preview", "up", "down")}
}

func (s *Model) Update(msg tea.Msg) tea.Cmd {
	switch m := msg.(type) {
	case shared.CurrentMsg, shared.ResizedMsg:
		if s.ctx.Active == shared.TabExport {
			return tea.Batch(shared.MsgCmd(shared.NeedSolveMsg{}), s.previewCmd())
		}
	case shared.CatalogChangedMsg, shared.SolvedMsg:
		if s.ctx.Active == shared.TabExport {
			return s.previewCmd()
		}
	case exportPreviewMsg:
		if m.err != nil {
			s.previewErr = m.err.Error()
		} else {
			s.preview[m.key] = m.text
		}
	case exportDoneMsg:
		return s.done(m)
	case tea.KeyMsg:
		return s.key(m)
	}
	return nil
}

func (s *Model) key(m tea.KeyMsg) tea.Cmd {
	k := s.ctx.Keys
	if s.editing {
		switch m.Type {
		case tea.KeyEnter:
			s.editing = false
			s.input.Blur()
			if v := strings.TrimSpace(s.input.Value()); v != "" {
				if !filepath.IsAbs(v) && s.ctx.Root != "" {
					v = filepath.Join(s.ctx.Root, v)
				}
				s.dest = filepath.Clean(v)
			}
			return nil
		case tea.KeyEsc:
			s.editing = false
			s.input.Blur()
			return shared.Consumed
		}
		var cmd tea.Cmd
		s.input, cmd = s.input.Update(m)
		return cmd
	}
	switch {
	case k.Is(m, "toggle_format"):
		f := export.Formats[s.field]
		s.chosen[f] = !s.chosen[f]
	case k.Is(m, "nudge_up"):
		s.field = (s.field + 1) % len(export.Formats)
	case k.Is(m, "nudge_down"):
		s.field = (s.field + len(export.Formats) - 1) % len(export.Formats)
	case k.Is(m, "edit_dest"):
		s.editing = true
		s.input.SetValue(s.dest)
		s.input.CursorEnd()
		s.input.Focus()
	case k.Is(m, "allow_unvalidated"):
		s.allow = !s.allow
	case k.Is(m, "run_export"):
		return s.start()
	case k.Is(m, "refresh_preview"):
		delete(s.preview, s.previewKey())
		return s.previewCmd()
	case k.Is(m, "up"):
		s.scroll.Offset = max(s.scroll.Offset-1, 0)
	case k.Is(m, "down"):
		s.scroll.Offset++
	case k.Is(m, "page_up"):
		s.scroll.Offset = max(s.scroll.Offset-s.h/2, 0)
	case k.Is(m, "page_down"):
		s.scroll.Offset += s.h / 2
	}
	return nil
}

// solve is the Quotas screen's newest solve (nil before one).
func (s *Model) solve() (*selection.Result, selection.Config) {
	if s.ctx.Solve == nil {
		return nil, selection.Config{}
	}
	return s.ctx.Solve.Result, s.ctx.Solve.Config
}

func (s *Model) previewKey() string {
	res, _ := s.solve()
	return fmt.Sprintf("%p|%d|%s", res, s.w, s.ctx.Styles.Palette.Name)
}

// previewCmd renders the methodology report of the current solve with
// glamour off the UI goroutine, once per solve, width and theme.
func (s *Model) previewCmd() tea.Cmd {
	res, cfg := s.solve()
	if res == nil || s.svc.ExportInput == nil {
		return nil
	}
	key := s.previewKey()
	if _, ok := s.preview[key]; ok {
		return nil
	}
	s.preview[key] = "" // rendering
	build := s.svc.ExportInput
	width := max(s.w-4, 20)
	style, profile := s.ctx.Styles.Palette.Glamour, s.ctx.Styles.Profile
	if profile == termenv.Ascii {
		style = "notty"
	}
	return s.ctx.Job(func() tea.Msg {
		in, err := build(context.Background(), "current solve", cfg, res, "report")
		if err != nil {
			return exportPreviewMsg{key: key, err: err}
		}
		var md bytes.Buffer
		if err := export.Report(&md, in); err != nil {
			return exportPreviewMsg{key: key, err: err}
		}
		r, err := glamour.NewTermRenderer(glamour.WithStandardStyle(style), glamour.WithWordWrap(width), glamour.WithColorProfile(profile))
		if err != nil {
			return exportPreviewMsg{key: key, err: err}
		}
		out, err := r.Render(sanitize.Text(md.String()))
		return exportPreviewMsg{key: key, text: strings.TrimRight(out, "\n"), err: err}
	})
}

// start writes the chosen formats through app.Export (as `curate
// export`), which stores the solve as a selection only if one was written.
func (s *Model) start() tea.Cmd {
	if s.job != nil {
		return shared.StatusCmd("an export is running", true)
	}
	res, cfg := s.solve()
	if res == nil {
		return tea.Batch(shared.MsgCmd(shared.NeedSolveMsg{}), shared.StatusCmd("no solve yet: open Quotas or wait for the config to load", true))
	}
	if s.svc.Export == nil {
		return shared.StatusCmd("no workspace: nothing to export", true)
	}
	var formats []string
	for _, f := range export.Formats {
		if s.chosen[f] {
			formats = append(formats, f)
		}
	}
	if len(formats) == 0 {
		return shared.StatusCmd("choose a format first (space)", true)
	}
	s.name = "wb-" + time.Now().UTC().Format("20060102-150405")
	s.results, s.errText = nil, ""
	ctx, cancel := context.WithCancel(context.Background())
	s.cancel = cancel
	s.job = s.ctx.Long.Add("export", len(formats), cancel)
	s.job.What = s.dest
	run, name := s.svc.Export, s.name
	req := app.ExportRequest{Formats: formats, Dest: s.dest, AllowUnvalidated: s.allow}
	return func() tea.Msg {
		out, err := run(ctx, name, cfg, res, req)
		return exportDoneMsg{out: out, err: err}
	}
}

// done shows each format's result: written, or its reason.
func (s *Model) done(m exportDoneMsg) tea.Cmd {
	if s.job == nil {
		return nil
	}
	job := s.job
	s.job = nil
	s.cancel()
	if m.out != nil {
		s.results = m.out.Results
		job.Progress(job.Stage, len(m.out.Written()), job.Total, "")
	}
	if m.err != nil {
		s.errText = "export: " + m.err.Error()
		s.ctx.Long.Finish(job, "export", m.err)
		return shared.StatusCmd(s.errText, true)
	}
	written, failed := len(m.out.Written()), len(m.out.Failed())
	line := fmt.Sprintf("exported selection %s as %d format(s) to %s", s.name, written, s.dest)
	switch {
	case written == 0:
		line = fmt.Sprintf("export: nothing written (%d format(s) refused); the solve was not saved", failed)
	case failed > 0:
		line = fmt.Sprintf("exported selection %s as %d format(s) to %s; %d refused", s.name, written, s.dest, failed)
	}
	if failed > 0 {
		s.ctx.Long.Finish(job, line, fmt.Errorf("%s", line))
		return shared.StatusCmd(line, true)
	}
	s.ctx.Long.Finish(job, line, nil)
	return shared.StatusCmd(line, false)
}

// unvalidated counts the solve's tasks validation has not found valid:
// what the allow-unvalidated switch lets through.
func (s *Model) unvalidated() int {
	res, _ := s.solve()
	n := 0
	if res != nil {
		for _, p := range res.Picks {
			if p.Task != nil && p.Task.Status != pipeline.StatusValid {
				n++
			}
		}
	}
	return n
}

// View: formats, destination, progress, what was written and the preview.
func (s *Model) View() string {
	st := s.ctx.Styles
	var b strings.Builder
	res, _ := s.solve()
	src := st.Muted.Render("no solve yet (loading the selection config…)")
	if res != nil {
		src = fmt.Sprintf("the current solve: %d tasks, score %.2f", len(res.Picks), res.TotalScore)
		if !res.Feasible {
			src += st.Bad.Render(" (infeasible)")
		}
	}
	b.WriteString(st.Title.Render("Export") + "  " + src + "\n")
	line := "  Formats:"
	for i, f := range export.Formats {
		box := "[ ]"
		if s.chosen[f] {
			box = "[x]"
		}
		item := box + " " + f
		if i == s.field {
			item = st.Cursor.Render(item)
		}
		line += "  " + item
	}
	b.WriteString(line + "\n")
	if s.editing {
		b.WriteString("  " + s.input.View() + "\n")
	} else {
		b.WriteString("  Destination: " + st.Accent.Render(frame.CleanLine(s.shown(s.dest))) + st.Muted.Render("  (o edits)") + "\n")
	}
	allow := "off"
	if s.allow {
		allow = "on"
	}
	// Before the solve loads the count is unknown, not zero.
	count := "counting…"
	if res != nil {
		count = fmt.Sprintf("%d tasks unvalidated", s.unvalidated())
	}
	b.WriteString(fmt.Sprintf("  Allow unvalidated: %s (%s)", allow, count) + st.Muted.Render("  (a switches)") + "\n")
	switch {
	case s.job != nil:
		b.WriteString(fmt.Sprintf("  Exporting %s  %s %d/%d", s.name, frame.MiniBar(s.job.Done, s.job.Total, 20), s.job.Done, s.job.Total) + "\n")
	case s.errText != "":
		b.WriteString(s.wrapped(st.Bad, s.errText))
	case s.results == nil:
		b.WriteString(st.Muted.Render("  space chooses a format · ←/→ moves · X exports · p re-renders the preview") + "\n")
	}
	for _, r := range s.results {
		if r.Err != nil {
			b.WriteString(s.wrapped(st.Bad, "✗ "+r.Reason()))
			continue
		}
		w := r.Summary
		files := make([]string, len(w.Files))
		for i, f := range w.Files {
			files[i] = s.shown(filepath.Join(w.Out, f))
		}
		msg := fmt.Sprintf("  ✓ %-8s %d tasks → %s", w.Format, w.Tasks, strings.Join(files, ", "))
		if len(w.Skipped) > 0 {
			msg += fmt.Sprintf(" (%d without a task dir left out)", len(w.Skipped))
		}
		b.WriteString(st.Good.Render(frame.CleanLine(msg)) + "\n")
	}
	b.WriteString(st.Header.Render(frame.PadRight(" Preview: "+export.ReportFile+"  (↑/↓ scroll)", s.w)) + "\n")
	used := strings.Count(b.String(), "\n")
	text, ok := s.preview[s.previewKey()]
	switch {
	case s.previewErr != "":
		b.WriteString(st.Error.Render(frame.CleanLine(s.previewErr)))
	case !ok || text == "":
		b.WriteString(st.Muted.Render(" rendering…"))
	default:
		lines := strings.Split(text, "\n")
		s.scroll.ScrollTo(s.scroll.Offset, len(lines), 1) // the last line may sit at the top
		from, to := scroller.Window(s.scroll.Offset, len(lines), max(s.h-used, 1))
		b.WriteString(strings.Join(lines[from:to], "\n"))
	}
	return frame.Fit(b.String(), s.w, s.h)
}

// wrapped is msg in style, wrapped to the screen's width and indented:
// a reason is shown whole, never cut.
func (s *Model) wrapped(style lipgloss.Style, msg string) string {
	var b strings.Builder
	for _, row := range strings.Split(ansi.Wrap(frame.CleanLine(msg), max(s.w-4, 16), ""), "\n") {
		b.WriteString(style.Render("  "+row) + "\n")
	}
	return b.String()
}

// shown is a path relative to the workspace when it is inside it.
func (s *Model) shown(p string) string {
	if s.ctx.Root != "" {
		if rel, err := filepath.Rel(s.ctx.Root, p); err == nil && !strings.HasPrefix(rel, "..") {
			return "./" + rel
		}
	}
	return p
}
