package ui

import (
	"context"
	"errors"
	"regexp"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"curate/app"
	"curate/pipeline"
	"curate/ui/shared"
	"curate/ui/uitest"
)

func TestHelpIsTheActiveScreens(t *testing.T) {
	a, _ := newTestApp(t, "dark", 160, 50)
	press(t, a, "?")
	v := plain(a.View())
	if !strings.Contains(v, "Keys: Candidates") || !strings.Contains(v, "mark / unmark") {
		t.Fatalf("help:\n%s", v)
	}
	press(t, a, "esc", "tab", "tab", "?")
	v = plain(a.View())
	if !strings.Contains(v, "Keys: Diff") || !strings.Contains(v, "unified / side by side") || strings.Contains(v, "mark / unmark") {
		t.Fatalf("help on Diff:\n%s", v)
	}
}

func TestPaletteListsAndRunsActions(t *testing.T) {
	a, _ := newTestApp(t, "dark", 160, 120)
	press(t, a, ":")
	v := plain(a.View())
	for _, act := range shared.Actions() {
		if !strings.Contains(v, act.Name) {
			t.Errorf("palette lacks %s", act.Name)
		}
	}
	typeText(t, a, "side by")
	press(t, a, "enter")
	if a.palette != nil {
		t.Fatal("palette still open")
	}
	// A Diff action switches to the Diff screen and runs there.
	if v := plain(a.View()); a.active != shared.TabDiff || !strings.Contains(v, "side by side") {
		t.Fatalf("side_by_side from the palette: tab %d:\n%s", a.active, v)
	}
	press(t, a, "esc", ":")
	typeText(t, a, "reverse sort")
	press(t, a, "enter")
	if v := plain(a.View()); !strings.Contains(v, "ID↓") {
		t.Errorf("palette did not run sort_reverse:\n%s", v)
	}
}

func TestKeysRebinding(t *testing.T) {
	km, err := NewKeyMap(map[string]string{"undo": "ctrl+z", "mark": "m, M"})
	if err != nil {
		t.Fatal(err)
	}
	if !km.Is(tea.KeyMsg{Type: tea.KeyCtrlZ}, "undo") || km.Is(keyMsg("u"), "undo") {
		t.Error("undo not rebound to ctrl+z")
	}
	if h := km.Get("undo").Help(); h.Key != "ctrl+z" || !strings.Contains(h.Desc, "rebound") {
		t.Errorf("help shows %+v", h)
	}
	for _, bad := range []map[string]string{{"frobnicate": "x"}, {"undo": " , "}} {
		if _, err := NewKeyMap(bad); err == nil || !strings.Contains(err.Error(), "[ui.keys]") {
			t.Errorf("%v: error %v", bad, err)
		}
	}
	// The help screen shows the rebinding.
	a, _ := newTestApp(t, "dark", 160, 50)
	a.ctx.Keys = km
	press(t, a, "?")
	if v := plain(a.View()); !strings.Contains(v, "ctrl+z") || !strings.Contains(v, "undo last change (rebound)") {
		t.Errorf("help:\n%s", v)
	}
}

// Only our colour codes (SGR) may reach the terminal; a crafted title or
// body cannot retitle the window, clear or move, hide text or reverse it.
var anyEscape = regexp.MustCompile(`\x1b[^\[]|\x1b\[[0-9;?]*[^0-9;?m]|\x9b|\x9d|\x07|\x{202e}`)

func TestUntrustedTextIsSanitized(t *testing.T) {
	a, _ := newTestApp(t, "dark", 160, 60)
	press(t, a, "/")
	typeText(t, a, "evil")
	press(t, a, "enter")
	frames := map[string]string{"candidates": a.View()}
	press(t, a, "enter")
	frames["task"] = a.View()
	press(t, a, "d")
	frames["diff"] = a.View()
	for name, v := range frames {
		if loc := anyEscape.FindStringIndex(v); loc != nil {
			t.Errorf("%s frame has a raw control sequence %q", name, v[max(loc[0]-10, 0):min(loc[1]+10, len(v))])
		}
		p := plain(v)
		if strings.Contains(p, "pwned") || strings.Contains(p, "ZXZpbA") {
			t.Errorf("%s frame shows the payload of an escape sequence", name)
		}
	}
	if p := plain(frames["candidates"]); !strings.Contains(p, "Fix bug in hidden parsergnp.exe") {
		t.Errorf("the visible text of the title should survive:\n%s", p)
	}
}

