package ui

import (
	"fmt"
	"sort"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"

	"curate/pipeline"
	"curate/pipeline/query"
)

// Candidates is the task table: a virtual list over the catalogue that
// renders only the rows on screen, with a filter, facets, sort, marks,
// bulk actions and saved views.
type Candidates struct {
	ctx  *Context
	w, h int

	order  []int // catalogue indexes in sort order
	rows   []int // the filtered subsequence of order
	cursor int
	offset int
	marked map[string]bool

	sortCol int
	desc    bool

	filterInput textinput.Model
	filtering   bool
	filterText  string
	fuzzy       bool
	filterErr   string
	prevText    string // the text rows was last filtered with, for narrowing

	facets facetSet
	facet  *facetMenu

	label labeler
	bulk  *bulkState

	views     []SavedView
	viewMenu  *viewMenu
	nameInput textinput.Model
	naming    bool
}

// NewCandidates builds the table over ctx.Catalog.
func NewCandidates(c *Context) *Candidates {
	fi := newInput()
	fi.Prompt = "/ "
	fi.Placeholder = "substring, or an expression: language=go score>0.5"
	fi.CharLimit = 300
	ni := newInput()
	ni.Prompt = "Save view as: "
	ni.CharLimit = 60
	s := &Candidates{ctx: c, marked: map[string]bool{}, facets: facetSet{}, filterInput: fi, nameInput: ni, label: newLabeler(c)}
	s.rebuild()
	return s
}

func (s *Candidates) Title() string { return "Candidates" }

func (s *Candidates) Init() tea.Cmd { return loadViewsCmd(s.ctx.Root) }

func (s *Candidates) SetSize(w, h int) {
	s.w, s.h = w, h
	s.label.width = w
	s.filterInput.Width = max(w-4, 10)
	s.clamp()
}

func (s *Candidates) Capturing() bool {
	return s.filtering || s.naming || s.label.active() || s.facet != nil || s.bulk != nil || s.viewMenu != nil
}

func (s *Candidates) ShortHelp() []key.Binding {
	return s.ctx.Keys.List("open", "filter", "facets", "sort", "mark", "bulk", "easy", "undo", "help")
}

func (s *Candidates) FullHelp() [][]key.Binding {
	k := s.ctx.Keys
	return [][]key.Binding{
		k.List("up", "down", "page_up", "page_down", "top", "bottom", "open", "diff"),
		k.List("filter", "fuzzy", "facets", "sort", "sort_reverse", "mark", "mark_all", "bulk", "save_view", "views"),
		s.label.bindings(),
	}
}

// counts is what the status bar shows: rows after the filter, all tasks,
// marked tasks.
func (s *Candidates) counts() (shown, total, marked int) {
	return len(s.rows), len(s.ctx.Catalog.Tasks), len(s.marked)
}

// tableRows is the number of task rows on screen (filter line, header and
// the current task's title take three).
func (s *Candidates) tableRows() int {
	n := s.h - 3
	if p := s.promptLines(); p > 0 {
		n -= p
	}
	return max(n, 1)
}

func (s *Candidates) current() *pipeline.Task {
	if s.cursor < 0 || s.cursor >= len(s.rows) {
		return nil
	}
	return s.ctx.Catalog.Tasks[s.rows[s.cursor]]
}

// rebuild sorts the whole catalogue and filters it again.
func (s *Candidates) rebuild() {
	cat := s.ctx.Catalog
	if len(s.order) != len(cat.Tasks) {
		s.order = make([]int, len(cat.Tasks))
	}
	for i := range s.order {
		s.order[i] = i
	}
	col := tableColumns[s.sortCol]
	sort.SliceStable(s.order, func(i, j int) bool {
		c := col.cmp(cat.Tasks[s.order[i]], cat.Tasks[s.order[j]], cat)
		if s.desc {
			return c > 0
		}
		return c < 0
	})
	s.prevText = "\x00" // force a full filter
	s.refilter()
}

// matcher is the filter as one predicate: an expression, words or fuzzy.
func (s *Candidates) matcher() (func(*pipeline.Task) bool, error) {
	text := strings.TrimSpace(s.filterText)
	var textOK func(*pipeline.Task) bool
	switch {
	case text == "":
	case s.fuzzy && !hasOperator(text):
		pat := strings.ToLower(text)
		textOK = func(t *pipeline.Task) bool { return fuzzyMatch(pat, t) }
	default:
		q, err := query.Parse(text)
		if err != nil {
			return nil, err
		}
		textOK = q.Match
	}
	facets := s.facets.active()
	return func(t *pipeline.Task) bool {
		if textOK != nil && !textOK(t) {
			return false
		}
		for _, f := range facets {
			if !f.vals[query.FieldValue(t, f.dim)] {
				return false
			}
		}
		return true
	}, nil
}

