package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"curate/app"
	"curate/internal/fixtures"
	"curate/pipeline"
	"curate/pipeline/profiles"
	"curate/pipeline/score"
	"curate/pipeline/stats"
	"curate/workspace"
)

// seedWorkspace makes a workspace holding fixtures.SeedSpec (seed 000's
// Available column) scored by the ccb profile's real scorer.
func seedWorkspace(t *testing.T) string {
	t.Helper()
	root, err := workspace.InitProfile(t.TempDir(), "ccb")
	if err != nil {
		t.Fatal(err)
	}
	ws, err := workspace.Open(context.Background(), root)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	p, err := profiles.Load("ccb", "")
	if err != nil {
		t.Fatal(err)
	}
	sc, err := score.Compile(p.Score)
	if err != nil {
		t.Fatal(err)
	}
	tasks := fixtures.Catalog(fixtures.SeedSpec, 1)
	for _, tk := range tasks {
		sc.Apply(tk)
	}
	if err := ws.Store.UpsertTasks(context.Background(), tasks); err != nil {
		t.Fatal(err)
	}
	return root
}

// cliIn runs curate in-process on the workspace at root.
func cliIn(t *testing.T, root string, args ...string) (string, string, int) {
	t.Helper()
	code, out, errs := cli(t, append([]string{"--workspace", root}, args...)...)
	return out, errs, code
}

