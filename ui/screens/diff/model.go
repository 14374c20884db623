// Package diff is the Diff screen: a task's bug, fix and test patches.
package diff

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"curate/ui/components/diffview"
	"curate/ui/components/frame"
	"curate/ui/components/scroller"
	"curate/ui/shared"
)

// Model shows a task's bug, fix and test patches with a file list,
// unified or side by side, highlighted by file type, with hunk and file
// jumps. Patches load in a tea.Cmd; rows are styled only when visible.
type Model struct {
	ctx        *shared.Context
	w, h       int
	id         string
	patches    [patchKinds]*patchSet
	loading    bool
	kind       int
	sideBySide bool
	showFiles  bool
	filesSet   bool // the curator chose; else it follows the width
	doc        *diffview.Doc
	scroll     scroller.Model
}

type patchesMsg struct {
	id      string
	patches [patchKinds]*patchSet
}

func (patchesMsg) Target() shared.TabID { return shared.TabDiff }

// New builds the screen; it loads when shown.
func New(c *shared.Context) *Model { return &Model{ctx: c, kind: patchFix} }

func (s *Model) Title() string   { return "Diff" }
func (s *Model) Init() tea.Cmd   { return nil }
func (s *Model) Capturing() bool { return false }

func (s *Model) SetSize(w, h int) {
	s.w, s.h = w, h
	if !s.filesSet {
		s.showFiles = w >= 120
	}
	s.relayout()
}

func (s *Model) ShortHelp() []key.Binding {
	return s.ctx.Keys.List("show_bug", "show_fix", "show_tests", "side_by_side", "next_hunk", "next_file", "files")
}

func (s *Model) FullHelp() [][]key.Binding {
	k := s.ctx.Keys
	return [][]key.Binding{
		k.List("show_bug", "show_fix", "show_tests", "side_by_side", "files", "scroll_right", "scroll_left"),
		k.List("up", "down", "page_up", "page_down", "top", "bottom", "next_hunk", "prev_hunk", "next_file", "prev_file"),
	}
}

func (s *Model) listWidth() int {
	if !s.showFiles {
		return 0
	}
	return min(max(s.w/4, 24), 44)
}

func (s *Model) bodyHeight() int { return max(s.h-1, 1) }

// relayout rebuilds the rows for the current patch, mode and width,
// keeping the file on screen.
func (s *Model) relayout() {
	p := s.patches[s.kind]
	if p == nil || len(p.files) == 0 {
		s.doc = nil
		return
	}
	file := 0
	if s.doc != nil && &s.doc.Files()[0] == &p.files[0] {
		file = s.doc.FileAt(s.scroll.Offset)
	}
	w := s.w - s.listWidth()
	if s.listWidth() > 0 {
		w--
	}
	h := 0
	if s.doc != nil {
		h = s.doc.HScroll()
	}
	s.doc = diffview.New(p.files, s.sideBySide, max(w, 20), s.ctx.Styles)
	s.doc.SetHScroll(h)
	s.scroll.Offset = 0
	if file < len(s.doc.FileRows()) {
		s.scroll.Offset = s.doc.FileRows()[file]
	}
	s.clamp()
}

func (s *Model) clamp() {
	if s.doc == nil {
		s.scroll.Offset = 0
		return
	}
	s.scroll.ScrollTo(s.scroll.Offset, s.doc.Len(), s.bodyHeight())
}

