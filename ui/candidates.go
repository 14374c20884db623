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
	filterSeq   int    // the newest debounced expression filter

	// hay is each task's searchable text, lower-cased once, so a keystroke
	// is a fast strings.Contains per task.
	hay []string

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
	s.filterInput.Width = max(w-36, 10)
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

// matcher is the filter as one predicate over catalogue indexes: an
// expression, words or fuzzy, and the facets.
func (s *Candidates) matcher() (func(int) bool, error) {
	text := strings.TrimSpace(s.filterText)
	var textOK func(*pipeline.Task) bool
	var hayOK func(int) bool
	switch {
	case text == "":
	case s.fuzzy && !hasOperator(text):
		pat := strings.ToLower(text)
		textOK = func(t *pipeline.Task) bool { return fuzzyMatch(pat, t) }
	case !hasOperator(text) && !strings.Contains(text, "\""):
		// Plain words: the same meaning as query's bare words (all must
		// appear in id, repo, title, category or benchmark), searched in
		// the precomputed text.
		words := strings.Fields(strings.ToLower(text))
		s.ensureHay()
		hay := s.hay
		hayOK = func(i int) bool {
			h := hay[i]
			for _, w := range words {
				if !strings.Contains(h, w) {
					return false
				}
			}
			return true
		}
	default:
		q, err := query.Parse(text)
		if err != nil {
			return nil, err
		}
		textOK = q.Match
	}
	facets := s.facets.active()
	tasks := s.ctx.Catalog.Tasks
	return func(i int) bool {
		if hayOK != nil && !hayOK(i) {
			return false
		}
		t := tasks[i]
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
	for _, i := range src {
		if match(i) {
			out = append(out, i)
		}
	}
	tasks := s.ctx.Catalog.Tasks
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

// ensureHay builds the search text of every task once per catalogue.
func (s *Candidates) ensureHay() {
	tasks := s.ctx.Catalog.Tasks
	if len(s.hay) == len(tasks) {
		return
	}
	s.hay = make([]string, len(tasks))
	for i, t := range tasks {
		s.hay[i] = hayOf(t)
	}
}

// hayOf joins the fields a bare filter word searches; \x00 keeps a word
// from matching across two fields.
func hayOf(t *pipeline.Task) string {
	return strings.ToLower(t.ID + "\x00" + t.Repo + "\x00" + t.Title + "\x00" + t.EffectiveCategory() + "\x00" + t.Benchmark)
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
