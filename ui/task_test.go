package ui

import (
	"context"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"curate/app"
	"curate/pipeline"
	"curate/ui/shared"
	"curate/ui/uitest"
)

// openTask moves the Candidates cursor to id and opens the Task screen.
func openTask(t *testing.T, a *App, id string) {
	t.Helper()
	press(t, a, "/")
	typeText(t, a, id)
	press(t, a, "enter", "enter")
	if a.active != shared.TabTask || a.ctx.CurrentID != id {
		t.Fatalf("open %s: tab %d, current %s", id, a.active, a.ctx.CurrentID)
	}
}

func TestTaskScreenShowsEverything(t *testing.T) {
	a, _ := newTestApp(t, "dark", 160, 80)
	openTask(t, a, "fixture-calc")
	page := plain(a.View())
	for _, want := range []string{
		"Keep cents when a discount applies", "acme/calc #42",
		"calibrated   hard  (rule: loc_changed > 10)", "imported     medium",
		"cross-file deps", "2 files, 2 dirs", "0.750",
		"touches only 2 files",                        // filter reasons
		"oracle_failed", "stale: made on other files", // run history with staleness
		"from instruction.md", "Fix the rounding in", "• Keep the public API unchanged", // glamour-rendered Markdown
	} {
		if !strings.Contains(page, want) {
			t.Errorf("task page lacks %q:\n%s", want, page)
		}
	}
	if strings.Contains(page, "`calc.total`") {
		t.Error("instruction shown raw, not rendered as Markdown")
	}
}

func TestTaskScreenLabellingAndUndo(t *testing.T) {
	a, ws := newTestApp(t, "dark", 160, 60)
	ctx := context.Background()
	openTask(t, a, "fixture-calc")
	s := a.screens[shared.TabTask]

	// Exclude asks for a reason; enter with none changes nothing.
	press(t, a, "x")
	if !s.Capturing() {
		t.Fatal("x did not ask for a reason")
	}
	press(t, a, "enter")
	if tk, _ := ws.Store.Task(ctx, "fixture-calc"); tk.Labels.Excluded {
		t.Fatal("excluded without a reason")
	}
	press(t, a, "x")
	typeText(t, a, "flaky network test")
	press(t, a, "enter")
	tk, _ := ws.Store.Task(ctx, "fixture-calc")
	if !tk.Labels.Excluded || tk.Labels.ExcludeReason != "flaky network test" {
		t.Fatalf("exclude: %+v", tk.Labels)
	}
	// Phase chooser: 4 = Implementation (bug fix)... pick Testing & QA (6).
	press(t, a, "s", "6", "enter")
	// Note and pin.
	press(t, a, "n")
	typeText(t, a, "check decimals")
	press(t, a, "enter", "p")
	tk, _ = ws.Store.Task(ctx, "fixture-calc")
	if tk.Labels.Phase != "Testing & QA" || tk.Labels.Note != "check decimals" || !tk.Labels.Pinned {
		t.Fatalf("labels: %+v", tk.Labels)
	}
	page := plain(a.View())
	for _, want := range []string{"pinned", "excluded: flaky network test", "note: check decimals", "Testing & QA*"} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	// u undoes the pin only; U redoes it.
	press(t, a, "u")
	if tk, _ = ws.Store.Task(ctx, "fixture-calc"); tk.Labels.Pinned || tk.Labels.Note != "check decimals" {
		t.Fatalf("after undo: %+v", tk.Labels)
	}
	press(t, a, "U")
	if tk, _ = ws.Store.Task(ctx, "fixture-calc"); !tk.Labels.Pinned {
		t.Fatalf("after redo: %+v", tk.Labels)
	}
	// A difficulty key labels and moves on to the next task in the table.
	press(t, a, "esc", "/", "esc", "enter") // back, clear the filter, open again
	before := a.ctx.CurrentID
	press(t, a, "5")
	if tk, _ = ws.Store.Task(ctx, before); tk.Labels.Difficulty != "critical" {
		t.Fatalf("difficulty %q", tk.Labels.Difficulty)
	}
	if a.ctx.CurrentID == before || !strings.Contains(plain(a.View()), a.ctx.CurrentID) {
		t.Errorf("did not move on: current %s:\n%s", a.ctx.CurrentID, plain(a.View()))
	}
	// The history of the task lists every event, the undo included.
	evs, _ := ws.Store.History(ctx, "fixture-calc", 0)
	kinds := map[string]int{}
	for _, e := range evs {
		kinds[e.Kind]++
	}
	if kinds[pipeline.EventUndo] != 1 || kinds[pipeline.EventRedo] != 1 || kinds[pipeline.EventLabel] != 5 {
		t.Errorf("events %v", kinds)
	}
	press(t, a, "[")
	if a.ctx.CurrentID != before {
		t.Errorf("[ went to %s, want %s", a.ctx.CurrentID, before)
	}
	if !strings.Contains(plain(a.View()), "History") || !strings.Contains(plain(a.View()), "critical") {
		t.Error("history not shown after moving back")
	}
}

