// Package export is the Export screen: the Quotas screen's solve written
// in the chosen formats, with a report preview.
package export

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/glamour"
	"github.com/muesli/termenv"

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

	// a running export
	job     *shared.LongJob
	stop    bool
	name    string
	queue   []string
	written []*export.Summary
	errText string

	preview    map[string]string // glamour output by solve, width, theme
	previewErr string
	scroll     scroller.Model
	w, h       int
}

type (
	exportStepMsg struct {
		format string
		sum    *export.Summary
		err    error
	}
	exportPreviewMsg struct {
		key, text string
		err       error
	}
)

func (exportStepMsg) Target() shared.TabID    { return shared.TabExport }
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
	return s.ctx.Keys.List("toggle_format", "edit_dest", "run_export", "refresh_preview")
}

func (s *Model) FullHelp() [][]key.Binding {
	k := s.ctx.Keys
	return [][]key.Binding{k.List("toggle_format", "nudge_up", "nudge_down", "edit_dest", "run_export", "refresh_preview", "up", "down")}
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
	case exportStepMsg:
		return s.step(m)
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

// start saves the solve as a selection and queues the chosen formats.
func (s *Model) start() tea.Cmd {
	if s.job != nil {
		return shared.StatusCmd("an export is running", true)
	}
	res, cfg := s.solve()
	if res == nil {
		return tea.Batch(shared.MsgCmd(shared.NeedSolveMsg{}), shared.StatusCmd("no solve yet: open Quotas or wait for the config to load", true))
	}
	if s.svc.ExportInput == nil || s.svc.SaveSnapshot == nil {
		return shared.StatusCmd("no workspace: nothing to export", true)
	}
	s.queue = nil
	for _, f := range export.Formats {
		if s.chosen[f] {
			s.queue = append(s.queue, f)
		}
	}
	if len(s.queue) == 0 {
		return shared.StatusCmd("choose a format first (space)", true)
	}
	s.name = "wb-" + time.Now().UTC().Format("20060102-150405")
	s.written, s.errText, s.stop = nil, "", false
	s.job = s.ctx.Long.Add("export", len(s.queue), func() { s.stop = true })
	s.job.What = s.dest
	save := s.svc.SaveSnapshot
	name := s.name
	first := func() tea.Msg {
		if err := save(context.Background(), name, cfg, res); err != nil {
			return exportStepMsg{err: fmt.Errorf("save selection %s: %w", name, err)}
		}
		return exportStepMsg{}
	}
	return first
}

// step records a written format and starts the next one.
func (s *Model) step(m exportStepMsg) tea.Cmd {
	if s.job == nil {
		return nil
	}
	if m.sum != nil {
		s.written = append(s.written, m.sum)
		s.job.Step()
	}
	if m.err != nil || s.stop || len(s.queue) == 0 {
		job := s.job
		s.job = nil
		switch {
		case m.err != nil:
			s.errText = m.err.Error()
			s.ctx.Long.Finish(job, "export", m.err)
			return shared.StatusCmd("export: "+m.err.Error(), true)
		case s.stop:
			s.errText = "cancelled"
			line := fmt.Sprintf("export cancelled after %d format(s)", len(s.written))
			s.ctx.Long.Finish(job, line, nil)
			return shared.StatusCmd(line, false)
		}
		line := fmt.Sprintf("exported selection %s as %d format(s) to %s", s.name, len(s.written), s.dest)
		s.ctx.Long.Finish(job, line, nil)
		return shared.StatusCmd(line, false)
	}
	f := s.queue[0]
	s.queue = s.queue[1:]
	res, cfg := s.solve()
	build, write, dest, name := s.svc.ExportInput, s.svc.WriteExport, s.dest, s.name
	if write == nil {
		return func() tea.Msg { return exportStepMsg{format: f, err: fmt.Errorf("%s: no workspace to export from", f)} }
	}
	return func() tea.Msg {
		in, err := build(context.Background(), name, cfg, res, f)
		if err != nil {
			return exportStepMsg{format: f, err: err}
		}
		// The curator typed the folder: make its parent as the CLI's --out user would.
		if err := os.MkdirAll(filepath.Dir(dest), 0o755); err != nil {
			return exportStepMsg{format: f, err: err}
		}
		sum, err := write(f, dest, in)
		if err != nil {
			return exportStepMsg{format: f, err: fmt.Errorf("%s: %w", f, err)}
		}
		return exportStepMsg{format: f, sum: sum}
	}
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
	switch {
	case s.job != nil:
		b.WriteString(fmt.Sprintf("  Exporting %s  %s %d/%d", s.name, frame.MiniBar(s.job.Done, s.job.Total, 20), s.job.Done, s.job.Total) + "\n")
	case s.errText != "":
		b.WriteString(st.Bad.Render("  "+frame.CleanLine(s.errText)) + "\n")
	default:
		b.WriteString(st.Muted.Render("  space chooses a format · ←/→ moves · X exports (saves the solve as a selection first) · p re-renders the preview") + "\n")
	}
	for _, w := range s.written {
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

// shown is a path relative to the workspace when it is inside it.
func (s *Model) shown(p string) string {
	if s.ctx.Root != "" {
		if rel, err := filepath.Rel(s.ctx.Root, p); err == nil && !strings.HasPrefix(rel, "..") {
			return "./" + rel
		}
	}
	return p
}
