package ui

import (
	"fmt"
	"sort"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"curate/pipeline/query"
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
			vals = append(vals, cleanLine(v))
		}
		sort.Strings(vals)
		parts = append(parts, a.dim+"="+strings.Join(vals, ","))
	}
	return strings.Join(parts, " ")
}

// facetMenu lists every value of every dimension with its count.
type facetMenu struct {
	items  []facetItem
	cursor int
	offset int
}

type facetItem struct {
	dim, value string
	count      int
}

func newFacetMenu(c *Catalog, chosen facetSet) *facetMenu {
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

func (s *Candidates) facetKey(msg tea.KeyMsg) tea.Cmd {
	m := s.facet
	k := s.ctx.Keys
	switch {
	case msg.Type == tea.KeyEsc || msg.Type == tea.KeyEnter || k.Is(msg, "facets"):
		s.facet = nil
	case k.Is(msg, "up"):
		m.cursor = max(m.cursor-1, 0)
	case k.Is(msg, "down"):
		m.cursor = min(m.cursor+1, len(m.items)-1)
	case k.Is(msg, "page_down"):
		m.cursor = min(m.cursor+10, len(m.items)-1)
	case k.Is(msg, "page_up"):
		m.cursor = max(m.cursor-10, 0)
	case msg.String() == " " || msg.String() == "x":
		if len(m.items) == 0 {
			return nil
		}
		it := m.items[m.cursor]
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

func (s *Candidates) facetView(h int) string {
	m := s.facet
	st := s.ctx.Styles
	var b strings.Builder
	b.WriteString(st.Title.Render("Facets") + st.Muted.Render(fmt.Sprintf("  space toggles · c clears all · enter/esc closes · %d shown", len(s.rows))) + "\n")
	rows := max(h-1, 1)
	if m.cursor < m.offset {
		m.offset = m.cursor
	}
	if m.cursor >= m.offset+rows {
		m.offset = m.cursor - rows + 1
	}
	for i := m.offset; i < len(m.items) && i < m.offset+rows; i++ {
		it := m.items[i]
		box := "[ ]"
		if s.facets[it.dim][it.value] {
			box = "[x]"
		}
		v := it.value
		if v == "" {
			v = "(none)"
		}
		line := fmt.Sprintf("%s %-11s %-34s %6d", box, it.dim, cleanLine(v), it.count)
		if i == m.cursor {
			b.WriteString(st.Cursor.Render(padRight("> "+line, min(s.w, 64))) + "\n")
		} else {
			b.WriteString("  " + line + "\n")
		}
	}
	return b.String()
}
