package ui

import (
	"context"
	"fmt"
	"testing"

	"curate/pipeline"
	"curate/pipeline/export"
	"curate/pipeline/profiles"
	"curate/pipeline/selection"
	"curate/pipeline/stats"
	"curate/ui/screens/runs"
	"curate/ui/shared"
	"curate/workspace"
)

// testExportInput builds an export of a solve over the catalogue, the way
// the binary does it without the store.
func testExportInput(a *App) func(context.Context, string, selection.Config, *selection.Result, string) (*export.Input, error) {
	return func(_ context.Context, name string, cfg selection.Config, res *selection.Result, _ string) (*export.Input, error) {
		tasks := a.ctx.Catalog.Tasks
		in := &export.Input{Name: name, GeneratedBy: "curate", Config: cfg, Catalogue: tasks,
			Solve: &export.Solve{Feasible: res.Feasible, TotalScore: res.TotalScore, UpperBound: res.UpperBound, Gap: res.Gap}}
		var chosen []*pipeline.Task
		for _, p := range res.Picks {
			chosen = append(chosen, p.Task)
			in.Selected = append(in.Selected, export.Item{Task: p.Task, Rationale: p.Rationale})
		}
		in.Stats = stats.Compute(tasks, chosen, stats.Options{Order: cfg.BenchmarkNames(), Strategies: cfg.Descriptions()})
		return in, nil
	}
}

// part2App is the golden tests' workbench: stored runs, the ccb selection
// with a budget of 12 and a go quota, and an export double.
func part2App(t *testing.T, theme string, w, h int) *App {
	a, _ := newTestApp(t, theme, w, h)
	a.ctx.Services.ExportInput = testExportInput(a)
	a.ctx.Services.Export = testExport(a, nil)
	p, err := profiles.Load("ccb", "")
	if err != nil {
		t.Fatal(err)
	}
	budget, two := 12, 2
	a.quotas().SetSelection(p.Selection, workspace.SelectionConfig{Budget: &budget,
		Quotas: []pipeline.Quota{{Dimension: "language", Value: "go", Min: &two}}})
	return a
}

var goldenLog = []string{
	"curate: nop fixture-calc on unix:///var/run/docker.sock",
	"Step 1/3 : FROM curate/base:bookworm",
	"curate: image curate-env:ee544cf6adfb is up to date, no build",
	"============================= test session starts ==============================",
	"tests/test_calc.py .F                                                    [100%]",
	"E   AssertionError: assert 9.0 == 9.5",
	"FAILED tests/test_calc.py::test_discount_keeps_cents - AssertionError",
	"========================= 1 failed, 1 passed in 0.04s =========================",
	"curate: outcome oracle_failed: the reference solution does not pass the tests",
}

// TestGoldenPart2 pins the Runs, Quotas and Export frames at 80 and 160
// columns in two themes, like TestGoldenViews.
func TestGoldenPart2(t *testing.T) {
	screens := []struct {
		name string
		prep func(t *testing.T, a *App)
	}{
		{"runs", func(t *testing.T, a *App) {
			press(t, a, "tab", "tab", "tab")
			run(t, a, shared.MsgCmd(runs.LogRead("r2", goldenLog)))
		}},
		{"runs-form", func(t *testing.T, a *App) { press(t, a, "tab", "tab", "tab", "v", "down") }},
		{"runs-review", func(t *testing.T, a *App) {
			press(t, a, "tab", "tab", "tab", "f")
			run(t, a, shared.MsgCmd(runs.LogRead("r1", goldenLog)))
			press(t, a, "enter", "k", "k", "/")
			typeText(t, a, "assert")
			press(t, a, "enter")
		}},
		{"quotas", func(t *testing.T, a *App) { press(t, a, "f5") }},
		{"quotas-nudged", func(t *testing.T, a *App) {
			press(t, a, "f5", "j", "j", "j", "j", "+")
		}},
		{"quotas-shares", func(t *testing.T, a *App) {
			// The go row: a max share typed in percent, then a min share nudged.
			press(t, a, "f5", "j", "j", "j", "j", "j", "]", "]", "]", "]", "enter")
			typeText(t, a, "40")
			press(t, a, "enter", "[", "+")
		}},
		{"export", func(t *testing.T, a *App) { press(t, a, "f6", "right", "space") }},
	}
	for _, theme := range []string{"dark", "light"} {
		for _, w := range []int{80, 160} {
			for _, sc := range screens {
				name := fmt.Sprintf("%s-%s-%d", sc.name, theme, w)
				t.Run(name, func(t *testing.T) {
					a := part2App(t, theme, w, 30)
					sc.prep(t, a)
					checkGolden(t, name, a.View())
				})
			}
		}
	}
}
