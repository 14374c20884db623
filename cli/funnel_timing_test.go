package cli

import (
	"context"
	"database/sql"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"curate/pipeline"
	"curate/store"
	"curate/workspace"
)

// timingLine matches a phase's line of `funnel --timing`: wall, CPU,
// wall per valid task, CPU per valid task.
func timingLine(phase, wall, cpu, wallPer, cpuPer string) *regexp.Regexp {
	return regexp.MustCompile(`(?m)^    ` + regexp.QuoteMeta(phase) + ` +` + wall + ` +` + cpu + ` +` + wallPer + ` +` + cpuPer + `$`)
}

// A workspace made before machine times were recorded (schema 12, no
// phase_times table) opens with this binary, and funnel --timing says
// "-" for every phase it knows nothing of.
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
