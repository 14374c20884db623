package export

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/pelletier/go-toml/v2"

	"curate/pipeline"
	"curate/pipeline/selection"
	"curate/pipeline/stats"
	"curate/pipeline/taskdir"
)

// makeTaskDir writes a small Harbor task dir and returns its path.
func makeTaskDir(t testing.TB, root, name string) string {
	t.Helper()
	dir := filepath.Join(root, name)
	files := map[string]string{
		"instruction.md":         "Fix the bug in " + name + "\n",
		"task.toml":              "schema_version = \"1.1\"\n[task]\nname = \"org/" + name + "\"\n",
		"environment/Dockerfile": "FROM ubuntu:24.04\n",
		"solution/solve.sh":      "#!/bin/bash\necho fixed\n",
		"tests/test.sh":          "#!/bin/bash\necho 1 > /logs/verifier/reward.txt\n",
	}
	for rel, body := range files {
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func testInput(t testing.TB, n int, withDirs bool) *Input {
	t.Helper()
	src := t.TempDir()
	var cat []*pipeline.Task
	var items []Item
	for i := 0; i < n; i++ {
		tk := &pipeline.Task{ID: fmt.Sprintf("org__repo-%04d", i), Benchmark: []string{"ccb_a", "ccb_b"}[i%2], Repo: "org/repo",
			Language: []string{"go", "python", "=cmd|' /C calc'!A0"}[i%3], Category: "debugging", SDLCPhase: "Implementation (bug fix)",
			DifficultyCalibrated: "hard", DifficultyRule: "files 4-10", Score: float64(i%10) / 10,
			Breakdown: pipeline.ScoreBreakdown{ContextComplexity: 0.5, CrossFileDeps: 0.25, SemanticSearchPotential: 0.6, TaskCategoryWeight: 0.75},
			Extra:     map[string]any{"FAIL_TO_PASS": `["test_a"]`, "PASS_TO_PASS": []any{"test_b"}, "base_commit": "abc"}}
		if withDirs {
			tk.TaskDir = makeTaskDir(t, src, tk.ID)
		}
		cat = append(cat, tk)
		items = append(items, Item{Task: tk, Rationale: "top: #1"})
	}
	cat = append(cat, &pipeline.Task{ID: "unselected", Benchmark: "ccb_a"})
	sel := make([]*pipeline.Task, len(items))
	for i, it := range items {
		sel[i] = it.Task
	}
	cfg := selection.Config{Title: "Test", RandomSeed: 7, Order: []string{"ccb_b", "ccb_a"}, Benchmarks: map[string]selection.Benchmark{
		"ccb_a": {Take: "all", Strategy: "all", Description: "All selected (small benchmark)"},
		"ccb_b": {Take: int64(5), Strategy: "top", Description: "Top by score", Title: "B bench", Notes: "Best first."},
	}}
	return &Input{Name: "test", Config: cfg, Catalogue: cat, Selected: items,
		Stats:   stats.Compute(cat, sel, stats.Options{Order: cfg.BenchmarkNames(), Strategies: cfg.Descriptions()}),
		Weights: []Weight{{"context_complexity", 0.25}, {"cross_file_deps", 0.30}, {"semantic_search_potential", 0.20}, {"task_category_weight", 0.25}}}
}

func TestHarborExport(t *testing.T) {
	in := testInput(t, 3, true)
	out := filepath.Join(t.TempDir(), "dataset")
	sum, err := Write("harbor", out, in)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Tasks != 3 || len(sum.Skipped) != 0 {
		t.Fatalf("summary %+v", sum)
	}
	data, err := os.ReadFile(filepath.Join(out, RegistryFile))
	if err != nil {
		t.Fatal(err)
	}
	var reg []RegistryEntry
	if err := json.Unmarshal(data, &reg); err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(data, []byte("[\n  {\n    \"name\": \"test\",")) {
		t.Errorf("registry not 2-space indented: %s", data[:40])
	}
	if len(reg) != 1 || len(reg[0].Tasks) != 3 || reg[0].Metrics[0].Type != "mean" || reg[0].Tasks[0].Path != "org__repo-0000" {
		t.Fatalf("registry %+v", reg)
	}
	// dataset.toml lists every task with its exported folder's digest.
	var m DatasetManifest
	raw, err := os.ReadFile(filepath.Join(out, DatasetFile))
	if err != nil {
		t.Fatal(err)
	}
	if err := toml.Unmarshal(raw, &m); err != nil || m.Dataset.Name != "org/test" || len(m.Tasks) != 3 {
		t.Fatalf("dataset.toml %+v (%v):\n%s", m, err, raw)
	}
	for i, it := range in.Selected {
		got, err := taskdir.Digest(filepath.Join(out, it.Task.ID))
		if err != nil || m.Tasks[i].Digest != "sha256:"+got || m.Tasks[i].Name != "org/"+it.Task.ID {
			t.Errorf("%s: manifest entry %+v, folder digest %s (%v)", it.Task.ID, m.Tasks[i], got, err)
		}
	}
}

func TestHarborExportFailureKeepsOldDataset(t *testing.T) {
	in := testInput(t, 3, true)
	out := filepath.Join(t.TempDir(), "dataset")
	if _, err := Write("harbor", out, in); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(filepath.Join(out, RegistryFile))
	// a symlink that leaves the task dir stops the export half way
	if err := os.Symlink("/etc/passwd", filepath.Join(in.Selected[2].Task.TaskDir, "tests", "leak")); err != nil {
		t.Fatal(err)
	}
	in.Name = "second"
	_, err := Write("harbor", out, in)
	if err == nil || !strings.Contains(err.Error(), "symbolic link") {
		t.Fatalf("err = %v", err)
	}
	after, _ := os.ReadFile(filepath.Join(out, RegistryFile))
	if !bytes.Equal(before, after) {
		t.Error("a failed export changed the old dataset")
	}
	entries, _ := os.ReadDir(filepath.Dir(out))
	if len(entries) != 1 {
		t.Errorf("leftovers beside the dataset: %v", entries)
	}
}

func TestExportRefusesFileAndReadOnly(t *testing.T) {
	in := testInput(t, 2, true)
	file := filepath.Join(t.TempDir(), "out.txt")
	os.WriteFile(file, []byte("keep"), 0o644)
	for _, f := range Formats {
		_, err := Write(f, file, in)
		if err == nil || !strings.Contains(err.Error(), "is a file, not a folder") {
			t.Errorf("%s into a file: err = %v", f, err)
		}
	}
	if data, _ := os.ReadFile(file); string(data) != "keep" {
		t.Error("the file was changed")
	}
	ro := readOnlyDir(t)
	for _, f := range Formats {
		out := filepath.Join(ro, "export")
		_, err := Write(f, out, in)
		if err == nil || !(strings.Contains(err.Error(), "permission denied") || strings.Contains(err.Error(), "not permitted") || strings.Contains(err.Error(), "read-only")) {
			t.Errorf("%s into a read-only folder: err = %v", f, err)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%s: something was written", f)
		}
	}
}

// readOnlyDir is a folder this process cannot write: a chmod'ed temp dir,
// or for root (who ignores modes) the kernel's read-only /sys.
func readOnlyDir(t *testing.T) string {
	if os.Geteuid() != 0 {
		d := t.TempDir()
		os.Chmod(d, 0o555)
		t.Cleanup(func() { os.Chmod(d, 0o755) })
		return d
	}
	if err := os.Mkdir("/sys/curate-probe", 0o755); err == nil {
		os.Remove("/sys/curate-probe")
		t.Fatal("running as root and /sys is writable: no read-only folder to test with")
	}
	return "/sys"
}

func TestSingleFileExportsLeaveOtherFiles(t *testing.T) {
	in := testInput(t, 4, false)
	out := t.TempDir()
	os.WriteFile(filepath.Join(out, "notes.txt"), []byte("mine"), 0o644)
	for _, f := range []string{"manifest", "report", "csv", "swebench"} {
		if _, err := Write(f, out, in); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
	}
	entries, _ := os.ReadDir(out)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	sort.Strings(names)
	want := []string{MarkerFile, "notes.txt", ManifestFile, CSVFile, ReportFile, SWEBenchFile}
	sort.Strings(want)
	if strings.Join(names, ",") != strings.Join(want, ",") {
		t.Errorf("files %v, want %v", names, want)
	}
}

func TestManifestShape(t *testing.T) {
	in := testInput(t, 4, false)
	var buf bytes.Buffer
	if err := writeManifest(&buf, in); err != nil {
		t.Fatal(err)
	}
	keys := func(v any) string {
		var ks []string
		for k := range v.(map[string]any) {
			ks = append(ks, k)
		}
		sort.Strings(ks)
		return strings.Join(ks, ",")
	}
	var doc map[string]any
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	checks := map[string]string{
		"top":         "metadata,methodology,statistics,tasks",
		"metadata":    "generated_by,random_seed,title,total_available,total_selected,version",
		"methodology": "description,mcp_scoring_weights,sdlc_phases,selection_targets",
		"statistics":  "avg_mcp_benefit_score,tasks_per_benchmark,tasks_per_language,tasks_per_sdlc_phase",
		"task":        "benchmark,category,difficulty,language,mcp_benefit_score,mcp_breakdown,repo,sdlc_phase,selection_rationale,task_dir,task_id",
		"breakdown":   "context_complexity,cross_file_deps,semantic_search_potential,task_category_weight",
	}
	task := doc["tasks"].([]any)[0]
	got := map[string]string{
		"top": keys(doc), "metadata": keys(doc["metadata"]), "methodology": keys(doc["methodology"]),
		"statistics": keys(doc["statistics"]), "task": keys(task), "breakdown": keys(task.(map[string]any)["mcp_breakdown"]),
	}
	for k, want := range checks {
		if got[k] != want {
			t.Errorf("%s keys %s, want %s", k, got[k], want)
		}
	}
	md := doc["metadata"].(map[string]any)
	if md["version"] != "1.0" || md["total_selected"] != 4.0 || md["total_available"] != 5.0 || md["random_seed"] != 7.0 {
		t.Errorf("metadata %v", md)
	}
	if w := doc["methodology"].(map[string]any)["mcp_scoring_weights"].(map[string]any); w["cross_file_deps"] != 0.3 {
		t.Errorf("weights %v", w)
	}
}

func TestReportSectionsAndNumbers(t *testing.T) {
	in := testInput(t, 6, false)
	var buf bytes.Buffer
	if err := writeReport(&buf, in); err != nil {
		t.Fatal(err)
	}
	md := buf.String()
	for _, want := range []string{
		"# Task Selection Methodology", "## Overview", "## SDLC Phase Coverage", "## Benchmark Coverage",
		"## Language Distribution", "## MCP Benefit Scoring", "score = 0.25 * context_complexity", "      + 0.30 * cross_file_deps",
		"### Score Variation by Benchmark", "## Per-Benchmark Selection Strategies", "### B bench (3 tasks)",
		"### Small Benchmarks (all selected)\nccb_a (3)", "## Difficulty Calibration Methodology", "### Difficulty Distribution",
		"| ccb_b | 3 | 3 | Top by score |", "| ccb_a | 4 | 3 | All selected (small benchmark) |",
		"| Implementation (bug fix) | 6 | ccb_b, ccb_a |", fmt.Sprintf("**Average MCP benefit score:** %.4f", in.Stats.AvgScore),
		"| hard | 6 | 100.0% |", "| **Total** | **6** | **100%** |", "| ccb_a | files 4-10 | 3 hard |",
		`| =cmd\|' /C calc'!A0 | 2 |`,
	} {
		if !strings.Contains(md, want) {
			t.Errorf("report lacks %q", want)
		}
	}
}

func TestCSVAndSWEBench(t *testing.T) {
	in := testInput(t, 3, false)
	var buf bytes.Buffer
	if err := writeCSV(&buf, in); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != 4 || !strings.HasPrefix(lines[0], "task_id,benchmark,") || !strings.Contains(lines[3], `,'=cmd|' /C calc'!A0,`) {
		t.Errorf("csv:\n%s", buf.String())
	}
	buf.Reset()
	if err := writeSWEBench(&buf, in); err != nil {
		t.Fatal(err)
	}
	var inst pipeline.SWEBenchInstance
	first := strings.SplitN(buf.String(), "\n", 2)[0]
	if err := json.Unmarshal([]byte(first), &inst); err != nil {
		t.Fatal(err)
	}
	if inst.InstanceID != "org__repo-0000" || inst.BaseCommit != "abc" || len(inst.FailToPass) != 1 || inst.PassToPass[0] != "test_b" {
		t.Errorf("instance %+v", inst)
	}
}

func TestUnknownFormat(t *testing.T) {
	if _, err := Write("parquet", t.TempDir(), testInput(t, 1, false)); err == nil || !strings.Contains(err.Error(), "unknown format") {
		t.Fatalf("err = %v", err)
	}
}

func BenchmarkHarborExport1000(b *testing.B) {
	in := testInput(b, 1000, true)
	root := b.TempDir()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Write("harbor", filepath.Join(root, "dataset"), in); err != nil {
			b.Fatal(err)
		}
	}
}

func TestHarborExportReplacesOldDataset(t *testing.T) {
	in := testInput(t, 3, true)
	out := filepath.Join(t.TempDir(), "dataset")
	if _, err := Write("harbor", out, in); err != nil {
		t.Fatal(err)
	}
	in.Selected = in.Selected[:1]
	if _, err := Write("harbor", out, in); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(out)
	if len(entries) != 4 { // one task dir, dataset.toml, registry.json and the marker
		t.Errorf("dataset holds %d entries after re-export, want 4", len(entries))
	}
	if entries, _ := os.ReadDir(filepath.Dir(out)); len(entries) != 1 {
		t.Errorf("leftovers beside the dataset: %v", entries)
	}
}

// BenchmarkHarborExport1000CpBaseline is `cp -a` of the same 1,000 task
// dirs, the baseline the export is compared with on a loaded machine.
func BenchmarkHarborExport1000CpBaseline(b *testing.B) {
	in := testInput(b, 1000, true)
	src := filepath.Dir(in.Selected[0].Task.TaskDir)
	root := b.TempDir()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		dst := filepath.Join(root, fmt.Sprint("copy", i))
		if out, err := exec.Command("cp", "-a", src, dst).CombinedOutput(); err != nil {
			b.Fatalf("cp: %v %s", err, out)
		}
	}
}

