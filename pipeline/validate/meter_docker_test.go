package validate_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"curate/internal/testenv"
	"curate/pipeline"
	. "curate/pipeline/validate"
)

// burn is a shell loop that keeps one CPU busy for about a second.
const burn = `end=$(( $(date +%s) + 2 )); while [ $(date +%s) -lt $end ]; do :; done`

// A run's image build and its container are metered: wall from the
// engine's answers, CPU from the cgroup the engine accounts them in,
// so a step that burns a CPU for a second or two shows that second,
// and no more CPU than its cap and wall allow.
func TestRunAndBuildAreMetered(t *testing.T) {
	img := testenv.BusyboxImage(t)
	v, r := testValidator(t)
	ctx := context.Background()
	info, err := r.Client().Info(ctx)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "bb-burn")
	files := map[string]string{
		"task.toml":              "schema_version = \"1.0\"\n[task]\nname = \"fixtures/bb-burn\"\n[verifier]\ntimeout_sec = 60\n[environment]\ncpus = 1\nmemory_mb = 128\n",
		"instruction.md":         "burn\n",
		"environment/Dockerfile": "FROM " + img + "\nRUN " + burn + "\n",
		"tests/test.sh":          "#!/bin/bash\n" + burn + "\nmkdir -p /logs/verifier; echo 0 > /logs/verifier/reward.txt\n",
	}
	for name, body := range files {
		os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755)
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	var mu sync.Mutex
	var times []pipeline.PhaseTime
	v.Measured = func(_ context.Context, ts []pipeline.PhaseTime) {
		mu.Lock()
		times = append(times, ts...)
		mu.Unlock()
	}
	run := validateOne(t, v, dir, ModeNop)
	if run.Outcome != pipeline.OutcomeOK {
		t.Fatalf("%s %s\n%s", run.Outcome, run.Detail, logOf(t, run))
	}
	cpuHere := info.CgroupDriver == "cgroupfs" && strings.HasPrefix(r.Host(), "unix://")
	got := map[string]pipeline.PhaseTime{}
	for _, p := range times {
		if p.RunID != run.ID || p.TaskID != "bb-burn" {
			t.Errorf("%s time of run %q task %q, want run %s", p.Phase, p.RunID, p.TaskID, run.ID)
		}
		got[p.Phase] = p
	}
	for _, phase := range []string{pipeline.TimeTaskLayer, pipeline.TimeRuns} {
		p, ok := got[phase]
		switch {
		case !ok:
			t.Errorf("no %s time in %+v", phase, times)
		case p.Wall < time.Second:
			t.Errorf("%s: wall %s, want the burn's second or more", phase, p.Wall)
		case p.CPUMeasured != cpuHere:
			t.Errorf("%s: CPU measured %v on a %s engine", phase, p.CPUMeasured, info.CgroupDriver)
		case cpuHere && (p.CPU < 500*time.Millisecond || p.CPU > p.Wall+100*time.Millisecond):
			t.Errorf("%s: CPU %s for a wall of %s at 1 CPU, want about a second", phase, p.CPU, p.Wall)
		}
		t.Logf("%s: wall %s, CPU %s (measured %v)", phase, p.Wall, p.CPU, p.CPUMeasured)
	}
}