func (s *Model) Update(msg tea.Msg) tea.Cmd {
	switch m := msg.(type) {
	case shared.CurrentMsg:
		if s.ctx.Active != shared.TabDiff || m.ID == "" || m.ID == s.id {
			return nil
		}
		return s.load(m.ID)
	case patchesMsg:
		if m.id != s.id {
			return nil
		}
		s.loading, s.patches, s.doc = false, m.patches, nil
		if s.patches[s.kind] == nil || len(s.patches[s.kind].files) == 0 {
			for _, k := range []int{patchFix, patchBug, patchTests} {
				if len(s.patches[k].files) > 0 {
					s.kind = k
					break
				}
			}
		}
		s.relayout()
		return nil
	case tea.MouseMsg:
		switch m.Button {
		case tea.MouseButtonWheelUp:
			s.scrollBy(-3)
		case tea.MouseButtonWheelDown:
			s.scrollBy(3)
		case tea.MouseButtonLeft:
			if m.Action == tea.MouseActionPress && m.X < s.listWidth() && s.doc != nil {
				if f := m.Y - 1; f >= 0 && f < len(s.doc.FileRows()) {
					s.scroll.Offset = s.doc.FileRows()[f]
					s.clamp()
				}
			}
		}
		return nil
	case tea.KeyMsg:
		return s.key(m)
	}
	return nil
}

func (s *Model) load(id string) tea.Cmd {
	t := s.ctx.Catalog.Task(id)
	if t == nil {
		return nil
	}
	s.id, s.loading, s.doc, s.scroll = id, true, nil, scroller.Model{}
	root, task, st := s.ctx.Root, *t, s.ctx.Store
	return s.ctx.Job(func() tea.Msg {
		if st != nil { // large values (a SWE-bench patch) are read on demand
			if full, err := st.Task(context.Background(), id); err == nil {
				task = *full
			}
		}
		return patchesMsg{id: id, patches: loadPatches(root, &task)}
	})
}

// hscroll shows long lines from further right.
func (s *Model) hscroll(d int) {
	if s.doc != nil {
		s.doc.SetHScroll(s.doc.HScroll() + d)
	}
}

func (s *Model) scrollBy(d int) {
	s.scroll.Offset += d
	s.clamp()
}

func (s *Model) key(m tea.KeyMsg) tea.Cmd {
	k := s.ctx.Keys
	switch {
	case k.Is(m, "show_bug"):
		s.kind = patchBug
		s.relayout()
	case k.Is(m, "show_fix"):
		s.kind = patchFix
		s.relayout()
	case k.Is(m, "show_tests"):
		s.kind = patchTests
		s.relayout()
	case k.Is(m, "side_by_side"):
		s.sideBySide = !s.sideBySide
		s.relayout()
	case k.Is(m, "files"):
		s.showFiles, s.filesSet = !s.showFiles, true
		s.relayout()
	case k.Is(m, "scroll_right"):
		s.hscroll(8)
	case k.Is(m, "scroll_left"):
		s.hscroll(-8)
	case k.Is(m, "down"):
		s.scrollBy(1)
	case k.Is(m, "up"):
		s.scrollBy(-1)
	case k.Is(m, "page_down"):
		s.scrollBy(s.bodyHeight())
	case k.Is(m, "page_up"):
		s.scrollBy(-s.bodyHeight())
	case k.Is(m, "top"):
		s.scroll.Offset = 0
	case k.Is(m, "bottom"):
		s.scrollBy(1 << 30)
	case k.Is(m, "next_hunk"):
		s.jump(s.hunkRows(), 1)
	case k.Is(m, "prev_hunk"):
		s.jump(s.hunkRows(), -1)
	case k.Is(m, "next_file"):
		s.jump(s.fileRows(), 1)
	case k.Is(m, "prev_file"):
		s.jump(s.fileRows(), -1)
	}
	return nil
}

func (s *Model) hunkRows() []int {
	if s.doc == nil {
		return nil
	}
	return s.doc.HunkRows()
}

func (s *Model) fileRows() []int {
	if s.doc == nil {
		return nil
	}
	return s.doc.FileRows()
}

// jump moves the top of the screen to the next (or previous) row in marks.
func (s *Model) jump(marks []int, dir int) {
	if len(marks) == 0 {
		return
	}
	if dir > 0 {
		i := sort.SearchInts(marks, s.scroll.Offset+1)
		if i < len(marks) {
			s.scroll.Offset = marks[i]
		}
	} else {
		i := sort.SearchInts(marks, s.scroll.Offset) - 1
		if i >= 0 {
			s.scroll.Offset = marks[i]
		}
	}
	s.clamp()
	// clamp may pull the last marks up; that is the end of the patch.
}