// refilter applies the filter. Typing more of the same words (or fuzzy
// pattern) only narrows, so it filters the rows already shown.
func (s *Candidates) refilter() {
	keep := ""
	if t := s.current(); t != nil {
		keep = t.ID
	}
	match, err := s.matcher()
	if err != nil {
		s.filterErr = err.Error()
		return
	}
	s.filterErr = ""
	src := s.order
	text := s.filterText
	narrow := s.prevText != "\x00" && text != s.prevText && strings.HasPrefix(text, s.prevText) && !hasOperator(text) && !strings.Contains(text, "\"")
	var out []int
	if narrow {
		src = s.rows
		out = s.rows[:0] // in place: out never overtakes src
	} else {
		out = make([]int, 0, len(src)/4+16)
	}
	tasks := s.ctx.Catalog.Tasks
	for _, i := range src {
		if match(tasks[i]) {
			out = append(out, i)
		}
	}
	s.rows = out
	s.prevText = text
	s.cursor = 0
	if keep != "" {
		for i, ti := range s.rows {
			if tasks[ti].ID == keep {
				s.cursor = i
				break
			}
		}
	}
	s.clamp()
}

func hasOperator(text string) bool {
	return strings.ContainsAny(text, "=~<>!") || strings.HasPrefix(text, "-")
}

// fuzzyMatch: the pattern's letters appear in order in id, repo or title.
func fuzzyMatch(pat string, t *pipeline.Task) bool {
	for _, hay := range [...]string{t.ID, t.Repo, t.Title} {
		if subsequence(pat, hay) {
			return true
		}
	}
	return false
}

func subsequence(pat, hay string) bool {
	j := 0
	for i := 0; i < len(hay) && j < len(pat); i++ {
		c := hay[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c == pat[j] || pat[j] == ' ' {
			j++
		}
	}
	return j == len(pat)
}

func (s *Candidates) clamp() {
	if s.cursor >= len(s.rows) {
		s.cursor = len(s.rows) - 1
	}
	if s.cursor < 0 {
		s.cursor = 0
	}
	n := s.tableRows()
	if s.cursor < s.offset {
		s.offset = s.cursor
	}
	if s.cursor >= s.offset+n {
		s.offset = s.cursor - n + 1
	}
	s.offset = max(min(s.offset, len(s.rows)-n), 0)
}

// moveTo sets the cursor and tells the other screens which task is current.
func (s *Candidates) moveTo(i int) tea.Cmd {
	before := s.current()
	s.cursor = i
	s.clamp()
	if t := s.current(); t != nil && t != before {
		s.ctx.CurrentID = t.ID
		return msgCmd(currentMsg{t.ID})
	}
	return nil
}

// step moves the cursor (labelling moves on to the next task).
func (s *Candidates) step(delta int) tea.Cmd {
	return s.moveTo(s.cursor + delta)
}

// targets are the ids a bulk action applies to: the marked tasks, else
// every task the filter shows.
func (s *Candidates) targets() []string {
	tasks := s.ctx.Catalog.Tasks
	var ids []string
	if len(s.marked) > 0 {
		for _, i := range s.rows {
			if s.marked[tasks[i].ID] {
				ids = append(ids, tasks[i].ID)
			}
		}
		// Marked tasks the filter now hides still count.
		if len(ids) < len(s.marked) {
			seen := map[string]bool{}
			for _, id := range ids {
				seen[id] = true
			}
			for id := range s.marked {
				if !seen[id] {
					ids = append(ids, id)
				}
			}
			sort.Strings(ids[len(seen):])
		}
		return ids
	}
	ids = make([]string, len(s.rows))
	for i, ti := range s.rows {
		ids[i] = tasks[ti].ID
	}
	return ids
}

func (s *Candidates) statusText() string {
	col := tableColumns[s.sortCol]
	dir := "↑"
	if s.desc {
		dir = "↓"
	}
	parts := []string{fmt.Sprintf("sort %s%s", strings.ToLower(col.title), dir)}
	if s.filterText != "" {
		mode := "filter"
		if s.fuzzy && !hasOperator(s.filterText) {
			mode = "fuzzy"
		}
		parts = append(parts, fmt.Sprintf("%s %q", mode, cleanLine(s.filterText)))
	} else if s.fuzzy {
		parts = append(parts, "fuzzy")
	}
	if f := s.facets.String(); f != "" {
		parts = append(parts, "facets "+f)
	}
	return strings.Join(parts, " · ")
}
