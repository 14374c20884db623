package candidates

import (
	"fmt"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"curate/pipeline"
	"curate/ui/shared"
)

// Update handles keys, mouse and the catalogue changing under the table,
// then publishes what the table shows and, when the task under the cursor
// changed (a move, a filter, a sort), tells the other screens: every
// action acts on the task under the cursor.
func (s *Model) Update(msg tea.Msg) tea.Cmd {
	cmd := s.update(msg)
	s.publish()
	id := ""
	if t := s.current(); t != nil {
		id = t.ID
	}
	if id == s.ctx.CurrentID {
		return cmd
	}
	s.ctx.CurrentID = id
	return tea.Batch(cmd, shared.MsgCmd(shared.CurrentMsg{ID: id}))
}

func (s *Model) update(msg tea.Msg) tea.Cmd {
	switch m := msg.(type) {
	case shared.StepTaskMsg:
		s.moveTo(s.scroll.Cursor + m.Delta)
	case shared.CatalogChangedMsg:
		if len(m.IDs) == 0 || len(s.order) != len(s.ctx.Catalog.Tasks) {
			s.hay = nil
			s.rebuild()
		} else {
			// Labels changed: keep the order the curator is working through,
			// but re-apply the filter (an excluded task may now drop out).
			if len(s.hay) == len(s.ctx.Catalog.Tasks) {
				for _, id := range m.IDs {
					if i := s.ctx.Catalog.Index(id); i >= 0 {
						s.hay[i] = hayOf(s.ctx.Catalog.Tasks[i])
					}
				}
			}
			s.prevText = "\x00"
			s.refilter()
		}
		return nil
	case viewsMsg:
		return s.viewsLoaded(m)
	case filterTickMsg:
		if m.seq == s.filterSeq {
			s.prevText = "\x00"
			s.refilter()
		}
		return nil
	case tea.MouseMsg:
		return s.mouse(m)
	case tea.KeyMsg:
		return s.key(m)
	}
	return nil
}

func (s *Model) mouse(m tea.MouseMsg) tea.Cmd {
	switch {
	case m.Button == tea.MouseButtonWheelUp:
		s.scroll.ScrollBy(-3, len(s.rows), s.tableRows())
		s.moveTo(min(s.scroll.Cursor, s.scroll.Offset+s.tableRows()-1))
	case m.Button == tea.MouseButtonWheelDown:
		s.scroll.ScrollBy(3, len(s.rows), s.tableRows())
		s.moveTo(max(s.scroll.Cursor, s.scroll.Offset))
	case m.Button == tea.MouseButtonLeft && m.Action == tea.MouseActionPress && m.Y == 1:
		// A click on a column title sorts by it; a second click reverses.
		if ci := s.columnAt(m.X); ci >= 0 {
			if ci == s.sortCol {
				s.desc = !s.desc
			} else {
				s.sortCol, s.desc = ci, false
			}
			s.rebuild()
		}
	case m.Button == tea.MouseButtonLeft && m.Action == tea.MouseActionPress:
		row := m.Y - 2 // filter line and header
		if row >= 0 && row < s.tableRows() && s.scroll.Offset+row < len(s.rows) {
			s.moveTo(s.scroll.Offset + row)
		}
	}
	return nil
}

// columnAt is the table column under screen column x, or -1.
func (s *Model) columnAt(x int) int {
	cols, widths := layoutColumns(s.w)
	pos := 2
	for i, ci := range cols {
		if x >= pos && x < pos+widths[i]+1 {
			return ci
		}
		pos += widths[i] + 1
	}
	return -1
}

func (s *Model) key(m tea.KeyMsg) tea.Cmd {
	switch {
	case s.filtering:
		return s.filterKey(m)
	case s.naming:
		return s.nameKey(m)
	case s.facet != nil:
		return s.facetKey(m)
	case s.bulk != nil:
		return s.bulkKey(m)
	case s.viewMenu != nil:
		return s.viewKey(m)
	case s.label.Active():
		_, cmd := s.label.Handle(m, nil, false)
		return cmd
	}
	k := s.ctx.Keys
	page := s.tableRows()
	switch {
	case k.Is(m, "up"):
		s.moveTo(s.scroll.Cursor - 1)
	case k.Is(m, "down"):
		s.moveTo(s.scroll.Cursor + 1)
	case k.Is(m, "page_up"):
		s.moveTo(s.scroll.Cursor - page)
	case k.Is(m, "page_down"):
		s.moveTo(s.scroll.Cursor + page)
	case k.Is(m, "top"):
		s.moveTo(0)
	case k.Is(m, "bottom"):
		s.moveTo(len(s.rows) - 1)
	case k.Is(m, "open"):
		if t := s.current(); t != nil {
			return shared.MsgCmd(shared.OpenTaskMsg{ID: t.ID, Tab: shared.TabTask})
		}
	case k.Is(m, "diff"):
		if t := s.current(); t != nil {
			return shared.MsgCmd(shared.OpenTaskMsg{ID: t.ID, Tab: shared.TabDiff})
		}
	case k.Is(m, "filter"):
		s.filtering = true
		s.filterInput.SetValue(s.filterText)
		s.filterInput.CursorEnd()
		return s.filterInput.Focus()
	case k.Is(m, "fuzzy"):
		s.fuzzy = !s.fuzzy
		s.prevText = "\x00"
		s.refilter()
	case k.Is(m, "facets"):
		s.facet = newFacetMenu(s.ctx.Catalog, s.facets)
	case k.Is(m, "sort"):
		s.sortCol = (s.sortCol + 1) % len(tableColumns)
		s.rebuild()
	case k.Is(m, "sort_reverse"):
		s.desc = !s.desc
		s.rebuild()
	case k.Is(m, "mark"):
		if t := s.current(); t != nil {
			if s.marked[t.ID] {
				delete(s.marked, t.ID)
			} else {
				s.marked[t.ID] = true
			}
			s.moveTo(s.scroll.Cursor + 1)
		}
	case k.Is(m, "mark_all"):
		if len(s.marked) > 0 {
			s.marked = map[string]bool{}
		} else {
			for _, i := range s.rows {
				s.marked[s.ctx.Catalog.Tasks[i].ID] = true
			}
		}
	case k.Is(m, "bulk"):
		s.bulk = &bulkState{ids: s.targets(), fromMarks: len(s.marked) > 0}
	case k.Is(m, "save_view"):
		s.naming = true
		s.nameInput.SetValue("")
		return s.nameInput.Focus()
	case k.Is(m, "views"):
		s.viewMenu = &viewMenu{}
	default:
		if t := s.current(); t != nil {
			if ok, cmd := s.label.Handle(m, []string{t.ID}, true); ok {
				return cmd
			}
		}
	}
	return nil
}

