package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"curate/app"
	"curate/pipeline"
	"curate/pipeline/source/harbor"
	"curate/workspace"
)

// curate is cli with the results in the order these tests read them.
func curate(t testing.TB, args ...string) (string, string, int) {
	t.Helper()
	code, out, errs := cli(t, args...)
	return out, errs, code
}

func openWS(t testing.TB, dir string) *workspace.Workspace {
	t.Helper()
	ws, err := workspace.Open(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	return ws
}

func summaryOf(t *testing.T, out string) app.ImportSummary {
	t.Helper()
	var s app.ImportSummary
	if err := json.Unmarshal([]byte(out), &s); err != nil {
		t.Fatalf("summary %q: %v", out, err)
	}
	return s
}

func TestImportHarborFixturesIdempotentAndStale(t *testing.T) {
	ws := newWorkspace(t)
	src := filepath.Join(t.TempDir(), "bench")
	if out, err := exec.Command("cp", "-a", "../testdata/import/harbor", src).CombinedOutput(); err != nil {
		t.Fatalf("%v %s", err, out)
	}
	out, errs, code := curate(t, "-w", ws, "import", "harbor", src, "--json")
	if code != 0 {
		t.Fatalf("code %d: %s", code, errs)
	}
	s := summaryOf(t, out)
	if len(s.Imported) != 7 || len(s.Failed) != 0 || !s.Written {
		t.Fatalf("summary %+v", s)
	}
	w := openWS(t, ws)
	ctx := context.Background()
	k8s, err := w.Store.Task(ctx, "big-code-k8s-001")
	if err != nil {
		t.Fatal(err)
	}
	if k8s.Score != 0.8755 || k8s.SDLCPhase != "Implementation (feature)" || k8s.DifficultyCalibrated != "hard" {
		t.Fatalf("k8s: score %v phase %q difficulty %q", k8s.Score, k8s.SDLCPhase, k8s.DifficultyCalibrated)
	}
	if k8s.TaskDir != filepath.Join(ws, "tasks", "big-code-k8s-001") {
		t.Fatalf("task dir %q", k8s.TaskDir)
	}
	if _, err := os.Stat(filepath.Join(k8s.TaskDir, "instruction.md")); err != nil {
		t.Fatal(err)
	}
	nav, _ := w.Store.Task(ctx, "instance_navidrome__navidrome-8e640bb8580affb7")
	if nav.Language != "go" || nav.Features.Int("files_changed") != 3 || nav.DifficultyCalibrated != "medium" {
		t.Fatalf("navidrome: lang %q features %v difficulty %q", nav.Language, nav.Features.Values, nav.DifficultyCalibrated)
	}
	sgt, _ := w.Store.Task(ctx, "sgt-008")
	if sgt.DifficultyCalibrated != "critical" || sgt.DifficultyRule == "" {
		t.Fatalf("sgt-008 difficulty %q", sgt.DifficultyCalibrated)
	}
	loco, _ := w.Store.Task(ctx, "python_architectural_understanding_expert_001")
	if loco.DifficultyCalibrated != "expert" || loco.Breakdown.ContextComplexity != 1 || loco.Extra["environment.memory"] != "8G" {
		t.Fatalf("locobench %+v", loco)
	}

	// A curator's label and a validation run on the current files.
	if _, errs, code := curate(t, "-w", ws, "label", "sgt-008", "--difficulty", "hard"); code != 0 {
		t.Fatalf("label: %s", errs)
	}
	run := &pipeline.Run{ID: "r1", TaskID: "sgt-008", Mode: "oracle", Outcome: pipeline.OutcomeOK, Digest: sgt.Digest, StartedAt: time.Now()}
	if err := w.Store.SaveRun(ctx, run); err != nil {
		t.Fatal(err)
	}

	// Re-import: nothing changes.
	out, _, _ = curate(t, "-w", ws, "import", "harbor", src, "--json")
	if s := summaryOf(t, out); len(s.Unchanged) != 7 || len(s.Imported)+len(s.Updated)+len(s.Failed) != 0 {
		t.Fatalf("re-import %+v", s)
	}
	n, _ := w.Store.CountTasks(ctx)
	if n != 7 {
		t.Fatalf("%d tasks after re-import", n)
	}

	// Change one file: that task is updated, its digest changes, the run is stale.
	f := filepath.Join(src, "ccb_pytorch", "sgt-008", "tests", "test.sh")
	if err := os.WriteFile(f, []byte("#!/bin/bash\necho 1 > /logs/verifier/reward.txt\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	out, _, _ = curate(t, "-w", ws, "import", "harbor", src, "--json")
	if s := summaryOf(t, out); len(s.Updated) != 1 || s.Updated[0] != "sgt-008" || len(s.Unchanged) != 6 {
		t.Fatalf("after change %+v", s)
	}
	sgt2, _ := w.Store.Task(ctx, "sgt-008")
	if sgt2.Digest == sgt.Digest || !run.Stale(sgt2.Digest) {
		t.Fatal("digest did not change")
	}
	if sgt2.Labels.Difficulty != "hard" || sgt2.EffectiveDifficulty() != "hard" {
		t.Fatalf("label lost: %+v", sgt2.Labels)
	}
	copied, _ := os.ReadFile(filepath.Join(ws, "tasks", "sgt-008", "tests", "test.sh"))
	if !strings.Contains(string(copied), "echo 1") {
		t.Fatal("copy not refreshed")
	}
	show, _, _ := curate(t, "-w", ws, "show", "sgt-008")
	if !strings.Contains(show, "stale") {
		t.Fatalf("show does not mark the run stale:\n%s", show)
	}
}

func TestImportHarborBadInput(t *testing.T) {
	src := filepath.Join(t.TempDir(), "bad")
	if out, err := exec.Command("cp", "-a", "../testdata/import/bad", src).CombinedOutput(); err != nil {
		t.Fatalf("%v %s", err, out)
	}
	big := filepath.Join(src, "huge-file")
	exec.Command("cp", "-a", filepath.Join(src, "good-task"), big).Run()
	f, err := os.Create(filepath.Join(big, "environment", "data.bin"))
	if err != nil {
		t.Fatal(err)
	}
	f.Truncate(harbor.MaxFileSize + 1)
	f.Close()

	// --strict: non-zero, nothing written.
	ws := newWorkspace(t)
	out, errs, code := curate(t, "-w", ws, "import", "harbor", src, "--strict")
	if code == 0 || !strings.Contains(errs, "nothing was written") {
		t.Fatalf("strict: code %d stderr %q", code, errs)
	}
	if !strings.Contains(out, "nothing written; would be 2 imported, 0 updated, 0 unchanged; 5 failed") {
		t.Fatalf("strict summary %q", out)
	}
	w := openWS(t, ws)
	if n, _ := w.Store.CountTasks(context.Background()); n != 0 {
		t.Fatalf("strict wrote %d tasks", n)
	}
	entries, _ := os.ReadDir(filepath.Join(ws, "tasks"))
	if len(entries) != 0 {
		t.Fatalf("strict copied %v", entries)
	}

	// Without --strict: good tasks in, each bad one reported.
	out, errs, code = curate(t, "-w", ws, "import", "harbor", src)
	if code != 0 {
		t.Fatalf("code %d %s", code, errs)
	}
	for _, want := range []string{"2 imported, 0 updated, 0 unchanged, 5 failed", "syntax-error/task.toml:4:22:", "no instruction.md",
		"points outside the task dir", "not UTF-8 text", "over the 50 MB (52428800 bytes) per-file limit"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if n, _ := w.Store.CountTasks(context.Background()); n != 2 {
		t.Fatalf("%d tasks", n)
	}
}

func TestImportSWEbench(t *testing.T) {
	ws := newWorkspace(t)
	out, errs, code := curate(t, "-w", ws, "import", "swebench", "../testdata/import/swebench/broken.jsonl", "--strict")
	if code == 0 || !strings.Contains(out, "2 imported") || !strings.Contains(errs, "3 failed") {
		t.Fatalf("strict: %d %q %q", code, out, errs)
	}
	out, _, code = curate(t, "-w", ws, "import", "swebench", "../testdata/import/swebench/broken.jsonl",
		"../testdata/import/swebench/pro.jsonl", "../testdata/import/swebench/swesmith.jsonl")
	if code != 0 || !strings.Contains(out, "4 imported, 0 updated, 0 unchanged, 3 failed") || !strings.Contains(out, "broken.jsonl:2") {
		t.Fatalf("import: %d %s", code, out)
	}
	out, _, _ = curate(t, "-w", ws, "import", "swebench", "../testdata/import/swebench/verified.jsonl", "--json")
	if s := summaryOf(t, out); len(s.Updated) != 2 { // same rows, now from verified.jsonl
		t.Fatalf("verified read: %+v", s)
	}
	out, _, _ = curate(t, "-w", ws, "import", "swebench", "../testdata/import/swebench/verified.jsonl", "--json")
	if s := summaryOf(t, out); len(s.Unchanged) != 2 || len(s.Updated) != 0 {
		t.Fatalf("verified re-read: %+v", s)
	}
	w := openWS(t, ws)
	nb, err := w.Store.Task(context.Background(), "instance_NodeBB__NodeBB-04998908ba6721d64eba79ae3b65a351dcfbc5b5")
	if err != nil || nb.Language != "javascript" || nb.Benchmark != "swebenchpro" || nb.Breakdown.TaskCategoryWeight != 0.75 {
		t.Fatalf("NodeBB %+v %v", nb, err)
	}
}

func TestImportManifestAndScoreKeepsLabels(t *testing.T) {
	ws := newWorkspace(t)
	if _, errs, code := curate(t, "-w", ws, "import", "harbor", "../testdata/import/harbor/ccb_largerepo", "--in-place"); code != 0 {
		t.Fatal(errs)
	}
	out, errs, code := curate(t, "-w", ws, "import", "manifest", "../testdata/import/manifest/selected_benchmark_tasks.json")
	if code != 0 || !strings.Contains(out, "3 imported, 0 updated, 1 unchanged, 0 failed") || !strings.Contains(out, `selection "selected_benchmark_tasks" saved: 4 tasks`) {
		t.Fatalf("%d %s %s", code, out, errs)
	}
	w := openWS(t, ws)
	ctx := context.Background()
	sel, err := w.Store.Selection(ctx, "selected_benchmark_tasks")
	if err != nil || len(sel.Tasks) != 4 || sel.Tasks[0].TaskID != "big-code-k8s-001" {
		t.Fatalf("selection %+v %v", sel, err)
	}
	k8s, _ := w.Store.Task(ctx, "big-code-k8s-001")
	if k8s.Source != "harbor" || k8s.TaskDir != mustAbs(t, "../testdata/import/harbor/ccb_largerepo/big-code-k8s-001") {
		t.Fatalf("harbor task overwritten: %+v", k8s)
	}
	sgt, _ := w.Store.Task(ctx, "sgt-025")
	if sgt.Source != "manifest" || sgt.DifficultyImported != "critical" || sgt.Extra["manifest_mcp_benefit_score"] != 0.85 {
		t.Fatalf("sgt-025 %+v", sgt)
	}
	out, _, _ = curate(t, "-w", ws, "import", "manifest", "../testdata/import/manifest/selected_benchmark_tasks.json", "--json")
	if s := summaryOf(t, out); len(s.Unchanged) != 4 {
		t.Fatalf("manifest re-import %+v", s)
	}

	// A profile change re-scores; labels stay.
	curate(t, "-w", ws, "label", "big-code-k8s-001", "--difficulty", "easy", "--phase", "docs")
	prof := filepath.Join(t.TempDir(), "p.toml")
	os.WriteFile(prof, []byte("[score.category_weights]\nbig_code_feature = 0.55\n"), 0o644)
	out, errs, code = curate(t, "-w", ws, "score", "--profile", prof)
	if code != 0 || !strings.Contains(out, "scored 4 tasks") {
		t.Fatalf("score: %s %s", out, errs)
	}
	k8s, _ = w.Store.Task(ctx, "big-code-k8s-001")
	if k8s.Score != 0.7755 || k8s.Labels.Difficulty != "easy" || k8s.Phase() != "Documentation" || k8s.Body == "" {
		t.Fatalf("after re-score: score %v labels %+v body %d", k8s.Score, k8s.Labels, len(k8s.Body))
	}
	out, _, _ = curate(t, "-w", ws, "score", "big-code")
	if !strings.Contains(out, "scored 1 tasks") || !strings.Contains(out, "1 changed") {
		t.Fatalf("score one: %s", out)
	}
	k8s, _ = w.Store.Task(ctx, "big-code-k8s-001")
	if k8s.Score != 0.8755 {
		t.Fatalf("score back %v", k8s.Score)
	}
}

func TestProfileShow(t *testing.T) {
	out, errs, code := curate(t, "profile", "show", "--name", "ccb")
	if code != 0 || !strings.Contains(out, "[[score.difficulty]]") || !strings.Contains(out, "big_code_feature = 0.95") {
		t.Fatalf("%d %s %s", code, errs, out)
	}
	bad := filepath.Join(t.TempDir(), "bad.toml")
	os.WriteFile(bad, []byte("[[score.difficulty]]\nbenchmark = [\"x\"]\nlabel = \"trivial\"\n"), 0o644)
	_, errs, code = curate(t, "profile", "show", "--name", "ccb", "--profile", bad)
	if code == 0 || !strings.Contains(errs, "invalid difficulty") {
		t.Fatalf("bad override accepted: %s", errs)
	}
	out, _, code = curate(t, "profile", "show", "--name", "ccb", "--json")
	if code != 0 || !strings.Contains(out, `"DefaultPhase"`) {
		t.Fatalf("json: %s", out)
	}
}

func mustAbs(t *testing.T, p string) string {
	a, err := filepath.Abs(p)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// BenchmarkImportHarbor1000 imports 1,000 task dirs of real shape (copies
// of the fixtures, unique ids) into a fresh workspace: find, parse, check,
// digest, score, copy into tasks/ and write. The baseline is `cp -a` of the
// same tree, to tell this code's cost from the file system's.
func BenchmarkImportHarbor1000(b *testing.B) {
	src := filepath.Join(b.TempDir(), "bench")
	shapes, err := harbor.Find("../testdata/import/harbor")
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; i < 1000; i++ {
		shape := shapes[i%len(shapes)]
		dst := filepath.Join(src, filepath.Base(filepath.Dir(shape)), fmt.Sprintf("%s-%04d", filepath.Base(shape), i))
		if err := harbor.CopyTask(shape, dst); err != nil {
			b.Fatal(err)
		}
		// adapter-style files name their id in task.toml: make it unique too
		data, _ := os.ReadFile(filepath.Join(dst, "task.toml"))
		data = bytes.ReplaceAll(data, []byte(`id = "`+filepath.Base(shape)+`"`), []byte(`id = "`+filepath.Base(dst)+`"`))
		os.WriteFile(filepath.Join(dst, "task.toml"), data, 0o644)
	}
	b.Run("import", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			b.StopTimer()
			ws := newWorkspace(b)
			b.StartTimer()
			out, errs, code := curate(b, "-w", ws, "import", "harbor", src)
			if code != 0 || !strings.Contains(out, "1000 imported") {
				b.Fatalf("%d %s %s", code, out, errs)
			}
		}
	})
	b.Run("reimport-unchanged", func(b *testing.B) {
		ws := newWorkspace(b)
		curate(b, "-w", ws, "import", "harbor", src)
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			out, _, _ := curate(b, "-w", ws, "import", "harbor", src)
			if !strings.Contains(out, "1000 unchanged") {
				b.Fatal(out)
			}
		}
	})
	b.Run("baseline-cp-a", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			dst := filepath.Join(b.TempDir(), "copy")
			if out, err := exec.Command("cp", "-a", src, dst).CombinedOutput(); err != nil {
				b.Fatalf("%v %s", err, out)
			}
		}
	})
}