// View renders the header, the file list and the visible rows only.
func (s *Model) View() string {
	st := s.ctx.Styles
	if s.id == "" {
		return st.Muted.Render("No task chosen: pick one in Candidates and press d.")
	}
	var tabs []string
	for k := 0; k < patchKinds; k++ {
		label := patchNames[k]
		if p := s.patches[k]; p != nil && len(p.files) > 0 {
			add, rem := 0, 0
			for _, f := range p.files {
				add, rem = add+f.Added, rem+f.Removed
			}
			label += fmt.Sprintf(" +%d -%d", add, rem)
		}
		if k == s.kind {
			tabs = append(tabs, st.TabActive.Render(label))
		} else {
			tabs = append(tabs, st.TabInactive.Render(label))
		}
	}
	mode := "unified"
	if s.sideBySide {
		mode = "side by side"
	}
	if s.doc != nil && s.doc.HScroll() > 0 {
		mode += fmt.Sprintf(" · from column %d", s.doc.HScroll()+1)
	}
	header := frame.Truncate(st.Title.Render(frame.CleanLine(s.id))+" "+strings.Join(tabs, "")+"  "+st.Muted.Render(mode), s.w)
	h := s.bodyHeight()
	p := s.patches[s.kind]
	var body []string
	switch {
	case s.loading:
		body = []string{st.Muted.Render("loading patches…")}
	case p == nil:
		body = []string{st.Muted.Render("no patches loaded")}
	case p.err != nil && len(p.files) == 0:
		body = []string{st.Error.Render(frame.CleanLine(p.err.Error()))}
	case len(p.files) == 0:
		msg := p.absent
		if msg == "" {
			msg = "the patch is empty"
		}
		body = []string{st.Muted.Render(frame.CleanLine(msg))}
	default:
		from, to := scroller.Window(s.scroll.Offset, s.doc.Len(), h)
		for i := from; i < to; i++ {
			body = append(body, s.doc.Render(i))
		}
		if p.err != nil {
			body = append([]string{st.Error.Render(frame.CleanLine(p.err.Error()))}, body...)
		}
	}
	lw := s.listWidth()
	if lw == 0 || s.doc == nil {
		return header + "\n" + strings.Join(body, "\n")
	}
	list := s.fileList(lw, h)
	var b strings.Builder
	b.WriteString(header + "\n")
	for i := 0; i < h; i++ {
		l, r := "", ""
		if i < len(list) {
			l = list[i]
		}
		if i < len(body) {
			r = body[i]
		}
		b.WriteString(frame.PadRight(l, lw) + st.Muted.Render(st.Palette.Separator) + r)
		if i < h-1 {
			b.WriteString("\n")
		}
	}
	return b.String()
}

func (s *Model) fileList(w, h int) []string {
	st := s.ctx.Styles
	files := s.doc.Files()
	cur := s.doc.FileAt(s.scroll.Offset)
	start := 0
	if cur >= h {
		start = cur - h + 1
	}
	out := make([]string, 0, h)
	for i := start; i < len(files) && len(out) < h; i++ {
		f := &files[i]
		counts := fmt.Sprintf(" +%d -%d", f.Added, f.Removed)
		name := frame.CleanLine(f.Name())
		room := w - len(counts) - 2
		if ansi.StringWidth(name) > room && room > 1 {
			// Keep the end of the path: the file name says most.
			name = ansi.TruncateLeft(name, ansi.StringWidth(name)-room+1, "…")
		}
		line := frame.PadRight(name, max(room, 0)) + counts
		if i == cur {
			out = append(out, st.Cursor.Render(frame.PadRight("> "+line, w)))
		} else {
			out = append(out, "  "+st.Base.Render(line))
		}
	}
	return out
}
