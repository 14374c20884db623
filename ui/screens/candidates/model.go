// Package candidates is the task table: filter, facets, sort, marks, bulk
// labelling and saved views over the whole catalogue.
package candidates

import (
	"fmt"
	"sort"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/sahilm/fuzzy"

	"curate/pipeline"
	"curate/pipeline/query"
	"curate/ui/components/form"
	"curate/ui/components/frame"
	"curate/ui/components/scroller"
	"curate/ui/shared"
)

// Model is the task table: a virtual list over the catalogue that
// renders only the rows on screen, with a filter, facets, sort, marks,
// bulk actions and saved views.
type Model struct {
	ctx  *shared.Context
	w, h int

	order  []int // catalogue indexes in sort order
	rows   []int // the filtered subsequence of order
	scroll scroller.Model
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

	label form.Labeler
	bulk  *bulkState

	views     []SavedView
	viewMenu  *viewMenu
	nameInput textinput.Model
	naming    bool
}

// New builds the table over ctx.Catalog.
func New(c *shared.Context) *Model {
	fi := form.NewInput()
	fi.Prompt = "/ "
	fi.Placeholder = "substring, or an expression: language=go score>0.5"
	fi.CharLimit = 300
	ni := form.NewInput()
	ni.Prompt = "Save view as: "
	ni.CharLimit = 60
	s := &Model{ctx: c, marked: map[string]bool{}, facets: facetSet{}, filterInput: fi, nameInput: ni, label: form.NewLabeler(c)}
	s.rebuild()
	s.publish()
	return s
}

func (s *Model) Title() string { return "Candidates" }

func (s *Model) Init() tea.Cmd { return loadViewsCmd(s.ctx.Root) }

func (s *Model) SetSize(w, h int) {
	s.w, s.h = w, h
	s.label.Width = w
	s.filterInput.Width = max(w-36, 10)
	s.clamp()
}

func (s *Model) Capturing() bool {
	return s.filtering || s.naming || s.label.Active() || s.facet != nil || s.bulk != nil || s.viewMenu != nil
}

func (s *Model) ShortHelp() []key.Binding {
	return s.ctx.Keys.List("open", "filter", "facets", "sort", "mark", "bulk", "easy", "undo", "help")
}

func (s *Model) FullHelp() [][]key.Binding {
	k := s.ctx.Keys
	return [][]key.Binding{
		k.List("up", "down", "page_up", "page_down", "top", "bottom", "open", "diff"),
		k.List("filter", "fuzzy", "facets", "sort", "sort_reverse", "mark", "mark_all", "bulk", "save_view", "views"),
		s.label.Bindings(),
	}
}

// publish tells the other screens (through the shared context) what the
// table shows: the status bar counts it, Runs validates it.
func (s *Model) publish() {
	s.ctx.Table = shared.TableState{Rows: s.rows, Marked: s.marked}
}

// tableRows is the number of task rows on screen (filter line, header and
// the current task's title take three).
func (s *Model) tableRows() int {
	return max(s.h-3-s.promptLines()-len(s.errorLines()), 1)
}

func (s *Model) current() *pipeline.Task {
	if s.scroll.Cursor < 0 || s.scroll.Cursor >= len(s.rows) {
		return nil
	}
	return s.ctx.Catalog.Tasks[s.rows[s.scroll.Cursor]]
}

// rebuild sorts the whole catalogue and filters it again.
func (s *Model) rebuild() {
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
func (s *Model) matcher() (func(int) bool, error) {
	text := strings.TrimSpace(s.filterText)
	var textOK func(*pipeline.Task) bool
	var hayOK func(int) bool
	switch {
	case text == "":
	case s.fuzzyText() != "":
		// Ranked in refilter: the best matches first.
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
func (s *Model) refilter() {
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
	if pat := s.fuzzyText(); pat != "" {
		out = rankFuzzy(pat, out, tasks)
	}
	s.rows = out
	s.prevText = text
	s.scroll.Cursor = 0
	if keep != "" {
		for i, ti := range s.rows {
			if tasks[ti].ID == keep {
				s.scroll.Cursor = i
				break
			}
		}
	}
	s.clamp()
}

// ensureHay builds the search text of every task once per catalogue.
func (s *Model) ensureHay() {
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

// fuzzyText is the pattern of a fuzzy filter, "" when the filter is not
// fuzzy (off, empty or an expression).
func (s *Model) fuzzyText() string {
	text := strings.TrimSpace(s.filterText)
	if !s.fuzzy || hasOperator(text) {
		return ""
	}
	return text
}

// fuzzyFields is each candidate's id, repo and title as one list for the
// fuzzy matcher: field k of rows[i/3] is entry i.
type fuzzyFields struct {
	rows  []int
	tasks []*pipeline.Task
}

func (f fuzzyFields) Len() int { return 3 * len(f.rows) }

func (f fuzzyFields) String(i int) string {
	t := f.tasks[f.rows[i/3]]
	switch i % 3 {
	case 0:
		return t.ID
	case 1:
		return t.Repo
	}
	return frame.CutBytes(t.Title, 1024) // a title's head says enough
}

// rankFuzzy keeps the rows whose id, repo or title matches pat and orders
// them best match first (a task scores its best field); ties keep the
// table's sort.
func rankFuzzy(pat string, rows []int, tasks []*pipeline.Task) []int {
	best := map[int]int{}
	for _, m := range fuzzy.FindFromNoSort(pat, fuzzyFields{rows, tasks}) {
		r := rows[m.Index/3]
		if sc, ok := best[r]; !ok || m.Score > sc {
			best[r] = m.Score
		}
	}
	out := make([]int, 0, len(best))
	for _, r := range rows {
		if _, ok := best[r]; ok {
			out = append(out, r)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return best[out[i]] > best[out[j]] })
	return out
}

func (s *Model) clamp() { s.scroll.MoveTo(s.scroll.Cursor, len(s.rows), s.tableRows()) }

// moveTo sets the cursor (Update tells the other screens).
func (s *Model) moveTo(i int) { s.scroll.MoveTo(i, len(s.rows), s.tableRows()) }

// targets are the ids a bulk action applies to: the marked tasks, else
// every task the filter shows.
func (s *Model) targets() []string {
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

func (s *Model) statusText() string {
	col := tableColumns[s.sortCol]
	dir := "↑"
	if s.desc {
		dir = "↓"
	}
	parts := []string{fmt.Sprintf("sort %s%s", strings.ToLower(col.title), dir)}
	if s.filterText != "" {
		mode := "filter"
		if s.fuzzyText() != "" {
			mode = "fuzzy, best first"
		}
		parts = append(parts, fmt.Sprintf("%s %q", mode, frame.CleanLine(s.filterText)))
	} else if s.fuzzy {
		parts = append(parts, "fuzzy")
	}
	if f := s.facets.String(); f != "" {
		parts = append(parts, "facets "+f)
	}
	return strings.Join(parts, " · ")
}