func TestSWEBenchPrefersTaskRecord(t *testing.T) {
	in := testInput(t, 2, true)
	dir := in.Selected[0].Task.TaskDir
	os.WriteFile(filepath.Join(dir, "swebench.json"), []byte(`{"instance_id":"org__repo-0000","FAIL_TO_PASS":"[\"tests/test_x.py::test_div\"]","PASS_TO_PASS":[],"version":"1.2"}`), 0o644)
	os.WriteFile(filepath.Join(dir, "solution", "fix.patch"), []byte("diff --git a/x b/x\n"), 0o644)
	var buf bytes.Buffer
	if err := writeSWEBench(&buf, in); err != nil {
		t.Fatal(err)
	}
	var inst pipeline.SWEBenchInstance
	json.Unmarshal([]byte(strings.SplitN(buf.String(), "\n", 2)[0]), &inst)
	if len(inst.FailToPass) != 1 || inst.FailToPass[0] != "tests/test_x.py::test_div" || len(inst.PassToPass) != 0 || inst.Version != "1.2" || inst.Patch != "diff --git a/x b/x\n" || inst.BaseCommit != "abc" {
		t.Errorf("instance %+v", inst)
	}
	os.WriteFile(filepath.Join(dir, "swebench.json"), []byte("{not json"), 0o644)
	out := t.TempDir()
	_, err := Write("swebench", out, in)
	if err == nil || !strings.Contains(err.Error(), "swebench.json: not a JSON object") {
		t.Fatalf("err = %v", err)
	}
	if entries, _ := os.ReadDir(out); len(entries) != 0 {
		t.Errorf("a failed export left %v", entries)
	}
}