func TestRunsOfKeysAreSeparateKeypresses(t *testing.T) {
	a, _ := newTestApp(t, "dark", 160, 40)
	run(t, a, func() tea.Msg { return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("jjj")} })
	if want := a.ctx.Catalog.Tasks[a.ctx.Table.Rows[3]].ID; a.ctx.CurrentID != want {
		t.Errorf("jjj moved the cursor to %s, want %s (the fourth row)", a.ctx.CurrentID, want)
	}
	run(t, a, func() tea.Msg { return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("/sgt")} })
	if n := len(a.ctx.Table.Rows); n != 6 {
		t.Errorf("/sgt typed as one message: %d rows, want the 6 sgt tasks", n)
	}
}

func TestStatusBarSelection(t *testing.T) {
	ws := uitest.Workspace(t)
	sel := &pipeline.Selection{Name: "v1", CreatedAt: time.Now(), Source: "solver", Config: map[string]any{"budget": 835},
		Tasks: []pipeline.SelectedTask{{TaskID: "sgt-001", Rank: 1}, {TaskID: "sgt-002", Rank: 2}}}
	if err := ws.Store.SaveSelection(context.Background(), sel); err != nil {
		t.Fatal(err)
	}
	keys, _ := NewKeyMap(nil)
	a := New(Options{Context: &Context{Styles: testStyles(t, "dark"), Keys: keys, Store: ws.Store, Root: ws.Root, Name: "w"}})
	run(t, a, a.Init())
	for _, w := range []int{160, 80} {
		run(t, a, func() tea.Msg { return tea.WindowSizeMsg{Width: w, Height: 20} })
		lines := strings.Split(plain(a.View()), "\n")
		bar := lines[len(lines)-1]
		want := "selected 2/835"
		if w < 120 {
			want = "sel 2/835"
		}
		if !strings.Contains(bar, want) || !strings.Contains(bar, "docker ?") || !strings.Contains(bar, "26/26") {
			t.Errorf("status bar at %d: %q", w, bar)
		}
	}
}

func TestSelectedFlagColumn(t *testing.T) {
	ws := uitest.Workspace(t)
	sel := &pipeline.Selection{Name: "v1", CreatedAt: time.Now(), Tasks: []pipeline.SelectedTask{{TaskID: "sgt-001", Rank: 1}}}
	if err := ws.Store.SaveSelection(context.Background(), sel); err != nil {
		t.Fatal(err)
	}
	keys, _ := NewKeyMap(nil)
	a := New(Options{Context: &Context{Styles: testStyles(t, "dark"), Keys: keys, Store: ws.Store, Root: ws.Root}})
	run(t, a, a.Init())
	run(t, a, func() tea.Msg { return tea.WindowSizeMsg{Width: 160, Height: 40} })
	press(t, a, "/")
	typeText(t, a, "sgt-00")
	press(t, a, "enter")
	for _, l := range strings.Split(plain(a.View()), "\n") {
		if strings.Contains(l, "sgt-001") && !strings.HasSuffix(strings.TrimSpace(l), "S") {
			t.Errorf("sgt-001 is selected but its row is %q", l)
		}
		if strings.Contains(l, "sgt-002") && strings.HasSuffix(strings.TrimSpace(l), "S") {
			t.Errorf("sgt-002 is not selected but its row is %q", l)
		}
	}
}

func TestFunctionKeysJumpToScreensDigitsLabel(t *testing.T) {
	a, _ := newTestApp(t, "dark", 160, 50)
	cases := []struct{ key, want string }{{"f3", "[F3 Diff]"}, {"alt+2", "[F2 Task]"}, {"f1", "[F1 Candidates]"}, {"f6", "[F6 Export]"}}
	for _, c := range cases {
		press(t, a, c.key)
		if v := plain(a.View()); !strings.Contains(v, c.want) {
			t.Fatalf("after %s want %s in:\n%s", c.key, c.want, v[:200])
		}
	}
	press(t, a, "f1", "3") // a digit labels (and stays on Candidates)
	if v := plain(a.View()); !strings.Contains(v, "[F1 Candidates]") {
		t.Fatalf("a digit switched screens:\n%s", v[:200])
	}
}