// Keys a source had that curate does not model (Harbor schema 1.2-1.4,
// unknown ones) are listed on the task screen, sanitized.
func TestTaskScreenListsSourceKeys(t *testing.T) {
	page := taskPageWithExtra(t, map[string]any{"environment.workdir": "/app", "steps": []any{map[string]any{"name": "one"}}, "x_odd": "\x1b[2Jcleared\x00"})
	for _, want := range []string{"Source keys", "environment.workdir", "/app", `[{"name":"one"}]`, "x_odd", "cleared␀"} {
		if !strings.Contains(page, want) {
			t.Errorf("task page lacks %q:\n%s", want, page)
		}
	}
	if strings.Contains(page, "\x1b[2J") || strings.ContainsRune(page, 0) {
		t.Error("a control sequence or NUL reached the screen")
	}
}

// A built task's environment notes (what the build decided, the known
// failures) have their own section; curate's own Extra keys are not
// listed again as source keys.
func TestTaskScreenShowsEnvironmentNotes(t *testing.T) {
	page := taskPageWithExtra(t, map[string]any{
		app.EnvironmentNotesKey:     []any{"JDK 17 and Maven 3.8 from Debian (pom.xml: Java 8)", "1 test(s) fail after the fix and never passed before it on this environment"},
		pipeline.ExtraKnownFailures: []any{"a.BTest.c"},
		"x_source":                  "kept",
	})
	for _, want := range []string{"Environment", "JDK 17 and Maven 3.8 from Debian", "never passed before it", "Source keys", "x_source"} {
		if !strings.Contains(page, want) {
			t.Errorf("task page lacks %q:\n%s", want, page)
		}
	}
	for _, not := range []string{app.EnvironmentNotesKey, pipeline.ExtraKnownFailures} {
		if strings.Contains(page, not) {
			t.Errorf("task page lists curate's own key %q as a source key:\n%s", not, page)
		}
	}
}

// taskPageWithExtra is the task screen (160 columns) of the fixture task
// with extra as its Task.Extra.
func taskPageWithExtra(t *testing.T, extra map[string]any) string {
	t.Helper()
	ws := uitest.Workspace(t)
	ctx := context.Background()
	tk, err := ws.Store.Task(ctx, "fixture-calc")
	if err != nil {
		t.Fatal(err)
	}
	tk.Extra = extra
	if err := ws.Store.UpsertTasks(ctx, []*pipeline.Task{tk}); err != nil {
		t.Fatal(err)
	}
	a := New(Options{Context: uitest.Context(t, "dark", ws)})
	a.statusTTL, a.jobsTick = 0, 0
	run(t, a, a.Init())
	run(t, a, func() tea.Msg { return tea.WindowSizeMsg{Width: 160, Height: 80} })
	openTask(t, a, "fixture-calc")
	return plain(a.View())
}
