package quotas

import (
	"os"
	"strings"
	"testing"

	"curate/pipeline"
	"curate/pipeline/profiles"
	"curate/pipeline/selection"
	"curate/ui/shared"
	"curate/ui/uitest"
	"curate/workspace"
)

// shareApp's profile carries a share quota on python; curate.toml has none.
func shareApp(t *testing.T, w int) (*uitest.Host, *Model, *workspace.Workspace, selection.Config) {
	t.Helper()
	ws := uitest.Workspace(t)
	c := uitest.Context(t, "dark", ws)
	a := uitest.NewHost(t, c, shared.TabQuotas, New(c), w, 40)
	p, err := profiles.Load("ccb", "")
	if err != nil {
		t.Fatal(err)
	}
	prof := p.Selection
	half, budget := 0.5, 12
	prof.Quotas = []pipeline.Quota{{Dimension: "language", Value: "python", MaxShare: &half}}
	prof.Budget = &budget
	a.Ctx.Services.SaveSelection = func(b *int, qs []pipeline.Quota) error {
		return workspace.SaveSelection(ws.ConfigPath(), b, qs)
	}
	q := a.Screen.(*Model)
	q.SetSelection(prof, workspace.SelectionConfig{})
	return a, q, ws, prof
}

func (s *Model) cursorTo(t *testing.T, a *uitest.Host, dim, value string) quotaRow {
	t.Helper()
	for i, r := range s.rows {
		if r.dim == dim && r.value == value {
			a.Press(t, "g")
			for s.list.Cursor < i {
				a.Press(t, "j")
			}
			return r
		}
	}
	t.Fatalf("no row %s=%s", dim, value)
	return quotaRow{}
}

func TestShareQuotasShownAndEdited(t *testing.T) {
	a, q, _, _ := shareApp(t, 160)
	v := uitest.Plain(q.View())
	if !strings.Contains(v, "MIN%") || !strings.Contains(v, "MAX%") {
		t.Fatalf("no share columns:\n%s", v)
	}
	r := q.cursorTo(t, a, "language", "python")
	line := ""
	for _, l := range strings.Split(uitest.Plain(q.View()), "\n") {
		if strings.Contains(l, "python ") {
			line = l
		}
	}
	if !strings.Contains(line, "50%") {
		t.Fatalf("python row does not show max_share 50%%: %q", line)
	}
	// ] ] ] ] reaches MAX%: it takes a typed percent; a bad one is refused.
	a.Press(t, "]", "]", "]", "]", "enter")
	a.Type(t, "250")
	a.Press(t, "enter")
	if m := q.quotas[q.rows[q.list.Cursor].quota].MaxShare; m == nil || *m != 0.5 {
		t.Fatalf("250%% accepted: %v", m)
	}
	a.Press(t, "enter")
	a.Type(t, "75%")
	a.Press(t, "enter")
	if m := q.quotas[q.rows[q.list.Cursor].quota].MaxShare; m == nil || *m != 0.75 {
		t.Fatalf("typed 75%%, max_share = %v", m)
	}
	// [ goes back to MIN%: a nudge starts it next to what is selected.
	a.Press(t, "[", "+")
	got := q.quotas[q.rows[q.list.Cursor].quota]
	want := float64(r.have*100/12+1) / 100
	if got.MinShare == nil || *got.MinShare < want-0.011 || *got.MinShare > want+0.011 {
		t.Fatalf("min_share after a nudge = %v, want about %v (status %q)", got.MinShare, want, a.Status)
	}
	a.Press(t, "]", "enter")
	a.Type(t, "25")
	a.Press(t, "enter")
	if !strings.Contains(a.Status, "above max_share") {
		t.Errorf("max_share under min_share: status %q", a.Status)
	}
	a.Press(t, "[", "enter", "enter", "]", "enter")
	a.Type(t, "25")
	a.Press(t, "enter")
	if m := q.quotas[q.rows[q.list.Cursor].quota].MaxShare; m == nil || *m != 0.25 {
		t.Fatalf("typed 25, max_share = %v (status %q)", m, a.Status)
	}
	if lo, hi := selection.Bounds(q.quotas[q.rows[q.list.Cursor].quota], q.res.Budget); hi != 3 || lo != 0 {
		t.Errorf("bounds %d..%d of 25%% of 12", lo, hi)
	}
}

func TestProfileQuotaRemovedStaysRemoved(t *testing.T) {
	a, q, ws, prof := shareApp(t, 160)
	q.cursorTo(t, a, "language", "python")
	a.Press(t, "x")
	if q.rows[q.list.Cursor].quota >= 0 || len(q.quotas) != 0 {
		t.Fatalf("x left the quota: %+v", q.quotas)
	}
	a.Press(t, "S")
	data, _ := os.ReadFile(ws.ConfigPath())
	if !strings.Contains(string(data), `{ dimension = "language", value = "python", remove = true }`) {
		t.Fatalf("curate.toml does not keep the removal:\n%s", data)
	}
	cfg, err := workspace.LoadConfig(ws.ConfigPath())
	if err != nil {
		t.Fatal(err)
	}
	if merged := selection.MergeQuotas(prof.Quotas, cfg.Selection.Quotas); len(merged) != 0 {
		t.Fatalf("the profile's quota came back: %+v", merged)
	}
	// Opened again from disk, the row has no quota and nothing is unsaved.
	q.SetSelection(prof, cfg.Selection)
	r := q.cursorTo(t, a, "language", "python")
	if r.quota >= 0 || q.dirty {
		t.Fatalf("after reload: row %+v dirty %v", r, q.dirty)
	}
	// Saving again keeps the removal (it is still missing from the solve).
	a.Press(t, "g", "+", "S")
	data, _ = os.ReadFile(ws.ConfigPath())
	if !strings.Contains(string(data), "remove = true") {
		t.Fatalf("a second save lost the removal:\n%s", data)
	}
	// x on a row without a quota says so.
	a.Press(t, "x")
	if !strings.Contains(a.Status, "no quota on this row") {
		t.Errorf("status %q", a.Status)
	}
}
