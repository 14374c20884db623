package stats

import (
	"testing"
	"time"

	"curate/pipeline"
)

// timingFixture: o/go has two valid Go tasks; o/py one Python task that
// is not valid (0 valid: nothing to divide by); a task of another
// repository and an imported task are left out.
func timingFixture() ([]*pipeline.Task, []*pipeline.Run, []pipeline.PhaseTime) {
	task := func(id, repo, lang string, st pipeline.Status) *pipeline.Task {
		return &pipeline.Task{ID: id, Repo: repo, Language: lang, Source: "git", Status: st, TaskDir: "tasks/" + id, Digest: "d"}
	}
	tasks := []*pipeline.Task{
		task("g-1", "o/go", "go", pipeline.StatusValid), task("g-2", "o/go", "go", pipeline.StatusValid),
		task("p-1", "o/py", "python", pipeline.StatusInvalid),
		{ID: "imported", Repo: "o/go", Source: "harbor", Status: pipeline.StatusValid},
	}
	var runs []*pipeline.Run
	for _, id := range []string{"g-1", "g-2"} {
		for _, m := range []string{pipeline.ModeNop, pipeline.ModeOracle, pipeline.ModeGold} {
			runs = append(runs, &pipeline.Run{ID: id + m, TaskID: id, Mode: m, Outcome: pipeline.OutcomeOK, Digest: "d"})
		}
	}
	s := func(f float64) time.Duration { return time.Duration(f * float64(time.Second)) }
	cpu := func(phase, repo, task string, wall, c float64) pipeline.PhaseTime {
		return pipeline.PhaseTime{Phase: phase, Repo: repo, TaskID: task, Wall: s(wall), CPU: s(c), CPUMeasured: true}
	}
	times := []pipeline.PhaseTime{
		cpu(pipeline.TimeMine, "o/go", "", 2, 1),
		cpu(pipeline.TimeRepoImage, "o/go", "g-1", 10, 6),
		cpu(pipeline.TimeTaskLayer, "o/go", "g-1", 1, 0.5),
		cpu(pipeline.TimeTaskLayer, "o/go", "g-2", 1, 0.5),
		cpu(pipeline.TimeRuns, "o/go", "g-1", 3, 2),
		cpu(pipeline.TimeRuns, "o/go", "g-2", 3, 2),
		// A run on an engine whose CPU nobody measured: wall only.
		{Phase: pipeline.TimeRuns, Repo: "o/go", TaskID: "g-2", Wall: s(2)},
		cpu(pipeline.TimeMine, "o/py", "", 4, 3),
		cpu(pipeline.TimeRuns, "o/py", "p-1", 5, 4),
		cpu(pipeline.TimeRuns, "o/other", "x-1", 100, 100), // no such task here
		cpu(pipeline.TimeMine, "o/other", "", 100, 100),    // nor repository
		cpu(pipeline.TimeRuns, "o/go", "imported", 100, 100),
	}
	return tasks, runs, times
}

func TestComputeTiming(t *testing.T) {
	tasks, runs, times := timingFixture()
	tm := ComputeTiming(tasks, runs, times, "")
	if len(tm.Repos) != 2 || tm.Repos[0].Name != "o/go" || tm.Repos[1].Name != "o/py" {
		t.Fatalf("repos: %+v", tm.Repos)
	}
	phase := func(r TimingRow, name string) PhaseTiming {
		for _, p := range append(r.Phases, r.Total) {
			if p.Phase == name {
				return p
			}
		}
		t.Fatalf("%s: no phase %s", r.Name, name)
		return PhaseTiming{}
	}
	near := func(what string, got *float64, want float64) {
		t.Helper()
		if got == nil || *got < want-1e-9 || *got > want+1e-9 {
			t.Errorf("%s: %v, want %g", what, deref(got), want)
		}
	}
	g := tm.Repos[0]
	if g.Valid != 2 {
		t.Errorf("o/go valid %d, want 2", g.Valid)
	}
	runsG := phase(g, pipeline.TimeRuns)
	if runsG.Pieces != 3 || runsG.WallS != 8 || runsG.CPUS != 4 || runsG.CPUUnmeasured != 1 {
		t.Errorf("o/go runs %+v, want 3 pieces, 8 s wall, 4 s CPU, 1 unmeasured", runsG)
	}
	near("o/go runs wall per valid", runsG.WallPerValid, 4)
	near("o/go runs CPU per valid", runsG.CPUPerValid, 2)
	near("o/go repo image CPU per valid", phase(g, pipeline.TimeRepoImage).CPUPerValid, 3)
	near("o/go total wall per valid", g.Total.WallPerValid, (2+10+1+1+3+3+2)/2.0)
	if env := phase(g, pipeline.TimeEnvCheck); env.Pieces != 0 || env.WallPerValid != nil || env.CPUPerValid != nil {
		t.Errorf("o/go env check was never recorded, got %+v", env)
	}
	// No valid task: the sums, and no figure per valid task.
	p := tm.Repos[1]
	if p.Valid != 0 || phase(p, pipeline.TimeRuns).WallS != 5 || p.Total.CPUS != 7 {
		t.Errorf("o/py: %+v", p)
	}
	for _, ph := range append(p.Phases, p.Total) {
		if ph.WallPerValid != nil || ph.CPUPerValid != nil {
			t.Errorf("o/py %s: per valid %v %v with 0 valid tasks", ph.Phase, deref(ph.WallPerValid), deref(ph.CPUPerValid))
		}
	}
	// Per language: the mine of o/py counts as Python (its tasks' language).
	if len(tm.Languages) != 2 || tm.Languages[0].Name != "go" || tm.Languages[1].Name != "python" {
		t.Fatalf("languages: %+v", tm.Languages)
	}
	if py := tm.Languages[1]; phase(py, pipeline.TimeMine).WallS != 4 || py.Valid != 0 {
		t.Errorf("python: %+v", py)
	}
	if tm.Total.Valid != 2 || tm.Total.Total.WallS != 2+10+1+1+3+3+2+4+5 {
		t.Errorf("total: valid %d, wall %g", tm.Total.Valid, tm.Total.Total.WallS)
	}
	near("total CPU per valid", tm.Total.Total.CPUPerValid, (1+6+0.5+0.5+2+2+3+4)/2.0)
	// One repository: the other's times are left out.
	if one := ComputeTiming(tasks, runs, times, "o/py"); len(one.Repos) != 1 || one.Total.Total.WallS != 9 {
		t.Errorf("--repo o/py: %+v", one.Total)
	}
}

func deref(f *float64) any {
	if f == nil {
		return nil
	}
	return *f
}
