package ui

import (
	"context"
	"os"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"curate/pipeline"
)

func TestCandidatesFilter(t *testing.T) {
	a, _ := newTestApp(t, "dark", 160, 40)
	c := a.candidates
	if n, total, _ := c.counts(); n != total || total != 26 {
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
			press(t, a, "/")
			if !c.filtering || !a.screens[tabCandidates].Capturing() {
				t.Fatal("/ did not open the filter")
			}
			c.filterInput.SetValue("")
			typeText(t, a, tc.text)
			press(t, a, "enter")
			if tc.err != (c.filterErr != "") {
				t.Fatalf("filter error %q, want error %v", c.filterErr, tc.err)
			}
			if tc.want >= 0 && len(c.rows) != tc.want {
				t.Fatalf("%q: %d rows, want %d", tc.text, len(c.rows), tc.want)
			}
			for _, i := range c.rows {
				tk := a.ctx.Catalog.Tasks[i]
				if tc.name == "expression" && (tk.Language != "go" || tk.Benchmark != "ccb_swebenchpro") {
					t.Errorf("%s matched %s", tc.text, tk.ID)
				}
			}
			press(t, a, "/", "esc")
		})
	}
	if len(c.rows) != 26 {
		t.Errorf("esc in the filter left %d rows", len(c.rows))
	}
}

func TestCandidatesNarrowingMatchesFullFilter(t *testing.T) {
	a, _ := newTestApp(t, "dark", 160, 40)
	c := a.candidates
	press(t, a, "/")
	for _, r := range "ins go" {
		typeText(t, a, string(r))
		narrowed := append([]int(nil), c.rows...)
		c.prevText = "\x00"
		c.refilter()
		if len(narrowed) != len(c.rows) {
			t.Fatalf("after %q: narrowing kept %d rows, a full filter %d", c.filterText, len(narrowed), len(c.rows))
		}
	}
}

func TestCandidatesSortAndFacets(t *testing.T) {
	a, _ := newTestApp(t, "dark", 160, 40)
	c := a.candidates
	// o cycles to the next column: benchmark.
	press(t, a, "o")
	if tableColumns[c.sortCol].title != "BENCHMARK" {
		t.Fatalf("sort column %s", tableColumns[c.sortCol].title)
	}
	prev := ""
	for _, i := range c.rows {
		b := a.ctx.Catalog.Tasks[i].Benchmark
		if b < prev {
			t.Fatalf("not sorted by benchmark: %s after %s", b, prev)
		}
		prev = b
	}
	press(t, a, "O")
	first := a.ctx.Catalog.Tasks[c.rows[0]].Benchmark
	if first != "ccb_swebenchpro" {
		t.Errorf("descending sort starts with %s", first)
	}
	// Facets: choose language=python.
	press(t, a, "f")
	if c.facet == nil {
		t.Fatal("f did not open facets")
	}
	for i, it := range c.facet.items {
		if it.dim == "language" && it.value == "python" {
			c.facet.cursor = i
		}
	}
	press(t, a, " ", "enter")
	if c.facet != nil {
		t.Fatal("enter did not close facets")
	}
	for _, i := range c.rows {
		if tk := a.ctx.Catalog.Tasks[i]; tk.Language != "python" {
			t.Errorf("facet language=python shows %s (%s)", tk.ID, tk.Language)
		}
	}
	if len(c.rows) == 0 || !strings.Contains(c.statusText(), "facets language=python") {
		t.Errorf("rows %d, status %q", len(c.rows), c.statusText())
	}
}

func TestCandidatesBulkLabelConfirmsCount(t *testing.T) {
	a, ws := newTestApp(t, "dark", 160, 40)
	c := a.candidates
	press(t, a, "/")
	typeText(t, a, "dibench")
	press(t, a, "enter", "B")
	if c.bulk == nil || len(c.bulk.ids) != 6 {
		t.Fatalf("bulk over the filtered set: %+v", c.bulk)
	}
	press(t, a, "p")
	if !strings.Contains(plain(c.View()), "Apply pin to 6 tasks (every task the filter shows)? y/n") {
		t.Fatalf("no count confirmation:\n%s", plain(c.View()))
	}
	press(t, a, "y")
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
	press(t, a, "u")
	tasks, _ = ws.Store.Tasks(context.Background())
	for _, tk := range tasks {
		if tk.Labels.Pinned {
			t.Errorf("%s still pinned after undo", tk.ID)
		}
	}
	// Marks take precedence over the filter; n cancels.
	press(t, a, "/", "esc", " ", " ", "B", "3")
	if c.bulk == nil || len(c.bulk.ids) != 2 || !c.bulk.fromMarks {
		t.Fatalf("bulk over marks: %+v", c.bulk)
	}
	press(t, a, "n")
	if c.bulk != nil {
		t.Fatal("n did not cancel")
	}
}

