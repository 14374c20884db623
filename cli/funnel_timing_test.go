package cli

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"curate/internal/testenv"
	"curate/pipeline"
	"curate/pipeline/stats"
	"curate/store"
	"curate/workspace"
)

// timingLine matches a phase's line of `funnel --timing`: wall, CPU,
// wall per valid task, CPU per valid task.
func timingLine(phase, wall, cpu, wallPer, cpuPer string) *regexp.Regexp {
	return regexp.MustCompile(`(?m)^    ` + regexp.QuoteMeta(phase) + ` +` + wall + ` +` + cpu + ` +` + wallPer + ` +` + cpuPer + `$`)
}

// A workspace made before machine times were recorded (schema 12, no
// phase_times table) opens with this binary, which says once that it
// upgraded it, and funnel --timing says "-" for every phase it knows
// nothing of.
func TestFunnelTimingOldStore(t *testing.T) {
	root := demoWorkspace(t)
	db, err := sql.Open("sqlite", "file:"+filepath.Join(root, ".curate", "curate.db"))
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{"DROP TABLE phase_times", "PRAGMA user_version = 12"} {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	db.Close()
	code, out, errs := cli(t, "-w", root, "funnel", "--timing")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	upgraded := fmt.Sprintf("from schema 12 to %d: a curate older than this one can no longer open it", store.SchemaVersion())
	if !strings.Contains(errs, upgraded) {
		t.Errorf("the upgrade was not said: %q", errs)
	}
	if _, _, errs := cli(t, "-w", root, "funnel"); strings.Contains(errs, "upgraded") {
		t.Errorf("said again on the next command: %q", errs)
	}
	for _, phase := range []string{"mine", "env check", "repo image", "task layer", "runs", "total"} {
		if !timingLine(phase, "-", "-", "-", "-").MatchString(out) {
			t.Errorf("%s: want - in every column\n%s", phase, out)
		}
	}
	ws, err := workspace.Open(context.Background(), root)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	if times, err := ws.Store.PhaseTimes(context.Background()); err != nil || len(times) != 0 {
		t.Errorf("the migrated store: %v %v", times, err)
	}
	if store.SchemaVersion() < 13 {
		t.Errorf("schema %d has no phase_times", store.SchemaVersion())
	}
}

// Recorded times of a repository with no valid task are printed, and
// nothing per valid task ("-", no division by zero); --json carries the
// same with nulls.
func TestFunnelTimingNoValidTask(t *testing.T) {
	root := demoWorkspace(t)
	ctx := context.Background()
	ws, err := workspace.Open(ctx, root)
	if err != nil {
		t.Fatal(err)
	}
	tasks, err := ws.Store.Tasks(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var task *pipeline.Task
	for _, tk := range tasks {
		if tk.Mined() && tk.Repo != "" {
			task = tk
			break
		}
	}
	if task == nil {
		t.Fatal("the demo has no mined task")
	}
	err = ws.Store.SavePhaseTimes(ctx, []pipeline.PhaseTime{
		{Phase: pipeline.TimeRuns, Repo: task.Repo, TaskID: task.ID, RunID: "r1", Wall: 2500 * time.Millisecond, CPU: 1250 * time.Millisecond, CPUMeasured: true},
		{Phase: pipeline.TimeRepoImage, Repo: task.Repo, TaskID: task.ID, Wall: 4 * time.Second},
	})
	ws.Close()
	if err != nil {
		t.Fatal(err)
	}
	code, out, errs := cli(t, "-w", root, "funnel", "--timing", "--repo", task.Repo)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(out, task.Repo+": 0 valid") {
		t.Errorf("want %s with 0 valid\n%s", task.Repo, out)
	}
	for _, want := range []*regexp.Regexp{
		timingLine("runs", `2\.50`, `1\.25`, "-", "-"),
		timingLine("repo image", `4\.00`, "-", "-", "-"),       // wall, CPU not measured
		timingLine("mine", `\d+\.\d\d`, `\d+\.\d\d`, "-", "-"), // the demo's own mine
		timingLine("total", `\d+\.\d\d`, `\d+\.\d\d\*`, "-", "-"),
		timingLine("env check", "-", "-", "-", "-"),
	} {
		if !want.MatchString(out) {
			t.Errorf("no line %s\n%s", want, out)
		}
	}
	if code, out, _ := cli(t, "-w", root, "funnel", "--timing", "--json", "--repo", task.Repo); code != 0 ||
		!strings.Contains(out, `"wall_s_per_valid": null`) || !strings.Contains(out, `"wall_s": 2.5`) {
		t.Errorf("--json: exit %d\n%s", code, out)
	}
}

// checkRunTiming checks funnel --timing after the demo's tasks were
// validated (TestValidateBuiltDemoTasks, Docker): every run that executed
// a container has a time no longer than its run record's span, the runs'
// sum is what the funnel prints, and per valid task it is that sum over
// the valid tasks. CPU is measured where the engine is on this machine
// with the cgroupfs driver (curate reads its cgroups), and only there.
func checkRunTiming(t *testing.T, root string, runs []pipeline.Run, valid int) {
	t.Helper()
	ctx := context.Background()
	info, err := testenv.RequireDocker(t).Info(ctx)
	if err != nil {
		t.Fatal(err)
	}
	host := os.Getenv("DOCKER_HOST")
	cpuHere := info.CgroupDriver == "cgroupfs" && (host == "" || strings.HasPrefix(host, "unix://"))
	ws, err := workspace.Open(ctx, root)
	if err != nil {
		t.Fatal(err)
	}
	times, err := ws.Store.PhaseTimes(ctx)
	ws.Close()
	if err != nil {
		t.Fatal(err)
	}
	span := map[string]time.Duration{}
	for _, r := range runs {
		span[r.ID] = r.FinishedAt.Sub(r.StartedAt)
	}
	var wall, cpu float64
	pieces := map[string]int{}
	for _, p := range times {
		pieces[p.Phase]++
		if p.Phase != pipeline.TimeMine && p.CPUMeasured != cpuHere { // a mine's CPU is curate's own (getrusage)
			t.Errorf("%s of %s: CPU measured %v, want %v (cgroup driver %s)", p.Phase, p.RunID, p.CPUMeasured, cpuHere, info.CgroupDriver)
		}
		if p.Phase != pipeline.TimeRuns {
			continue
		}
		s, ok := span[p.RunID]
		if !ok || p.Wall <= 0 || p.Wall > s {
			t.Errorf("run %s: executions took %s, its record spans %s (known: %v)", p.RunID, p.Wall, s, ok)
		}
		wall += p.Wall.Seconds()
		cpu += p.CPU.Seconds()
	}
	// NOP and Oracle run a container each; gold reads theirs (and runs
	// the fixed state again unless its ids are plain names).
	if pieces[pipeline.TimeRuns] < 2*valid || pieces[pipeline.TimeRuns] > 3*valid || pieces[pipeline.TimeRepoImage] == 0 || pieces[pipeline.TimeTaskLayer] == 0 {
		t.Errorf("recorded pieces %v for %d valid tasks", pieces, valid)
	}
	if cpuHere && cpu <= 0 {
		t.Errorf("runs used %g s of CPU", cpu)
	}
	code, out, errs := cli(t, "-w", root, "funnel", "--timing", "--json")
	var f stats.Funnel
	if err := json.Unmarshal([]byte(out), &f); err != nil || code != 0 || f.Timing == nil {
		t.Fatalf("funnel --timing --json: exit %d %v\n%s%s", code, err, out, errs)
	}
	all := f.Timing.Total
	var got stats.PhaseTiming
	for _, p := range all.Phases {
		if p.Phase == pipeline.TimeRuns {
			got = p
		}
	}
	near := func(a, b float64) bool { return a-b < 1e-6 && b-a < 1e-6 }
	if all.Valid != valid || !near(got.WallS, wall) || !near(got.CPUS, cpu) || got.WallPerValid == nil || !near(*got.WallPerValid, wall/float64(valid)) {
		t.Errorf("funnel runs %+v (valid %d), want %g s wall, %g s CPU over %d valid", got, all.Valid, wall, cpu, valid)
	}
	if cpuHere && (got.CPUPerValid == nil || !near(*got.CPUPerValid, cpu/float64(valid))) {
		t.Errorf("runs CPU per valid task %v, want %g", got.CPUPerValid, cpu/float64(valid))
	}
	_, text, _ := cli(t, "-w", root, "funnel", "--timing")
	if !timingLine("runs", `\d+\.\d\d`, `(\d+\.\d\d|-)`, `\d+\.\d\d`, `(\d+\.\d\d|-)`).MatchString(text) || !strings.Contains(text, fmt.Sprintf("total: %d valid", valid)) {
		t.Errorf("funnel --timing\n%s", text)
	}
	t.Logf("runs: %.2f s wall, %.2f s CPU over %d valid tasks; pieces %v\n%s", wall, cpu, valid, pieces, text)
}
