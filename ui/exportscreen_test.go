package ui

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"curate/pipeline/export"
	"curate/pipeline/selection"
)

func TestExportWritesChosenFormats(t *testing.T) {
	a := part2App(t, "dark", 160, 40)
	var saved []string
	a.quotas.svc.SaveSnapshot = func(_ context.Context, name string, _ selection.Config, res *selection.Result) error {
		saved = append(saved, name)
		return nil
	}
	press(t, a, "shift+tab")
	e := a.export
	if e.preview[e.previewKey()] == "" || !strings.Contains(plain(a.View()), "Task Selection Methodology") {
		t.Fatalf("no preview:\n%s", plain(a.View()))
	}
	// Drop csv and report, keep manifest; a relative destination is in the workspace.
	press(t, a, "right", "right", "right", "right", "space", "left", "space", "o")
	if !e.editing || !a.export.Capturing() {
		t.Fatal("o does not edit the destination")
	}
	press(t, a, "ctrl+u")
	typeText(t, a, "out/sel")
	press(t, a, "enter")
	if want := filepath.Join(a.ctx.Root, "out", "sel"); e.dest != want {
		t.Errorf("dest %q, want %q", e.dest, want)
	}
	press(t, a, "X")
	if len(saved) != 1 || !strings.HasPrefix(saved[0], "wb-") {
		t.Fatalf("snapshot not saved first: %v", saved)
	}
	if len(e.written) != 1 || e.written[0].Format != "manifest" || e.job != nil || len(a.long.list) != 0 {
		t.Fatalf("written %+v job %v err %q status %q", e.written, e.job, e.errText, a.status)
	}
	if _, err := os.Stat(filepath.Join(e.dest, export.ManifestFile)); err != nil {
		t.Error(err)
	}
	if _, err := os.Stat(filepath.Join(e.dest, export.CSVFile)); err == nil {
		t.Error("csv written though dropped")
	}
	if v := plain(a.View()); !strings.Contains(v, "✓ manifest 12 tasks → ./out/sel/"+export.ManifestFile) {
		t.Errorf("what was written is not shown:\n%s", v)
	}
}

func TestExportCancelStopsBetweenFormats(t *testing.T) {
	a := part2App(t, "dark", 160, 40)
	a.quotas.svc.SaveSnapshot = func(context.Context, string, selection.Config, *selection.Result) error { return nil }
	press(t, a, "shift+tab")
	e := a.export
	// Start without running the steps, cancel (ctrl+x twice), then let the
	// first step finish: nothing after it runs.
	first := e.start()
	press(t, a, "ctrl+x")
	if !strings.Contains(a.long.text(), "ctrl+x again cancels export") {
		t.Errorf("no confirmation: %q", a.long.text())
	}
	press(t, a, "ctrl+x")
	run(t, a, first)
	if e.job != nil || len(e.written) != 0 || e.errText != "cancelled" {
		t.Errorf("after cancel: job %v written %d err %q", e.job, len(e.written), e.errText)
	}
}
