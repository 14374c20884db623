package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"curate/pipeline"
	"curate/pipeline/profiles"
	"curate/pipeline/selection"
	"curate/workspace"
)

// quotasApp is a workbench whose Quotas screen holds the ccb profile's
// selection with a budget of 12 and one language quota.
func quotasApp(t testing.TB, w, h int) (*App, *workspace.Workspace) {
	t.Helper()
	a, ws := newTestApp(t, "dark", w, h)
	p, err := profiles.Load("ccb", "")
	if err != nil {
		t.Fatal(err)
	}
	budget, two := 12, 2
	a.quotas.SetSelection(p.Selection, workspace.SelectionConfig{Budget: &budget,
		Quotas: []pipeline.Quota{{Dimension: "language", Value: "go", Min: &two}}})
	press(t, a, "tab", "tab", "tab", "tab")
	return a, ws
}

func TestQuotasNudgeResolves(t *testing.T) {
	a, _ := quotasApp(t, 160, 40)
	q := a.quotas
	if q.res == nil || len(q.res.Picks) != 12 {
		t.Fatalf("no solve: %v %s", q.res, q.err)
	}
	before := q.res.IDs()
	// The go row carries the quota; raise its min past what is selected.
	row := -1
	for i, r := range q.rows {
		if r.dim == "language" && r.value == "go" {
			row = i
		}
	}
	if row < 0 || q.rows[row].quota < 0 {
		t.Fatalf("no go quota row: %+v", q.rows)
	}
	have := q.rows[row].have
	press(t, a, "G")
	for q.cursor > row {
		press(t, a, "k")
	}
	for i := have; i <= have+1; i++ {
		press(t, a, "+")
	}
	min := *q.quotas[q.rows[q.cursor].quota].Min
	if min != have+2 && min != 4 {
		t.Fatalf("min after two nudges = %d (had %d)", min, have)
	}
	if got := q.rows[q.cursor].have; got < min && q.res.Feasible {
		t.Errorf("go has %d < min %d but the solve says feasible", got, min)
	}
	entered, left := diffIDs(before, q.res.IDs())
	if len(entered) == 0 || len(entered) != len(left) {
		t.Errorf("entered %v left %v", entered, left)
	}
	v := plain(a.View())
	for _, want := range []string{"unsaved (S saves, D discards)", "entered (", "language    go"} {
		if !strings.Contains(v, want) {
			t.Errorf("view lacks %q:\n%s", want, v)
		}
	}
	// Typing a number, then clearing it removes the quota.
	press(t, a, "enter")
	typeText(t, a, "0")
	press(t, a, "enter")
	if m := q.quotas[q.rows[q.cursor].quota].Min; m == nil || *m != 0 {
		t.Errorf("typed 0, min = %v", m)
	}
	press(t, a, "enter", "enter")
	if q.rows[q.cursor].quota >= 0 {
		t.Errorf("cleared min but the quota stays: %+v", q.quotas)
	}
	// Discard goes back to the config.
	press(t, a, "D")
	if q.dirty || len(q.quotas) != 1 || *q.quotas[0].Min != 2 {
		t.Errorf("after discard: dirty %v quotas %+v", q.dirty, q.quotas)
	}
}

func TestQuotasBudgetAndInfeasible(t *testing.T) {
	a, _ := quotasApp(t, 160, 40)
	q := a.quotas
	press(t, a, "g", "+")
	if q.res.Budget != 13 || len(q.res.Picks) != 13 {
		t.Errorf("budget nudge: %d picks of %d", len(q.res.Picks), q.res.Budget)
	}
	press(t, a, "enter")
	typeText(t, a, "x")
	press(t, a, "enter")
	if q.res.Budget != 13 {
		t.Errorf("a bad number changed the budget")
	}
	// A quota no catalogue can meet names itself.
	for i, r := range q.rows {
		if r.dim == "language" && r.value == "rust" {
			q.cursor = i
		}
	}
	press(t, a, "enter")
	typeText(t, a, "11")
	press(t, a, "enter")
	if q.res.Feasible {
		t.Fatal("min 11 rust on a 26-task catalogue is feasible?")
	}
	if v := plain(a.View()); !strings.Contains(v, "INFEASIBLE") || !strings.Contains(v, "cannot meet: ") || !strings.Contains(v, "rust") {
		t.Errorf("verdict not shown:\n%s", v)
	}
}

func TestQuotasPinsShow(t *testing.T) {
	a, _ := quotasApp(t, 160, 40)
	q := a.quotas
	var out *pipeline.Task
	for _, t := range a.ctx.Catalog.Tasks {
		if selection.Eligible(t) && !contains(q.res.IDs(), t.ID) {
			out = t
			break
		}
	}
	pinned := *out
	pinned.Labels.Pinned = true
	a.Update(labelledMsg{tasks: []*pipeline.Task{&pinned}, what: "pin"})
	if !contains(q.res.IDs(), out.ID) || !contains(q.entered, out.ID) {
		t.Errorf("pinned %s is not in the solve (entered %v)", out.ID, q.entered)
	}
	if v := plain(a.View()); !strings.Contains(v, "pinned 1") {
		t.Errorf("pins not shown:\n%s", v)
	}
}

func TestQuotasSave(t *testing.T) {
	a, ws := quotasApp(t, 160, 40)
	a.quotas.svc.SaveSelection = func(b *int, qs []pipeline.Quota) error {
		return workspace.SaveSelection(ws.ConfigPath(), b, qs)
	}
	press(t, a, "g", "+", "S")
	cfg, err := workspace.LoadConfig(ws.ConfigPath())
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Selection.Budget == nil || *cfg.Selection.Budget != 13 || len(cfg.Selection.Quotas) != 1 {
		t.Errorf("saved %+v", cfg.Selection)
	}
	data, _ := os.ReadFile(filepath.Join(ws.Root, "curate.toml"))
	if !strings.Contains(string(data), "[ui]") {
		t.Errorf("the rest of curate.toml was lost:\n%s", data)
	}
	if a.quotas.dirty {
		t.Error("still dirty after save")
	}
}
