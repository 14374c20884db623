package candidates

import (
	"fmt"
	"sort"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"curate/pipeline/query"
	"curate/ui/components/frame"
	"curate/ui/components/scroller"
	"curate/ui/shared"
)

// facetDims are the dimensions the facet menu offers, by filter field name.
var facetDims = []string{"benchmark", "language", "phase", "difficulty", "status"}

// facetSet is the chosen values per dimension; an empty dimension is off.
type facetSet map[string]map[string]bool

type activeFacet struct {
	dim  string
	vals map[string]bool
}

func (f facetSet) active() []activeFacet {
	var out []activeFacet
	for _, d := range facetDims {
		if len(f[d]) > 0 {
			out = append(out, activeFacet{d, f[d]})
		}
	}
	return out
}

func (f facetSet) String() string {
	var parts []string
	for _, a := range f.active() {
		vals := make([]string, 0, len(a.vals))
		for v := range a.vals {
			vals = append(vals, frame.CleanLine(v))
		}
		sort.Strings(vals)
		parts = append(parts, a.dim+"="+strings.Join(vals, ","))
	}
	return strings.Join(parts, " ")
}

// facetMenu lists every value of every dimension with its count.
type facetMenu struct {
	items  []facetItem
	scroll scroller.Model
}

type facetItem struct {
	dim, value string
	count      int
}

func newFacetMenu(c *shared.Catalog, chosen facetSet) *facetMenu {
	m := &facetMenu{}
	for _, d := range facetDims {
		counts := map[string]int{}
		for _, t := range c.Tasks {
			counts[query.FieldValue(t, d)]++
		}
		vals := make([]string, 0, len(counts))
		for v := range counts {
			vals = append(vals, v)
		}
		sort.Strings(vals)
		for _, v := range vals {
			m.items = append(m.items, facetItem{d, v, counts[v]})
		}
	}
	return m
}

func (s *Model) facetKey(msg tea.KeyMsg) tea.Cmd {
	m := s.facet
	k := s.ctx.Keys
	switch {
	case msg.Type == tea.KeyEsc || msg.Type == tea.KeyEnter || k.Is(msg, "facets"):
		s.facet = nil
	case k.Is(msg, "up"):
		m.scroll.MoveBy(-1, len(m.items), s.facetRows())
	case k.Is(msg, "down"):
		m.scroll.MoveBy(1, len(m.items), s.facetRows())
	case k.Is(msg, "page_down"):
		m.scroll.MoveBy(10, len(m.items), s.facetRows())
	case k.Is(msg, "page_up"):
		m.scroll.MoveBy(-10, len(m.items), s.facetRows())
	case msg.String() == " " || msg.String() == "x":
		if len(m.items) == 0 {
			return nil
		}
		it := m.items[m.scroll.Cursor]
		if s.facets[it.dim] == nil {
			s.facets[it.dim] = map[string]bool{}
		}
		if s.facets[it.dim][it.value] {
			delete(s.facets[it.dim], it.value)
		} else {
			s.facets[it.dim][it.value] = true
		}
		s.prevText = "\x00"
		s.refilter()
	case msg.String() == "c":
		s.facets = facetSet{}
		s.prevText = "\x00"
		s.refilter()
	}
	return nil
}

// facetRows is the number of values the facet menu shows under its title.
func (s *Model) facetRows() int { return max(s.h-1, 1) }

func (s *Model) facetView() string {
	m := s.facet
	st := s.ctx.Styles
	var b strings.Builder
	b.WriteString(st.Title.Render("Facets") + st.Muted.Render(fmt.Sprintf("  space toggles · c clears all · enter/esc closes · %d shown", len(s.rows))) + "\n")
	from, to := scroller.Window(m.scroll.Offset, len(m.items), s.facetRows())
	for i := from; i < to; i++ {
		it := m.items[i]
		box := "[ ]"
		if s.facets[it.dim][it.value] {
			box = "[x]"
		}
		v := it.value
		if v == "" {
			v = "(none)"
		}
		line := fmt.Sprintf("%s %-11s %-34s %6d", box, it.dim, frame.CleanLine(v), it.count)
		if i == m.scroll.Cursor {
			b.WriteString(st.Cursor.Render(frame.PadRight("> "+line, min(s.w, 64))) + "\n")
		} else {
			b.WriteString("  " + line + "\n")
		}
	}
	return b.String()
}