func TestCandidatesMarkAllAndMouse(t *testing.T) {
	a, _ := newTestApp(t, "dark", 160, 20)
	c := a.candidates
	press(t, a, "a")
	if len(c.marked) != 26 {
		t.Fatalf("a marked %d", len(c.marked))
	}
	press(t, a, "a")
	if len(c.marked) != 0 {
		t.Fatalf("a again left %d marked", len(c.marked))
	}
	// Click the fourth task row: tab bar, filter line, header come first.
	run(t, a, func() tea.Msg {
		return tea.MouseMsg{X: 10, Y: 1 + 2 + 3, Button: tea.MouseButtonLeft, Action: tea.MouseActionPress}
	})
	if c.cursor != 3 || a.ctx.CurrentID != a.ctx.Catalog.Tasks[c.rows[3]].ID {
		t.Fatalf("click: cursor %d, current %s", c.cursor, a.ctx.CurrentID)
	}
	run(t, a, func() tea.Msg { return tea.MouseMsg{Button: tea.MouseButtonWheelDown, Y: 5} })
	if c.offset != 3 {
		t.Errorf("wheel: offset %d, want 3", c.offset)
	}
	// Clicking a tab switches to it.
	x := 0
	for i := tabCandidates; i < tabTask; i++ {
		x += len(a.tabLabel(i, a.screens[i])) + 4
	}
	run(t, a, func() tea.Msg {
		return tea.MouseMsg{X: x + 1, Y: 0, Button: tea.MouseButtonLeft, Action: tea.MouseActionPress}
	})
	if a.active != tabTask {
		t.Errorf("click on the Task tab left tab %d active", a.active)
	}
	// M turns the mouse off: clicks are ignored.
	press(t, a, "M")
	run(t, a, func() tea.Msg {
		return tea.MouseMsg{X: 1, Y: 0, Button: tea.MouseButtonLeft, Action: tea.MouseActionPress}
	})
	if a.active != tabTask {
		t.Error("mouse off, but a click switched tabs")
	}
}

func TestSavedViews(t *testing.T) {
	a, ws := newTestApp(t, "dark", 160, 40)
	c := a.candidates
	press(t, a, "/")
	typeText(t, a, "language=python")
	press(t, a, "enter", "O", "w")
	typeText(t, a, "py desc")
	press(t, a, "enter")
	data, err := os.ReadFile(ViewsFile(ws.Root))
	if err != nil || !strings.Contains(string(data), `"filter": "language=python"`) {
		t.Fatalf("views.json: %s, %v", data, err)
	}
	want := len(c.rows)
	press(t, a, "/", "esc", "O")
	if len(c.rows) == want {
		t.Fatal("filter not cleared")
	}
	// A new workbench loads the views from disk.
	b := New(Options{Context: &Context{Styles: a.ctx.Styles, Keys: a.ctx.Keys, Store: ws.Store, Root: ws.Root, Actor: "t"}})
	run(t, b, b.Init())
	run(t, b, func() tea.Msg { return tea.WindowSizeMsg{Width: 160, Height: 40} })
	press(t, b, "v")
	if !strings.Contains(plain(b.View()), "py desc") {
		t.Fatalf("views menu:\n%s", plain(b.View()))
	}
	press(t, b, "enter")
	if len(b.candidates.rows) != want || !b.candidates.desc {
		t.Errorf("applied view: %d rows (want %d), desc %v", len(b.candidates.rows), want, b.candidates.desc)
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
	a, ws := newTestApp(t, "dark", 160, 40)
	c := a.candidates
	first := c.current().ID
	press(t, a, "3")
	if c.cursor != 1 {
		t.Errorf("cursor %d after labelling, want 1", c.cursor)
	}
	tk, _ := ws.Store.Task(context.Background(), first)
	if tk.Labels.Difficulty != "hard" {
		t.Fatalf("%s label %q", first, tk.Labels.Difficulty)
	}
	if !strings.Contains(plain(a.View()), "hard*") {
		t.Error("the table does not mark the curator's label")
	}
	_ = pipeline.FieldDifficulty
}

func TestCandidatesHeaderClickSorts(t *testing.T) {
	a, _ := newTestApp(t, "dark", 160, 30)
	c := a.candidates
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
		run(t, a, func() tea.Msg {
			return tea.MouseMsg{X: x, Y: 2, Button: tea.MouseButtonLeft, Action: tea.MouseActionPress}
		})
	}
	click()
	if tableColumns[c.sortCol].title != "SCORE" || c.desc {
		t.Fatalf("click on SCORE: sort %s desc %v", tableColumns[c.sortCol].title, c.desc)
	}
	click()
	if !c.desc || a.ctx.Catalog.Tasks[c.rows[0]].ID != "fixture-calc" {
		t.Errorf("second click: desc %v, first %s", c.desc, a.ctx.Catalog.Tasks[c.rows[0]].ID)
	}
}

func TestCandidatesEmptyStates(t *testing.T) {
	keys, _ := NewKeyMap(nil)
	c := &Context{Styles: testStyles(t, "dark"), Keys: keys}
	a := New(Options{Context: c})
	a.Update(tea.WindowSizeMsg{Width: 120, Height: 20})
	if v := plain(a.View()); !strings.Contains(v, "no tasks in this workspace yet") {
		t.Errorf("empty workspace:\n%s", v)
	}
	c.Jobs = 1
	if v := plain(a.View()); !strings.Contains(v, "loading tasks…") {
		t.Errorf("while loading:\n%s", v)
	}
}