func (s *Model) filterKey(m tea.KeyMsg) tea.Cmd {
	switch m.Type {
	case tea.KeyEnter:
		s.filtering = false
		s.filterInput.Blur()
		return nil
	case tea.KeyEsc:
		s.filtering = false
		s.filterInput.Blur()
		s.filterText = ""
		s.refilter()
		return nil
	}
	if m.Type == tea.KeyCtrlT { // fuzzy on/off while typing
		s.fuzzy = !s.fuzzy
		s.prevText = "\x00"
		s.refilter()
		return nil
	}
	var cmd tea.Cmd
	s.filterInput, cmd = s.filterInput.Update(m)
	if v := s.filterInput.Value(); v != s.filterText {
		s.filterText = v
		if hasOperator(v) && len(s.ctx.Catalog.Tasks) > debounceAbove {
			// An expression is a full pass over a large catalogue: wait
			// until the curator pauses so typing stays smooth.
			s.filterSeq++
			seq := s.filterSeq
			return tea.Batch(cmd, tea.Tick(debounce, func(time.Time) tea.Msg { return filterTickMsg{seq} }))
		}
		s.refilter()
	}
	return cmd
}

// Expression filters over more than debounceAbove tasks run debounce
// after the last keystroke.
const (
	debounceAbove = 20000
	debounce      = 80 * time.Millisecond
)

type filterTickMsg struct{ seq int }

func (filterTickMsg) Target() shared.TabID { return shared.TabCandidates }

// bulkState is a bulk action being chosen, then confirmed with its count.
type bulkState struct {
	ids       []string
	fromMarks bool
	field     string
	value     string
	what      string
}

func (s *Model) bulkKey(m tea.KeyMsg) tea.Cmd {
	b := s.bulk
	if m.Type == tea.KeyEsc || m.String() == "n" && b.field != "" {
		s.bulk = nil
		return shared.StatusCmd("bulk action cancelled", false)
	}
	if b.field != "" { // confirming
		if m.String() != "y" {
			return nil
		}
		s.bulk = nil
		if b.field == pipeline.FieldExcluded && b.value == "true" {
			return s.label.AskExclude(b.ids)
		}
		if b.field == pipeline.FieldPhase {
			s.label.AskPhase(b.ids)
			return nil
		}
		s.marked = map[string]bool{}
		return s.label.Apply(b.ids, b.field, b.value)
	}
	r := m.String()
	switch {
	case len(r) == 1 && r[0] >= '1' && r[0] <= '6':
		d := pipeline.Difficulties[r[0]-'1']
		b.field, b.value, b.what = pipeline.FieldDifficulty, string(d), "difficulty "+string(d)
	case r == "0":
		b.field, b.value, b.what = pipeline.FieldDifficulty, "", "clear difficulty"
	case r == "x":
		b.field, b.value, b.what = pipeline.FieldExcluded, "true", "exclude"
	case r == "i":
		b.field, b.value, b.what = pipeline.FieldExcluded, "false", "include"
	case r == "p":
		b.field, b.value, b.what = pipeline.FieldPinned, "true", "pin"
	case r == "P":
		b.field, b.value, b.what = pipeline.FieldPinned, "false", "unpin"
	case r == "s":
		b.field, b.value, b.what = pipeline.FieldPhase, "", "set phase"
	}
	return nil
}

func (s *Model) bulkView() string {
	b := s.bulk
	st := s.ctx.Styles
	src := "every task the filter shows"
	if b.fromMarks {
		src = "the marked tasks"
	}
	if b.field != "" {
		return st.Warn.Render(fmt.Sprintf("Apply %s to %d tasks (%s)? y/n", b.what, len(b.ids), src))
	}
	return st.Title.Render(fmt.Sprintf("Bulk action on %d tasks (%s):", len(b.ids), src)) + "\n" +
		strings.Join([]string{"1-6 difficulty", "0 clear difficulty", "s phase", "x exclude", "i include", "p pin", "P unpin", "esc cancel"}, " · ")
}

func (s *Model) nameKey(m tea.KeyMsg) tea.Cmd {
	switch m.Type {
	case tea.KeyEsc:
		s.naming = false
		s.nameInput.Blur()
		return nil
	case tea.KeyEnter:
		s.naming = false
		s.nameInput.Blur()
		name := strings.TrimSpace(s.nameInput.Value())
		if name == "" {
			return shared.StatusCmd("a view needs a name", true)
		}
		return s.saveView(name)
	}
	var cmd tea.Cmd
	s.nameInput, cmd = s.nameInput.Update(m)
	return cmd
}