func TestDemoIsScored(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "demo")
	if _, errs, code := curate(t, "demo", "--dir", dir, "--no-open"); code != 0 {
		t.Fatal(errs)
	}
	w := openWS(t, dir)
	tasks, err := w.Store.Tasks(context.Background())
	if err != nil || len(tasks) < 300 {
		t.Fatalf("%d tasks, %v", len(tasks), err)
	}
	for _, tk := range tasks {
		if tk.SDLCPhase == "" || tk.PhaseRule == "" || tk.Score <= 0 || len(tk.Breakdown.Rules) != 4 || tk.DifficultyRule == "" {
			t.Fatalf("%s not scored: %+v", tk.ID, tk)
		}
	}
}

// curate.toml's [profile] file (relative to the workspace) drives import,
// score and profile show.
func TestProfileFileFromConfig(t *testing.T) {
	ws := newWorkspace(t)
	cfg := filepath.Join(ws, "curate.toml")
	data, _ := os.ReadFile(cfg)
	data = bytes.Replace(data, []byte(`# file = "my-profile.toml"`), []byte(`file = "rules.toml"`), 1)
	os.WriteFile(cfg, data, 0o644)
	os.WriteFile(filepath.Join(ws, "rules.toml"), []byte("[score.category_weights]\nbig_code_feature = 0.55\n"), 0o644)
	out, errs, code := curate(t, "-w", ws, "import", "harbor", "../testdata/import/harbor/ccb_largerepo", "--json")
	if code != 0 || !strings.Contains(out, `"profile": "ccb + `+filepath.Join(ws, "rules.toml")) {
		t.Fatalf("%d %s %s", code, out, errs)
	}
	k8s, _ := openWS(t, ws).Store.Task(context.Background(), "big-code-k8s-001")
	if k8s.Score != 0.7755 {
		t.Fatalf("score %v, want 0.7755 with the override", k8s.Score)
	}
	out, _, _ = curate(t, "-w", ws, "profile", "show")
	if !strings.Contains(out, "# ---- override: "+filepath.Join(ws, "rules.toml")) || !strings.Contains(out, "big_code_feature = 0.55") {
		t.Fatalf("profile show: %s", out[max(0, len(out)-300):])
	}
	os.WriteFile(filepath.Join(ws, "rules.toml"), []byte("[score]\nbogus = 1\n"), 0o644)
	_, errs, code = curate(t, "-w", ws, "score")
	if code == 0 || !strings.Contains(errs, "rules.toml:2:1: unknown key \"score.bogus\"") {
		t.Fatalf("bad override: %d %s", code, errs)
	}
}