func TestSelectReproducesSeedAndReportAgreesWithStats(t *testing.T) {
	root := seedWorkspace(t)
	out, errs, code := cliIn(t, root, "select", "--name", "seed", "--json")
	if code != 0 {
		t.Fatalf("select: %s", errs)
	}
	var res struct {
		Selected   int                  `json:"selected"`
		Feasible   bool                 `json:"feasible"`
		Benchmarks []stats.BenchmarkRow `json:"benchmarks"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	want := map[string]int{"ccb_largerepo": 4, "ccb_pytorch": 12, "ccb_k8sdocs": 5, "ccb_locobench": 25, "ccb_swebenchpro": 36,
		"ccb_sweperf": 3, "ccb_tac": 8, "ccb_crossrepo": 5, "ccb_dibench": 8, "ccb_repoqa": 10}
	if res.Selected != 116 || !res.Feasible {
		t.Fatalf("selected %d feasible %v", res.Selected, res.Feasible)
	}
	for _, b := range res.Benchmarks {
		if b.Selected != want[b.Benchmark] || b.Available != fixtures.SeedSpec[b.Benchmark] {
			t.Errorf("%s: %d of %d, want %d of %d", b.Benchmark, b.Selected, b.Available, want[b.Benchmark], fixtures.SeedSpec[b.Benchmark])
		}
	}

	out, errs, code = cliIn(t, root, "stats", "--json")
	if code != 0 {
		t.Fatalf("stats: %s", errs)
	}
	var st stats.Stats
	if err := json.Unmarshal([]byte(out), &st); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "out")
	if _, errs, code = cliIn(t, root, "export", "--format", "report", "--out", dir); code != 0 {
		t.Fatalf("export: %s", errs)
	}
	data, err := os.ReadFile(filepath.Join(dir, "selection_methodology.md"))
	if err != nil {
		t.Fatal(err)
	}
	md := string(data)
	checks := []string{fmt.Sprintf("Selected **%d tasks** from %d available across %d benchmarks", st.TotalSelected, st.TotalAvailable, st.BenchmarkCount),
		fmt.Sprintf("**Average MCP benefit score:** %.4f", st.AvgScore)}
	for _, p := range st.Phases {
		checks = append(checks, fmt.Sprintf("| %s | %d | %s |", p.Phase, p.Tasks, strings.Join(p.Benchmarks, ", ")))
	}
	for _, b := range st.Benchmarks {
		checks = append(checks, fmt.Sprintf("| %s | %d | %d | %s |", b.Benchmark, b.Available, b.Selected, b.Strategy),
			fmt.Sprintf("| %s | %d | %.3f–%.3f | %.3f |", b.Benchmark, b.Selected, b.ScoreMin, b.ScoreMax, b.StdDev))
	}
	for _, l := range st.Languages {
		checks = append(checks, fmt.Sprintf("| %s | %d |", l.Name, l.Count))
	}
	for _, d := range st.Difficulties {
		checks = append(checks, fmt.Sprintf("| %s | %d | %.1f%% |", d.Name, d.Count, d.Percent))
	}
	for _, c := range checks {
		if !strings.Contains(md, c) {
			t.Errorf("report lacks %q", c)
		}
	}

	// the manifest agrees too
	if _, errs, code = cliIn(t, root, "export", "--format", "manifest", "--out", dir); code != 0 {
		t.Fatalf("export manifest: %s", errs)
	}
	data, _ = os.ReadFile(filepath.Join(dir, "selected_benchmark_tasks.json"))
	var man struct {
		Metadata   struct{ TotalSelected, TotalAvailable int } `json:"metadata"`
		Statistics struct {
			Avg float64 `json:"avg_mcp_benefit_score"`
		} `json:"statistics"`
		Tasks []struct {
			Rationale string `json:"selection_rationale"`
		} `json:"tasks"`
	}
	json.Unmarshal(data, &man)
	if len(man.Tasks) != 116 || man.Statistics.Avg != st.AvgScore {
		t.Errorf("manifest: %d tasks, avg %v (stats %v)", len(man.Tasks), man.Statistics.Avg, st.AvgScore)
	}
	for _, tk := range man.Tasks {
		if tk.Rationale == "" {
			t.Fatal("a manifest task has no rationale")
		}
	}
}

func TestSelectDiffListAndBadInput(t *testing.T) {
	root := seedWorkspace(t)
	if _, errs, code := cliIn(t, root, "select", "--name", "a"); code != 0 {
		t.Fatal(errs)
	}
	if _, errs, code := cliIn(t, root, "select", "--name", "b", "--budget", "100"); code != 0 {
		t.Fatal(errs)
	}
	out, errs, code := cliIn(t, root, "select", "diff", "a", "b", "--json")
	if code != 0 {
		t.Fatal(errs)
	}
	var d app.SelectionDiff
	json.Unmarshal([]byte(out), &d)
	if len(d.Left) != 16 || len(d.Entered) != 0 || d.Kept != 100 {
		t.Errorf("diff: %d entered, %d left, %d kept", len(d.Entered), len(d.Left), d.Kept)
	}
	// An unmet quota: exit 2, the shortfall on stderr, nothing saved...
	out, errs, code = cliIn(t, root, "select", "--name", "java", "--quota", "language=java:min=500")
	if code != 2 || !strings.Contains(out, "quota language=java min 500 cannot be met") ||
		!strings.Contains(errs, "selection java is infeasible and was not saved") || !strings.Contains(errs, "short by") {
		t.Errorf("infeasible quota: code %d\n%s%s", code, out, errs)
	}
	// ...unless --allow-infeasible.
	out, errs, code = cliIn(t, root, "select", "--name", "java2", "--quota", "language=java:min=500", "--allow-infeasible")
	if code != 0 || !strings.Contains(out, "cannot be met") {
		t.Errorf("--allow-infeasible: code %d\n%s%s", code, out, errs)
	}
	out, _, _ = cliIn(t, root, "select", "list")
	if !strings.Contains(out, "a ") || !strings.Contains(out, "b ") || !strings.Contains(out, "java2 ") || strings.Contains(out, "java ") {
		t.Errorf("list:\n%s", out)
	}
	file := filepath.Join(t.TempDir(), "f")
	os.WriteFile(file, nil, 0o644)
	bad := []struct {
		args []string
		want string
	}{
		{[]string{"select", "--budget", "0"}, "--budget 0: must be at least 1"},
		{[]string{"select", "--budget", "5000"}, "larger than the catalogue"},
		{[]string{"select", "diff", "a", "nope"}, `selection "nope"`},
		{[]string{"select", "--quota", "colour=red:min=1"}, `unknown dimension "colour"`},
		{[]string{"select", "--quota", "language=go:min=4,max=1"}, "min 4 is above max 1"},
		{[]string{"export", "--format", "report", "--out", file}, "is a file, not a folder"},
		{[]string{"export", "--format", "pdf", "--out", file}, "unknown format"},
		{[]string{"export", "--format", "csv", "--out", t.TempDir(), "--selection", "nope"}, `selection "nope"`},
	}
	for _, tc := range bad {
		_, errs, code := cliIn(t, root, tc.args...)
		if code == 0 || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: code %d, stderr %q, want %q", tc.args, code, errs, tc.want)
		}
	}
	// curate.toml quotas are checked before anything is saved
	cfg := filepath.Join(root, "curate.toml")
	data, _ := os.ReadFile(cfg)
	for _, extra := range []string{
		"\n[selection]\nquotas = [{ dimension = \"colour\", value = \"x\", min = 1 }]\n",
		"\n[selection]\nquotas = [{ dimension = \"language\", value = \"go\", min = 5, max = 2 }]\n",
		"\n[selection]\nquotas = [{ dimension = \"language\", value = \"go\", min = -1 }]\n",
		"\n[selection]\nbudget = 0\n",
		"\n[selection]\nbogus = 1\n",
	} {
		os.WriteFile(cfg, append(append([]byte(nil), data...), extra...), 0o644)
		_, errs, code := cliIn(t, root, "select", "--name", "c")
		if code == 0 || !strings.Contains(errs, "curate.toml") {
			t.Errorf("%q: code %d, stderr %q", extra, code, errs)
		}
	}
	os.WriteFile(cfg, data, 0o644)
	out, _, _ = cliIn(t, root, "select", "list", "--json")
	if strings.Contains(out, `"c"`) {
		t.Error("a rejected config saved a selection")
	}
}

func TestExportHarborFromWorkspace(t *testing.T) {
	root := seedWorkspace(t)
	ctx := context.Background()
	ws, err := workspace.Open(ctx, root)
	if err != nil {
		t.Fatal(err)
	}
	tasks, _ := ws.Store.Tasks(ctx)
	var built []*pipeline.Task
	for _, tk := range tasks {
		if tk.Benchmark == "ccb_tac" { // all selected by the ccb profile
			dir := filepath.Join(ws.TasksPath(), tk.ID)
			for rel, body := range map[string]string{"instruction.md": "Do " + tk.ID, "task.toml": "[task]\nname = \"tac/" + tk.ID + "\"\n",
				"environment/Dockerfile": "FROM ubuntu:24.04\n", "tests/test.sh": "#!/bin/bash\n"} {
				os.MkdirAll(filepath.Dir(filepath.Join(dir, rel)), 0o755)
				os.WriteFile(filepath.Join(dir, rel), []byte(body), 0o644)
			}
			tk.TaskDir = dir
			built = append(built, tk)
		}
	}
	if err := ws.Store.UpsertTasks(ctx, built); err != nil {
		t.Fatal(err)
	}
	ws.Close()
	if _, errs, code := cliIn(t, root, "select", "--name", "s"); code != 0 {
		t.Fatal(errs)
	}
	out := filepath.Join(t.TempDir(), "dataset")
	// Unvalidated tasks are refused before anything is written.
	stdout, errs, code := cliIn(t, root, "export", "--format", "harbor", "--out", out)
	if _, err := os.Stat(out); code != 1 || !strings.HasPrefix(stdout, "selection s (the newest saved") ||
		!strings.Contains(errs, "nothing written: 116 of 116 selected task(s) are not validated valid") || err == nil {
		t.Fatalf("unvalidated: exit %d (out dir: %v)\n%s\n%s", code, err, stdout, errs)
	}
	stdout, errs, code = cliIn(t, root, "export", "--format", "harbor", "--out", out, "--git-url", "https://example.com/b.git", "--git-commit", "abc", "--allow-unvalidated")
	// Tasks left out fail the export, each named, and the rest is written;
	// no success line.
	if code != 1 || !strings.Contains(errs, "the rest was written, but 108 task(s) have no task dir") ||
		!strings.Contains(stdout, "Wrote 8 of the 116 tasks of selection s as harbor") || strings.Contains(stdout, "Exported") {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, errs)
	}
	data, _ := os.ReadFile(filepath.Join(out, "registry.json"))
	var reg []struct {
		Name  string `json:"name"`
		Tasks []struct {
			Name, Path, GitURL, GitCommitID string
		} `json:"tasks"`
	}
	if err := json.Unmarshal(data, &reg); err != nil || len(reg) != 1 || len(reg[0].Tasks) != 8 || reg[0].Name != "s" {
		t.Fatalf("registry %s (%v)", data, err)
	}
	for _, tk := range built {
		if _, err := os.Stat(filepath.Join(out, tk.ID, "environment", "Dockerfile")); err != nil {
			t.Errorf("%s not copied: %v", tk.ID, err)
		}
	}
	// A task dir gone from disk is named; the other seven are exported.
	// A temp dir of a killed export (a dead pid in its name) is removed.
	os.RemoveAll(built[0].TaskDir)
	stale := filepath.Join(filepath.Dir(out), ".dataset.tmp-999999999-123")
	os.MkdirAll(filepath.Join(stale, "x"), 0o755)
	stdout, errs, code = cliIn(t, root, "export", "--format", "harbor", "--org", "acme", "--out", out, "--allow-unvalidated")
	if code != 1 || !strings.Contains(errs, "1 task dir(s) missing from disk (re-import or rebuild them): "+built[0].ID) {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, errs)
	}
	if _, err := os.Stat(filepath.Join(out, built[1].ID, "task.toml")); err != nil {
		t.Errorf("the rest was not written: %v", err)
	}
	if _, err := os.Stat(stale); err == nil {
		t.Error("a killed export's temp dir was left")
	}
	// --out with a missing parent: created, as the help says.
	deep := filepath.Join(t.TempDir(), "a", "b", "out")
	if _, errs, code := cliIn(t, root, "export", "--format", "manifest", "--out", deep); code != 0 {
		t.Fatalf("missing parent: %s", errs)
	}
}

func TestExportedManifestImportsBack(t *testing.T) {
	root := seedWorkspace(t)
	if _, errs, code := cliIn(t, root, "select", "--name", "seed"); code != 0 {
		t.Fatal(errs)
	}
	out := t.TempDir()
	if _, errs, code := cliIn(t, root, "export", "--format", "manifest", "--out", out); code != 0 {
		t.Fatal(errs)
	}
	other, err := workspace.InitProfile(t.TempDir(), "ccb")
	if err != nil {
		t.Fatal(err)
	}
	if _, errs, code := cliIn(t, other, "import", "manifest", filepath.Join(out, "selected_benchmark_tasks.json")); code != 0 {
		t.Fatalf("import: %s", errs)
	}
	stdout, errs, code := cliIn(t, other, "select", "list", "--json")
	if code != 0 {
		t.Fatal(errs)
	}
	var rows []struct {
		Name  string `json:"name"`
		Tasks int    `json:"tasks"`
	}
	json.Unmarshal([]byte(stdout), &rows)
	if len(rows) != 1 || rows[0].Tasks != 116 {
		t.Fatalf("imported selections %+v", rows)
	}
	stdout, _, _ = cliIn(t, other, "stats", "--json")
	var st stats.Stats
	json.Unmarshal([]byte(stdout), &st)
	if st.TotalSelected != 116 || len(st.Phases) == 0 {
		t.Errorf("stats of the imported selection: %+v", st)
	}
}

// A benchmark whose take exceeds its candidates is a shortfall: exit 2
// with the benchmark named on stderr, 0 with --allow-infeasible.
func TestSelectBenchmarkShortfallExits(t *testing.T) {
	root := seedWorkspace(t)
	prof := filepath.Join(root, "more-pytorch.toml")
	os.WriteFile(prof, []byte("[selection.benchmarks.ccb_pytorch]\ntake = 40\nstrategy = \"top\"\nsort = [\"-difficulty\"]\n"), 0o644)
	cfg := filepath.Join(root, "curate.toml")
	data, _ := os.ReadFile(cfg)
	os.WriteFile(cfg, []byte(strings.Replace(string(data), `# file = "my-profile.toml"`, `file = "more-pytorch.toml"`, 1)), 0o644)
	_, errs, code := cliIn(t, root, "select", "--name", "x")
	if code != 2 || !strings.Contains(errs, "benchmark ccb_pytorch: take 40, 25 available (short by 15)") {
		t.Fatalf("code %d stderr %q", code, errs)
	}
	if _, errs, code := cliIn(t, root, "select", "--name", "x", "--allow-infeasible", "--json"); code != 0 {
		t.Fatalf("--allow-infeasible: code %d %s", code, errs)
	}
}
