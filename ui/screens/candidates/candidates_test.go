package candidates

import (
	"context"
	"os"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"curate/pipeline"
	"curate/ui/shared"
	"curate/ui/uitest"
	"curate/workspace"
)

func TestCandidatesFilter(t *testing.T) {
	h, c, _ := newHost(t, 160, 40)
	if n, total := len(c.rows), len(h.Ctx.Catalog.Tasks); n != total || total != 26 {
		t.Fatalf("start: %d of %d shown, want all 26", n, total)
	}
	cases := []struct {
		name, text string
		fuzzy      bool
		want       int
		err        bool
	}{
		{"substring", "sgt", false, 6, false},
		{"substring narrowing", "sgt-00", false, 6, false},
		{"expression", "language=go benchmark=ccb_swebenchpro", false, -1, false},
		{"numeric", "loc>1000000", false, 0, false},
		{"bad expression", "score>abc", false, -1, true},
		{"fuzzy", "fxcalc", true, 1, false},
		{"no fuzzy", "fxcalc", false, 0, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c.fuzzy = tc.fuzzy
			h.Press(t, "/")
			if !c.filtering || !c.Capturing() {
				t.Fatal("/ did not open the filter")
			}
			c.filterInput.SetValue("")
			h.Type(t, tc.text)
			h.Press(t, "enter")
			if tc.err != (c.filterErr != "") {
				t.Fatalf("filter error %q, want error %v", c.filterErr, tc.err)
			}
			if tc.want >= 0 && len(c.rows) != tc.want {
				t.Fatalf("%q: %d rows, want %d", tc.text, len(c.rows), tc.want)
			}
			for _, i := range c.rows {
				tk := h.Ctx.Catalog.Tasks[i]
				if tc.name == "expression" && (tk.Language != "go" || tk.Benchmark != "ccb_swebenchpro") {
					t.Errorf("%s matched %s", tc.text, tk.ID)
				}
			}
			h.Press(t, "/", "esc")
		})
	}
	if len(c.rows) != 26 {
		t.Errorf("esc in the filter left %d rows", len(c.rows))
	}
}

func TestCandidatesNarrowingMatchesFullFilter(t *testing.T) {
	h, c, _ := newHost(t, 160, 40)
	h.Press(t, "/")
	for _, r := range "ins go" {
		h.Type(t, string(r))
		narrowed := append([]int(nil), c.rows...)
		c.prevText = "\x00"
		c.refilter()
		if len(narrowed) != len(c.rows) {
			t.Fatalf("after %q: narrowing kept %d rows, a full filter %d", c.filterText, len(narrowed), len(c.rows))
		}
	}
}

func TestCandidatesSortAndFacets(t *testing.T) {
	h, c, _ := newHost(t, 160, 40)
	// o cycles to the next column: benchmark.
	h.Press(t, "o")
	if tableColumns[c.sortCol].title != "BENCHMARK" {
		t.Fatalf("sort column %s", tableColumns[c.sortCol].title)
	}
	prev := ""
	for _, i := range c.rows {
		b := h.Ctx.Catalog.Tasks[i].Benchmark
		if b < prev {
			t.Fatalf("not sorted by benchmark: %s after %s", b, prev)
		}
		prev = b
	}
	h.Press(t, "O")
	first := h.Ctx.Catalog.Tasks[c.rows[0]].Benchmark
	if first != "ccb_swebenchpro" {
		t.Errorf("descending sort starts with %s", first)
	}
	// Facets: choose language=python.
	h.Press(t, "f")
	if c.facet == nil {
		t.Fatal("f did not open facets")
	}
	for i, it := range c.facet.items {
		if it.dim == "language" && it.value == "python" {
			c.facet.scroll.Cursor = i
		}
	}
	h.Press(t, " ", "enter")
	if c.facet != nil {
		t.Fatal("enter did not close facets")
	}
	for _, i := range c.rows {
		if tk := h.Ctx.Catalog.Tasks[i]; tk.Language != "python" {
			t.Errorf("facet language=python shows %s (%s)", tk.ID, tk.Language)
		}
	}
	if len(c.rows) == 0 || !strings.Contains(c.statusText(), "facets language=python") {
		t.Errorf("rows %d, status %q", len(c.rows), c.statusText())
	}
}

