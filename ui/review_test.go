package ui

import (
	"context"
	"fmt"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"curate/pipeline"
	"curate/ui/uitest"
)

// reviewApp is the test app with a few tasks marked valid, for the queue.
func reviewApp(t *testing.T, theme string, w, h int, valid ...string) *App {
	t.Helper()
	ws := uitest.Workspace(t)
	ctx := context.Background()
	for _, id := range valid {
		tk, err := ws.Store.Task(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		tk.Status = pipeline.StatusValid
		if err := ws.Store.UpsertTasks(ctx, []*pipeline.Task{tk}); err != nil {
			t.Fatal(err)
		}
	}
	a := New(Options{Context: uitest.Context(t, theme, ws)})
	a.statusTTL, a.jobsTick = 0, 0
	run(t, a, a.Init())
	run(t, a, func() tea.Msg { return tea.WindowSizeMsg{Width: w, Height: h} })
	return a
}

// The review form, at both widths and in both themes: open on the fixture
// task with underspecified already chosen.
func TestGoldenReview(t *testing.T) {
	for _, theme := range []string{"dark", "light"} {
		for _, w := range []int{80, 160} {
			for _, sc := range []struct {
				name string
				keys []string
			}{
				{"task-review-form", []string{"r", "2"}},
				{"task-reviewed", []string{"r", "2", "0", "3", "enter"}},
			} {
				name := fmt.Sprintf("%s-%s-%d", sc.name, theme, w)
				t.Run(name, func(t *testing.T) {
					a, _ := newTestApp(t, theme, w, 30)
					press(t, a, "/")
					typeText(t, a, "fixture")
					press(t, a, "enter", "enter")
					press(t, a, sc.keys...)
					checkGolden(t, name, a.View())
				})
			}
		}
	}
}

// One review from the Task screen is one undo step and shows in history.
func TestReviewFromTaskScreen(t *testing.T) {
	a, ws := newTestApp(t, "dark", 120, 40)
	press(t, a, "/")
	typeText(t, a, "fixture")
	press(t, a, "enter", "enter")
	press(t, a, "r", "2", "0", "3")
	typeText(t, a, "no file named")
	press(t, a, "enter")
	got, err := ws.Store.Task(context.Background(), "fixture-calc")
	if err != nil {
		t.Fatal(err)
	}
	want := pipeline.Labels{Underspecified: "2", FalseNegative: "0", FixTime: "1h-4h", ReviewComment: "no file named", Reviewer: "tester"}
	l := got.Labels
	if l.Underspecified != want.Underspecified || l.FalseNegative != want.FalseNegative || l.FixTime != want.FixTime ||
		l.ReviewComment != want.ReviewComment || l.Reviewer != want.Reviewer {
		t.Fatalf("labels %+v, want %+v", l, want)
	}
	view := ansi.Strip(a.View())
	if !strings.Contains(view, "flagged · underspecified 2 · false_negative 0 · fix 1h-4h · by tester") {
		t.Fatalf("task screen lacks the review:\n%s", view)
	}
	press(t, a, "G") // History is below the statement and the metadata
	view = ansi.Strip(a.View())
	if !strings.Contains(view, "underspecified") || !strings.Contains(view, "review_comment") {
		t.Fatalf("history lacks the review events:\n%s", view)
	}
	press(t, a, "u")
	got, _ = ws.Store.Task(context.Background(), "fixture-calc")
	if got.Labels.Reviewed() || got.Labels.Reviewer != "" {
		t.Fatalf("one undo should revert the whole review: %+v", got.Labels)
	}
	// Esc leaves the form without writing anything.
	press(t, a, "r", "3", "esc")
	if h, _ := ws.Store.History(context.Background(), "fixture-calc", 0); len(h) != 10 {
		t.Fatalf("history has %d events, want 5 review + 5 undo", len(h))
	}
}

// The queue walks the unreviewed valid tasks, one review each, then ends.
func TestReviewQueue(t *testing.T) {
	valid := []string{"fixture-calc", "sgt-001", "sgt-003"}
	a := reviewApp(t, "dark", 120, 40, valid...)
	press(t, a, "enter") // the Task screen, on the first task in the list
	press(t, a, "Q")
	for i := range valid {
		view := ansi.Strip(a.View())
		want := fmt.Sprintf("%d unreviewed valid task(s) left", len(valid)-i)
		if !strings.Contains(view, want) || !strings.Contains(view, "Review ") {
			t.Fatalf("step %d: want %q and an open form:\n%s", i, want, view)
		}
		// The page and the form are on the same task, the one Candidates points at.
		id := a.ctx.CurrentID
		if !strings.Contains(view, "Review "+id+" ") || !strings.Contains(view, "\n"+id+"  ") || !contains(valid, id) {
			t.Fatalf("step %d: current %s; page and form disagree:\n%s", i, id, view)
		}
		press(t, a, "0", "1", "1", "enter")
	}
	for _, id := range valid {
		tk := a.ctx.Catalog.Task(id)
		if tk.Labels.Underspecified != "0" || tk.Labels.FalseNegative != "1" || tk.Labels.FixTime != "<15m" {
			t.Errorf("%s not reviewed by the queue: %+v", id, tk.Labels)
		}
	}
	if view := a.View(); strings.Contains(view, "Review queue") {
		t.Fatalf("the queue should end when empty:\n%s", view)
	}
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}
