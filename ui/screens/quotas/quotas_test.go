package quotas

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"curate/pipeline"
	"curate/pipeline/profiles"
	"curate/pipeline/selection"
	"curate/ui/shared"
	"curate/ui/uitest"
	"curate/workspace"
)

// quotasApp is a workbench whose Quotas screen holds the ccb profile's
// selection with a budget of 12 and one language quota.
func quotasApp(t testing.TB, w, h int) (*uitest.Host, *workspace.Workspace) {
	t.Helper()
	ws := uitest.Workspace(t)
	c := uitest.Context(t, "dark", ws)
	a := uitest.NewHost(t, c, shared.TabQuotas, New(c), w, h)
	p, err := profiles.Load("ccb", "")
	if err != nil {
		t.Fatal(err)
	}
	budget, two := 12, 2
	a.Screen.(*Model).SetSelection(p.Selection, workspace.SelectionConfig{Budget: &budget,
		Quotas: []pipeline.Quota{{Dimension: "language", Value: "go", Min: &two}}})
	return a, ws
}

func TestQuotasNudgeResolves(t *testing.T) {
	a, _ := quotasApp(t, 160, 40)
	q := a.Screen.(*Model)
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
	a.Press(t, "G")
	for q.list.Cursor > row {
		a.Press(t, "k")
	}
	for i := have; i <= have+1; i++ {
		a.Press(t, "+")
	}
	min := *q.quotas[q.rows[q.list.Cursor].quota].Min
	if min != have+2 && min != 4 {
		t.Fatalf("min after two nudges = %d (had %d)", min, have)
	}
	if got := q.rows[q.list.Cursor].have; got < min && q.res.Feasible {
		t.Errorf("go has %d < min %d but the solve says feasible", got, min)
	}
	entered, left := diffIDs(before, q.res.IDs())
	if len(entered) == 0 || len(entered) != len(left) {
		t.Errorf("entered %v left %v", entered, left)
	}
	v := uitest.Plain(a.Screen.View())
	for _, want := range []string{"unsaved (S saves, D discards)", "entered (", "language    go"} {
		if !strings.Contains(v, want) {
			t.Errorf("view lacks %q:\n%s", want, v)
		}
	}
	// Typing a number, then clearing it removes the quota.
	a.Press(t, "enter")
	a.Type(t, "0")
	a.Press(t, "enter")
	if m := q.quotas[q.rows[q.list.Cursor].quota].Min; m == nil || *m != 0 {
		t.Errorf("typed 0, min = %v", m)
	}
	a.Press(t, "enter", "enter")
	if q.rows[q.list.Cursor].quota >= 0 {
		t.Errorf("cleared min but the quota stays: %+v", q.quotas)
	}
	// Discard goes back to the config.
	a.Press(t, "D")
	if q.dirty || len(q.quotas) != 1 || *q.quotas[0].Min != 2 {
		t.Errorf("after discard: dirty %v quotas %+v", q.dirty, q.quotas)
	}
}

func TestQuotasBudgetAndInfeasible(t *testing.T) {
	a, _ := quotasApp(t, 160, 40)
	q := a.Screen.(*Model)
	a.Press(t, "g", "+")
	if q.res.Budget != 13 || len(q.res.Picks) != 13 {
		t.Errorf("budget nudge: %d picks of %d", len(q.res.Picks), q.res.Budget)
	}
	a.Press(t, "enter")
	a.Type(t, "x")
	a.Press(t, "enter")
	if q.res.Budget != 13 {
		t.Errorf("a bad number changed the budget")
	}
	// A quota no catalogue can meet names itself.
	for i, r := range q.rows {
		if r.dim == "language" && r.value == "rust" {
			q.list.Cursor = i
		}
	}
	a.Press(t, "enter")
	a.Type(t, "11")
	a.Press(t, "enter")
	if q.res.Feasible {
		t.Fatal("min 11 rust on a 26-task catalogue is feasible?")
	}
	if v := uitest.Plain(a.Screen.View()); !strings.Contains(v, "INFEASIBLE") || !strings.Contains(v, "cannot meet: ") || !strings.Contains(v, "rust") {
		t.Errorf("verdict not shown:\n%s", v)
	}
}

func TestQuotasPinsShow(t *testing.T) {
	a, _ := quotasApp(t, 160, 40)
	q := a.Screen.(*Model)
	var out *pipeline.Task
	for _, t := range a.Ctx.Catalog.Tasks {
		if selection.Eligible(t) && !slices.Contains(q.res.IDs(), t.ID) {
			out = t
			break
		}
	}
	pinned := *out
	pinned.Labels.Pinned = true
	a.Run(t, shared.MsgCmd(shared.LabelledMsg{Tasks: []*pipeline.Task{&pinned}, What: "pin"}))
	if !slices.Contains(q.res.IDs(), out.ID) || !slices.Contains(q.entered, out.ID) {
		t.Errorf("pinned %s is not in the solve (entered %v)", out.ID, q.entered)
	}
	if v := uitest.Plain(a.Screen.View()); !strings.Contains(v, "pinned 1") {
		t.Errorf("pins not shown:\n%s", v)
	}
}

func TestQuotasSave(t *testing.T) {
	a, ws := quotasApp(t, 160, 40)
	a.Ctx.Services.SaveSelection = func(b *int, qs []pipeline.Quota) error {
		return workspace.SaveSelection(ws.ConfigPath(), b, qs)
	}
	a.Press(t, "g", "+", "S")
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
	if a.Screen.(*Model).dirty {
		t.Error("still dirty after save")
	}
}
