package cli

import (
	"context"
	"io"
	"log"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"curate/app"
	"curate/pipeline/export"
	"curate/pipeline/selection"
)

// Several formats, one refused (swebench: the demo's tasks are not
// validated): the others are written, the refusal is one line of its own,
// and the exit is 1 after the writing.
func TestExportWritesEveryFormatItCan(t *testing.T) {
	root := demoWorkspace(t)
	if _, errs, code := cliIn(t, root, "select", "--budget", "5", "--selection", "five"); code != 0 {
		t.Fatalf("select: %s", errs)
	}
	out := filepath.Join(t.TempDir(), "out")
	stdout, errs, code := cliIn(t, root, "export", "--format", "manifest,swebench", "--format", "csv", "--out", out)
	if code != 1 {
		t.Fatalf("exit %d, want 1: %s", code, errs)
	}
	for _, f := range []string{export.ManifestFile, export.CSVFile} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Errorf("%s not written beside the refused swebench: %v", f, err)
		}
	}
	if _, err := os.Stat(filepath.Join(out, export.SWEBenchFile)); err == nil {
		t.Error("the refused swebench export wrote its file")
	}
	lines := strings.Split(strings.TrimSpace(errs), "\n")
	if len(lines) != 1 || !strings.HasPrefix(lines[0], "curate: export swebench: nothing written: 5 of 5") ||
		!strings.Contains(lines[0], "--allow-unvalidated") {
		t.Errorf("want one line for the refused format, got:\n%s", errs)
	}
	if !strings.Contains(stdout, "as manifest to") || !strings.Contains(stdout, "as csv to") {
		t.Errorf("written formats not reported:\n%s", stdout)
	}
	// Every format refused by name: nothing but the reasons, one line each.
	_, errs, code = cliIn(t, root, "export", "--format", "harbor,swebench", "--out", filepath.Join(t.TempDir(), "none"))
	if lines := strings.Split(strings.TrimSpace(errs), "\n"); code != 1 || len(lines) != 2 ||
		!strings.HasPrefix(lines[0], "curate: export harbor:") || !strings.HasPrefix(lines[1], "curate: export swebench:") {
		t.Errorf("exit %d, want a line per refused format:\n%s", code, errs)
	}
}

// The Export screen's path stores its solve only when a format was
// written, and records those formats; a solve with every format refused
// is not stored.
func TestWorkbenchExportSavesOnlyWhatWasWritten(t *testing.T) {
	_, env, ws := demoEnv(t)
	ctx := context.Background()
	tasks, err := ws.Store.Tasks(ctx)
	if err != nil {
		t.Fatal(err)
	}
	res := &selection.Result{Picks: []selection.Pick{{Task: tasks[0]}, {Task: tasks[1]}}}
	svc := workbenchServices(env, ws, log.New(io.Discard, "", 0), "")
	out := filepath.Join(t.TempDir(), "out")
	done, err := svc.Export(ctx, "wb-none", selection.Config{}, res, app.ExportRequest{Formats: []string{"swebench"}, Dest: out})
	if err != nil || len(done.Failed()) != 1 || done.Saved {
		t.Fatalf("all refused: %+v, %v", done, err)
	}
	if names, _ := ws.Store.Selections(ctx); len(names) != 0 {
		t.Fatalf("a solve with nothing written was saved: %v", names)
	}
	done, err = svc.Export(ctx, "wb-part", selection.Config{}, res, app.ExportRequest{Formats: []string{"manifest", "swebench", "report"}, Dest: out})
	if err != nil || len(done.Written()) != 2 || len(done.Failed()) != 1 || !done.Saved {
		t.Fatalf("partial: %+v, %v", done, err)
	}
	sel, err := ws.Store.Selection(ctx, "wb-part")
	if err != nil {
		t.Fatal(err)
	}
	rec, _ := sel.Stats["exports"].([]any)
	var formats []string
	for _, r := range rec {
		formats = append(formats, r.(map[string]any)["format"].(string))
	}
	if strings.Join(formats, ",") != "manifest,report" {
		t.Errorf("saved selection records %v, want manifest,report", formats)
	}
	// The switch lets the unvalidated tasks through.
	done, err = svc.Export(ctx, "wb-all", selection.Config{}, res, app.ExportRequest{Formats: []string{"swebench"}, Dest: out, AllowUnvalidated: true})
	if err != nil || len(done.Failed()) != 0 {
		t.Fatalf("allowed: %+v, %v", done.Failed(), err)
	}
}