func TestCandidatesBulkLabelConfirmsCount(t *testing.T) {
	h, c, ws := newHost(t, 160, 40)
	h.Press(t, "/")
	h.Type(t, "dibench")
	h.Press(t, "enter", "B")
	if c.bulk == nil || len(c.bulk.ids) != 6 {
		t.Fatalf("bulk over the filtered set: %+v", c.bulk)
	}
	h.Press(t, "p")
	if !strings.Contains(uitest.Plain(c.View()), "Apply pin to 6 tasks (every task the filter shows)? y/n") {
		t.Fatalf("no count confirmation:\n%s", uitest.Plain(c.View()))
	}
	h.Press(t, "y")
	tasks, _ := ws.Store.Tasks(context.Background())
	pinned := 0
	for _, tk := range tasks {
		if tk.Labels.Pinned {
			pinned++
			if tk.Benchmark != "ccb_dibench" {
				t.Errorf("pinned %s outside the filter", tk.ID)
			}
		}
	}
	if pinned != 6 {
		t.Fatalf("%d tasks pinned in the store, want 6", pinned)
	}
	// One undo reverts the whole bulk action, as `curate undo` does.
	h.Run(t, h.Ctx.UndoCmd(false))
	tasks, _ = ws.Store.Tasks(context.Background())
	for _, tk := range tasks {
		if tk.Labels.Pinned {
			t.Errorf("%s still pinned after undo", tk.ID)
		}
	}
	// Marks take precedence over the filter; n cancels.
	h.Press(t, "/", "esc", " ", " ", "B", "3")
	if c.bulk == nil || len(c.bulk.ids) != 2 || !c.bulk.fromMarks {
		t.Fatalf("bulk over marks: %+v", c.bulk)
	}
	h.Press(t, "n")
	if c.bulk != nil {
		t.Fatal("n did not cancel")
	}
}

func TestCandidatesMarkAllAndMouse(t *testing.T) {
	h, c, _ := newHost(t, 160, 20)
	h.Press(t, "a")
	if len(c.marked) != 26 {
		t.Fatalf("a marked %d", len(c.marked))
	}
	h.Press(t, "a")
	if len(c.marked) != 0 {
		t.Fatalf("a again left %d marked", len(c.marked))
	}
	// Click the fourth task row: tab bar, filter line, header come first.
	h.Run(t, func() tea.Msg {
		return tea.MouseMsg{X: 10, Y: 2 + 3, Button: tea.MouseButtonLeft, Action: tea.MouseActionPress}
	})
	if c.scroll.Cursor != 3 || h.Ctx.CurrentID != h.Ctx.Catalog.Tasks[c.rows[3]].ID {
		t.Fatalf("click: cursor %d, current %s", c.scroll.Cursor, h.Ctx.CurrentID)
	}
	h.Run(t, func() tea.Msg { return tea.MouseMsg{Button: tea.MouseButtonWheelDown, Y: 5} })
	if c.scroll.Offset != 3 {
		t.Errorf("wheel: offset %d, want 3", c.scroll.Offset)
	}
}

func TestSavedViews(t *testing.T) {
	h, c, ws := newHost(t, 160, 40)
	h.Press(t, "/")
	h.Type(t, "language=python")
	h.Press(t, "enter", "O", "w")
	h.Type(t, "py desc")
	h.Press(t, "enter")
	data, err := os.ReadFile(ViewsFile(ws.Root))
	if err != nil || !strings.Contains(string(data), `"filter": "language=python"`) {
		t.Fatalf("views.json: %s, %v", data, err)
	}
	want := len(c.rows)
	h.Press(t, "/", "esc", "O")
	if len(c.rows) == want {
		t.Fatal("filter not cleared")
	}
	// A new workbench loads the views from disk.
	c2 := uitest.Context(t, "dark", ws)
	b := New(c2)
	hb := uitest.NewHost(t, c2, shared.TabCandidates, b, 160, 40)
	hb.Press(t, "v")
	if !strings.Contains(uitest.Plain(b.View()), "py desc") {
		t.Fatalf("views menu:\n%s", uitest.Plain(b.View()))
	}
	hb.Press(t, "enter")
	if len(b.rows) != want || !b.desc {
		t.Errorf("applied view: %d rows (want %d), desc %v", len(b.rows), want, b.desc)
	}
}

func TestParseViewsRejectsBadInput(t *testing.T) {
	for name, text := range map[string]string{
		"not json":   "{",
		"no name":    `[{"filter":"x"}]`,
		"bad filter": `[{"name":"a","filter":"score>x"}]`,
		"bad sort":   `[{"name":"a","sort":"colour"}]`,
		"bad facet":  `[{"name":"a","facets":{"mood":["x"]}}]`,
	} {
		if _, err := ParseViews(".curate/views.json", []byte(text)); err == nil || !strings.Contains(err.Error(), ".curate/views.json") {
			t.Errorf("%s: error %v", name, err)
		}
	}
}

