package ui

import (
	"context"
	"os"
	"strings"
	"testing"

	"curate/pipeline"
	"curate/pipeline/profiles"
	"curate/workspace"
)

// Unsaved quota edits are named in the quit prompt at 80x24: esc stays,
// d quits without writing them, s writes them to curate.toml and quits.
func TestQuitNamesUnsavedQuotaEdits(t *testing.T) {
	a, ws := newTestApp(t, "dark", 80, 24)
	saves := 0
	a.ctx.Services.SaveSelection = func(budget *int, quotas []pipeline.Quota) error {
		saves++
		return workspace.SaveSelection(ws.ConfigPath(), budget, quotas)
	}
	p, err := profiles.Load("ccb", "")
	if err != nil {
		t.Fatal(err)
	}
	budget := 12
	a.quotas().SetSelection(p.Selection, workspace.SelectionConfig{Budget: &budget})
	press(t, a, "f5", "+")
	if a.quotas().Unsaved() == "" {
		t.Fatal("+ on the budget left nothing unsaved")
	}
	press(t, a, "q")
	view := plain(a.View())
	for _, want := range []string{"Quit with unsaved edits?", "budget and quota edits on the Quotas screen", "s    save them, then quit", "d    discard them and quit"} {
		if !strings.Contains(view, want) {
			t.Errorf("quit prompt lacks %q:\n%s", want, view)
		}
	}
	for _, l := range strings.Split(view, "\n") {
		if len([]rune(l)) > 80 {
			t.Errorf("line wider than 80: %q", l)
		}
	}
	press(t, a, "esc")
	if a.quitting != quitNotAsked || a.quotas().Unsaved() == "" {
		t.Fatalf("esc: quitting %v, unsaved %q", a.quitting, a.quotas().Unsaved())
	}
	press(t, a, "q")
	if _, cmd := a.Update(keyMsg("d")); !quits(cmd) || saves != 0 {
		t.Fatalf("d: quits %v, %d saves", quits(cmd), saves)
	}
	a.quitting = quitNotAsked
	press(t, a, "q")
	_, cmd := a.Update(keyMsg("s"))
	run(t, a, cmd)
	if saves != 1 {
		t.Fatalf("s: %d saves, want 1", saves)
	}
	data, _ := os.ReadFile(ws.ConfigPath())
	if !strings.Contains(string(data), "budget = 13") {
		t.Errorf("curate.toml after s:\n%s", data)
	}
}

// An open review form is named too, and s records the review.
func TestQuitSavesAnOpenReview(t *testing.T) {
	a, ws := newTestApp(t, "dark", 80, 24)
	press(t, a, "/")
	typeText(t, a, "fixture")
	press(t, a, "enter", "enter", "r", "1")
	if !strings.Contains(a.screens[1].(interface{ Unsaved() string }).Unsaved(), "an open review form on fixture-calc") {
		t.Fatalf("no open review form:\n%s", plain(a.View()))
	}
	press(t, a, "ctrl+c")
	if !strings.Contains(plain(a.View()), "an open review form on fixture-calc, not saved") {
		t.Fatalf("ctrl+c in the form:\n%s", plain(a.View()))
	}
	_, cmd := a.Update(keyMsg("s"))
	run(t, a, cmd)
	tk, err := ws.Store.Task(context.Background(), "fixture-calc")
	if err != nil || tk.Labels.Underspecified != "1" {
		t.Fatalf("review after s: %+v %v", tk.Labels, err)
	}
}