// The report's "Task construction" section prints the funnel it is given,
// the same one `curate funnel` computes.
func TestReportTaskConstruction(t *testing.T) {
	in := testInput(t, 6, false)
	var buf bytes.Buffer
	if err := writeReport(&buf, in); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(buf.String(), "## Task construction") {
		t.Fatal("a catalogue without mined tasks has a Task construction section")
	}
	mk := func(id, repo string, st pipeline.Status, f *pipeline.Failure) *pipeline.Task {
		return &pipeline.Task{ID: id, Repo: repo, Source: "github", Status: st, TaskDir: "tasks/" + id, Digest: "d", Failure: f}
	}
	tasks := []*pipeline.Task{
		mk("x-1", "o/x", pipeline.StatusValid, nil),
		mk("x-2", "o/x", pipeline.StatusInvalid, &pipeline.Failure{Class: pipeline.ClassNoFailToPass}),
		mk("y-1", "o/y", pipeline.StatusInvalid, &pipeline.Failure{Class: pipeline.ClassToolchainMismatch}),
	}
	var runs []*pipeline.Run
	for _, m := range []string{"nop", "oracle", "gold"} {
		runs = append(runs, &pipeline.Run{ID: "x-1" + m, TaskID: "x-1", Mode: m, Outcome: pipeline.OutcomeOK, Digest: "d"})
	}
	in.Funnel = stats.ComputeFunnel(tasks, runs, "")
	buf.Reset()
	if err := writeReport(&buf, in); err != nil {
		t.Fatal(err)
	}
	md := buf.String()
	for _, want := range []string{
		"## Task construction", "| o/x | 2 | 2 | 2 | 1 | 1 | 1 | 1 | 1 |", "| o/y | 1 | 1 | 1 | 0 | 0 | 0 | 0 | 0 |",
		"| **Total** | 3 | 3 | 3 | 1 | 1 | 1 | 1 | 1 |", "| toolchain_mismatch | 1 | y-1 |",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("report lacks %q:\n%s", want, md[strings.Index(md, "## Task construction"):])
		}
	}
}