func FuzzParseViews(f *testing.F) {
	f.Add([]byte(`[{"name":"a","filter":"language=go","sort":"SCORE","facets":{"phase":["Testing & QA"]}}]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		views, err := ParseViews("v", data)
		if err != nil {
			return
		}
		for _, v := range views {
			if strings.TrimSpace(v.Name) == "" {
				t.Fatal("accepted a view without a name")
			}
		}
	})
}

func TestCandidatesLabelKeysMoveOn(t *testing.T) {
	h, c, ws := newHost(t, 160, 40)
	first := c.current().ID
	h.Press(t, "3")
	if c.scroll.Cursor != 1 {
		t.Errorf("cursor %d after labelling, want 1", c.scroll.Cursor)
	}
	tk, _ := ws.Store.Task(context.Background(), first)
	if tk.Labels.Difficulty != "hard" {
		t.Fatalf("%s label %q", first, tk.Labels.Difficulty)
	}
	if !strings.Contains(uitest.Plain(c.View()), "hard*") {
		t.Error("the table does not mark the curator's label")
	}
	_ = pipeline.FieldDifficulty
}

func TestCandidatesHeaderClickSorts(t *testing.T) {
	h, c, _ := newHost(t, 160, 30)
	x := -1
	cols, widths := layoutColumns(160)
	pos := 2
	for i, ci := range cols {
		if tableColumns[ci].title == "SCORE" {
			x = pos + 1
		}
		pos += widths[i] + 1
	}
	click := func() {
		h.Run(t, func() tea.Msg {
			return tea.MouseMsg{X: x, Y: 1, Button: tea.MouseButtonLeft, Action: tea.MouseActionPress}
		})
	}
	click()
	if tableColumns[c.sortCol].title != "SCORE" || c.desc {
		t.Fatalf("click on SCORE: sort %s desc %v", tableColumns[c.sortCol].title, c.desc)
	}
	click()
	if !c.desc || h.Ctx.Catalog.Tasks[c.rows[0]].ID != "fixture-calc" {
		t.Errorf("second click: desc %v, first %s", c.desc, h.Ctx.Catalog.Tasks[c.rows[0]].ID)
	}
}

// newHost shows the table on a fresh test workspace at w×h (the whole
// terminal: the App's tab and status bars take two rows).
func newHost(t *testing.T, w, h int) (*uitest.Host, *Model, *workspace.Workspace) {
	t.Helper()
	ws := uitest.Workspace(t)
	c := uitest.Context(t, "dark", ws)
	s := New(c)
	return uitest.NewHost(t, c, shared.TabCandidates, s, w, h), s, ws
}

// Fuzzy matches are ranked: the closest match comes first whatever the
// table's sort.
func TestFuzzyFilterRanksMatches(t *testing.T) {
	h, c, _ := newHost(t, 160, 40)
	h.Press(t, "O") // sort by id, descending: fixture-calc is not first by sort
	h.Press(t, "~", "/")
	h.Type(t, "calc")
	h.Press(t, "enter")
	if len(c.rows) < 2 {
		t.Fatalf("calc matched %d tasks; the test needs scattered matches too", len(c.rows))
	}
	if first := h.Ctx.Catalog.Tasks[c.rows[0]].ID; first != "fixture-calc" {
		var ids []string
		for _, i := range c.rows {
			ids = append(ids, h.Ctx.Catalog.Tasks[i].ID)
		}
		t.Errorf("best match %s first, want fixture-calc; order %v", first, ids)
	}
	if !strings.Contains(uitest.Plain(c.View()), `fuzzy, best first "calc"`) {
		t.Errorf("the filter line does not say the order:\n%s", uitest.Plain(c.View()))
	}
}

// Ids sharing a long prefix stay apart on a narrow table: the ID column
// cuts them in the middle.
func TestLongIDsStayApartAt80Columns(t *testing.T) {
	c := uitest.Context(t, "dark", nil)
	c.Catalog = shared.NewCatalog([]*pipeline.Task{
		{ID: "c_architectural_understanding_expert_020", Benchmark: "ccb_locobench"},
		{ID: "c_architectural_understanding_expert_022", Benchmark: "ccb_locobench"},
	}, nil)
	s := New(c)
	s.SetSize(80, 10)
	v := uitest.Plain(s.View())
	for _, want := range []string{"_expert_020", "_expert_022"} {
		if !strings.Contains(v, "…") || !strings.Contains(v, want) {
			t.Errorf("no %q in:\n%s", want, v)
		}
	}
}