func TestTabClicksAndMouseToggle(t *testing.T) {
	a, _ := newTestApp(t, "dark", 160, 20)
	// Clicking a tab switches to it.
	x := len(a.tabLabel(shared.TabCandidates, a.screens[shared.TabCandidates])) + 4
	run(t, a, func() tea.Msg {
		return tea.MouseMsg{X: x + 1, Y: 0, Button: tea.MouseButtonLeft, Action: tea.MouseActionPress}
	})
	if a.active != shared.TabTask {
		t.Errorf("click on the Task tab left tab %d active", a.active)
	}
	// M turns the mouse off: clicks are ignored.
	press(t, a, "M")
	run(t, a, func() tea.Msg {
		return tea.MouseMsg{X: 1, Y: 0, Button: tea.MouseButtonLeft, Action: tea.MouseActionPress}
	})
	if a.active != shared.TabTask {
		t.Error("mouse off, but a click switched tabs")
	}
}

func TestCandidatesEmptyStates(t *testing.T) {
	c := uitest.Context(t, "dark", nil)
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

// At 80 columns a status line takes the place of the counts; it expires
// and the counts come back.
func TestStatusLineExpires(t *testing.T) {
	a, _ := newTestApp(t, "dark", 80, 20)
	bar := func() string { lines := strings.Split(plain(a.View()), "\n"); return lines[len(lines)-1] }
	if !strings.Contains(bar(), "26/26") {
		t.Fatalf("no counts: %q", bar())
	}
	a.statusTTL = time.Minute
	_, expire := a.Update(shared.StatusMsg{Text: "label: fixture-calc difficulty ∅ → very_hard · u undoes"})
	if expire == nil || !strings.Contains(bar(), "very_hard") || strings.Contains(bar(), "26/26") {
		t.Fatalf("the line did not replace the counts (or sets no timer): %q", bar())
	}
	a.Update(shared.StatusMsg{Text: "undo: fixture-calc difficulty very_hard → ∅ · U redoes"})
	a.Update(statusExpiredMsg(a.statusSeq - 1)) // the first line's timer: a newer line stays
	if !strings.Contains(bar(), "U redoes") {
		t.Fatalf("an old timer cleared a newer line: %q", bar())
	}
	a.Update(statusExpiredMsg(a.statusSeq))
	if b := bar(); !strings.Contains(b, "26/26") || strings.Contains(b, "redoes") {
		t.Errorf("counts did not come back: %q", b)
	}
}

// At 80 columns the engine-down line keeps what to do whole: the socket
// is cut in the middle, and the workspace name gives way when it must.
func TestEngineDownLineFits80(t *testing.T) {
	for _, c := range []struct{ name, sock, want string }{
		{"default socket", "unix:///var/run/docker.sock", "docker ✗  unix:///va…ocker.sock does not answer: start it or set [docker] hosts"},
		{"long socket", "unix:///home/curator/.local/share/containers/podman/machine/podman.sock", " does not answer: start it or set [docker] hosts"},
		{"short host", "tcp://ci:2376", "tcp://ci:2376 does not answer: start it or set [docker] hosts"},
	} {
		t.Run(c.name, func(t *testing.T) {
			a, _ := newTestApp(t, "dark", 80, 20)
			report := app.EngineReport{{Host: c.sock, Name: c.sock, Err: errors.New("connection refused")}}
			run(t, a, shared.MsgCmd(shared.EnginesMsg{Report: report}))
			lines := strings.Split(a.View(), "\n")
			bar := lines[len(lines)-1]
			if w := lipgloss.Width(bar); w > 80 {
				t.Errorf("bar is %d cells", w)
			}
			if p := plain(bar); !strings.Contains(p, c.want) {
				t.Errorf("bar %q lacks %q", p, c.want)
			}
			if a.status != report.Problem() {
				t.Errorf("the whole line is not kept (log, wide terminal): %q", a.status)
			}
		})
	}
}