// A task built at a snapshot exports in SWE-smith's shape: its id names
// the snapshot and the PR, patch is the bug-introducing diff, image_name
// the shared repository image; a merge-built task keeps SWE-bench's.
func TestSWEBenchMirroredTaskIsSWESmithShaped(t *testing.T) {
	in := testInput(t, 2, true)
	mirrored := in.Selected[0].Task
	mirrored.Repo, mirrored.PR = "spf13/cobra", 2397
	mirrored.Extra = map[string]any{pipeline.ExtraBuildStrategy: pipeline.AtSnapshot, pipeline.ExtraSnapshot: "adbc8813f3f4a4a7d6a2e2d0c3b9f1e5d3c2b1a0",
		pipeline.ExtraRepoImage: "curate-repo:0123456789ab", "FAIL_TO_PASS": []any{"TestA"}}
	os.MkdirAll(filepath.Join(mirrored.TaskDir, "environment"), 0o755)
	os.WriteFile(filepath.Join(mirrored.TaskDir, "environment", "bug.patch"), []byte("diff --git a/bug b/bug\n"), 0o644)
	var buf bytes.Buffer
	if err := writeSWEBench(&buf, in); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	var smith map[string]any
	if err := json.Unmarshal([]byte(lines[0]), &smith); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"instance_id": "spf13__cobra.adbc8813.pr_2397", "repo": "spf13/cobra", "patch": "diff --git a/bug b/bug\n",
		"image_name": "curate-repo:0123456789ab", "base_commit": "adbc8813f3f4a4a7d6a2e2d0c3b9f1e5d3c2b1a0"}
	for k, v := range want {
		if smith[k] != v {
			t.Errorf("%s = %v, want %v", k, smith[k], v)
		}
	}
	if f2p, _ := smith["FAIL_TO_PASS"].([]any); len(f2p) != 1 || f2p[0] != "TestA" {
		t.Errorf("FAIL_TO_PASS = %v", smith["FAIL_TO_PASS"])
	}
	if _, ok := smith["test_patch"]; ok {
		t.Errorf("a SWE-smith record has no test_patch: %v", smith)
	}
	var other map[string]any
	json.Unmarshal([]byte(lines[1]), &other)
	if _, ok := other["image_name"]; ok || other["test_patch"] == nil {
		t.Errorf("a merge-built task is SWE-bench shaped: %v", other)
	}
}

// Two tasks whose names meet under one org (acme/calc-1 and other/calc-1
// with --org me) are refused: dataset.toml would list one name twice.
func TestHarborExportRefusesOneNameTwice(t *testing.T) {
	in := testInput(t, 2, true)
	for _, it := range in.Selected {
		org := map[bool]string{true: "acme", false: "other"}[it.Task.ID == in.Selected[0].Task.ID]
		os.WriteFile(filepath.Join(it.Task.TaskDir, "task.toml"), []byte("schema_version = \"1.1\"\n[task]\nname = \""+org+"/calc-1\"\n"), 0o644)
	}
	in.Org = "me"
	_, err := Write("harbor", filepath.Join(t.TempDir(), "dataset"), in)
	if err == nil || !strings.Contains(err.Error(), "would both be published as me/calc-1") {
		t.Fatalf("err %v", err)
	}
	in.Org = "" // their own orgs keep them apart
	if _, err := Write("harbor", filepath.Join(t.TempDir(), "dataset"), in); err != nil {
		t.Fatal(err)
	}
}
