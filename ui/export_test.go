package ui

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"curate/app"
	"curate/pipeline/export"
	"curate/pipeline/selection"
	"curate/ui/shared"
)

// testExport is the workbench's export without a store: each format
// written through pipeline/export (a refusal of unvalidated tasks as
// app.WriteExport's), the solve "saved" (its name appended to saved) only
// when a format was written.
func testExport(a *App, saved *[]string) func(context.Context, string, selection.Config, *selection.Result, app.ExportRequest) (*app.ExportOutcome, error) {
	build := testExportInput(a)
	return func(ctx context.Context, name string, cfg selection.Config, res *selection.Result, req app.ExportRequest) (*app.ExportOutcome, error) {
		out := &app.ExportOutcome{Selection: name}
		for _, f := range req.Formats {
			r := app.FormatResult{Format: f}
			if ctx.Err() != nil {
				r.Err = fmt.Errorf("export %s: not written: cancelled", f)
			} else {
				var in *export.Input
				if in, r.Err = build(ctx, name, cfg, res, f); r.Err == nil {
					if bad := app.Unvalidated(in); app.ShipsTasks(f) && len(bad) > 0 && !req.AllowUnvalidated {
						r.Err = fmt.Errorf("export %s: nothing written: %d of %d selected task(s) are not validated valid: %s",
							f, len(bad), len(in.Selected), strings.Join(bad, ", "))
					} else {
						r.Summary, r.Err = export.Write(f, req.Dest, in)
					}
				}
			}
			out.Results = append(out.Results, r)
		}
		if len(out.Written()) > 0 && saved != nil {
			*saved = append(*saved, name)
			out.Saved = true
		}
		return out, nil
	}
}

func TestExportWritesChosenFormats(t *testing.T) {
	a := part2App(t, "dark", 160, 40)
	var saved []string
	a.ctx.Services.Export = testExport(a, &saved)
	press(t, a, "f6")
	e := a.screens[shared.TabExport]
	if !strings.Contains(plain(a.View()), "Task Selection Methodology") {
		t.Fatalf("no preview:\n%s", plain(a.View()))
	}
	// Drop csv and report, keep manifest; a relative destination is in the workspace.
	press(t, a, "right", "right", "right", "right", "space", "left", "space", "o")
	if !e.Capturing() {
		t.Fatal("o does not edit the destination")
	}
	press(t, a, "ctrl+u")
	typeText(t, a, "out/sel")
	press(t, a, "enter")
	dest := filepath.Join(a.ctx.Root, "out", "sel")
	if v := plain(a.View()); !strings.Contains(v, "Destination: ./out/sel") {
		t.Errorf("dest is not ./out/sel:\n%s", v)
	}
	press(t, a, "X")
	if len(saved) != 1 || !strings.HasPrefix(saved[0], "wb-") {
		t.Fatalf("snapshot not saved first: %v", saved)
	}
	if a.ctx.Long.Len() != 0 || !strings.Contains(a.status, "as 1 format(s)") {
		t.Fatalf("long jobs %d, status %q", a.ctx.Long.Len(), a.status)
	}
	if _, err := os.Stat(filepath.Join(dest, export.ManifestFile)); err != nil {
		t.Error(err)
	}
	if _, err := os.Stat(filepath.Join(dest, export.CSVFile)); err == nil {
		t.Error("csv written though dropped")
	}
	if v := plain(a.View()); !strings.Contains(v, "✓ manifest 12 tasks → ./out/sel/"+export.ManifestFile) {
		t.Errorf("what was written is not shown:\n%s", v)
	}
}

func TestExportCancelStopsBetweenFormats(t *testing.T) {
	a := part2App(t, "dark", 160, 40)
	press(t, a, "f6")
	// Start without running the steps, cancel (ctrl+x twice), then let the
	// first step finish: nothing after it runs.
	_, first := a.Update(keyMsg("X"))
	press(t, a, "ctrl+x")
	if !strings.Contains(a.ctx.Long.Text(false), "ctrl+x again cancels export") {
		t.Errorf("no confirmation: %q", a.ctx.Long.Text(false))
	}
	press(t, a, "ctrl+x")
	run(t, a, first)
	if v := plain(a.View()); a.ctx.Long.Len() != 0 || strings.Contains(v, "✓") || !strings.Contains(v, "cancelled") {
		t.Errorf("after cancel: %d long jobs:\n%s", a.ctx.Long.Len(), v)
	}
}
