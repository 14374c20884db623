package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"curate/pipeline/stats"
)

// BenchmarkYield20PRs is the yield run of 20 PRs of one repository
// (CURATE_YIELD_REPO, default spf13/cobra; CURATE_YIELD_LIMIT=N runs the
// newest N instead of 20): mine, build with the defaults,
// validate nop,oracle,gold. It reports the run's wall time and the
// machine's CPU time (every process, containers included, from
// /proc/stat) per valid task, and the same split by phase as the
// workspace recorded it (funnel --timing: PHASE-wall-s/valid and
// PHASE-machine-cpu-s/valid, for mine, repo_image, task_layer, runs, total). Run it alone, on an idle machine:
//
//	go test ./e2e -run '^$' -bench Yield20PRs -benchtime 1x -timeout 2h
func BenchmarkYield20PRs(b *testing.B) {
	root, bundles := requireBundles(b)
	defaultBase(b)
	repo := os.Getenv("CURATE_YIELD_REPO")
	if repo == "" {
		repo = "spf13/cobra"
	}
	if bundles[repo] == "" {
		b.Fatalf("no bundle of %s in ../shared/repos", repo)
	}
	bin := curateBinary(b, root)
	ctx := context.Background()
	var wall, cpu time.Duration
	valid := 0
	phases := map[string]*stats.PhaseTiming{}
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		c := &Curate{Bin: bin, Workspace: filepath.Join(b.TempDir(), "ws")}
		if out, err := exec.Command(bin, "init", c.Workspace).CombinedOutput(); err != nil {
			b.Fatalf("curate init: %v\n%s", err, out)
		}
		clone := filepath.Join(b.TempDir(), "clone")
		if err := CloneBundle(ctx, bundles[repo], repo, clone); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		start, cpu0 := time.Now(), machineCPU()
		ids, err := MineQualifying(ctx, c, clone, benchPRs(b))
		if err != nil {
			b.Fatal(err)
		}
		y, err := RunYield(ctx, c, repo, ids)
		if err != nil {
			b.Fatal(err)
		}
		wall += time.Since(start)
		cpu += machineCPU() - cpu0
		valid += y.Funnel.Valid
		b.StopTimer()
		b.Logf("%s\n%s", TableHeader, y.Row())
		if err := addPhaseTimes(ctx, c, repo, phases); err != nil {
			b.Fatal(err)
		}
		c.Run(ctx, "env", "prune") // the next iteration builds its images again
	}
	b.ReportMetric(float64(benchPRs(b)), "PRs/run")
	b.ReportMetric(wall.Seconds()/float64(b.N), "wall-s/run")
	b.ReportMetric(float64(valid)/float64(b.N), "valid/run")
	if valid > 0 {
		b.ReportMetric(cpu.Seconds()/float64(valid), "machine-cpu-s/valid")
		b.ReportMetric(wall.Seconds()/float64(valid), "wall-s/valid")
		// The split the workspace recorded (funnel --timing): each
		// phase's containers and builds, not the whole machine's.
		for phase, p := range phases {
			b.ReportMetric(p.WallS/float64(valid), phase+"-wall-s/valid")
			if p.CPUKnown() {
				b.ReportMetric(p.CPUS/float64(valid), phase+"-machine-cpu-s/valid")
			}
		}
	}
}

// addPhaseTimes adds repo's recorded machine time per phase (funnel
// --timing) to phases.
func addPhaseTimes(ctx context.Context, c *Curate, repo string, phases map[string]*stats.PhaseTiming) error {
	out, err := c.Run(ctx, "funnel", "--timing", "--json", "--repo", repo)
	if err != nil {
		return err
	}
	var f stats.Funnel
	if err := json.Unmarshal(out, &f); err != nil || f.Timing == nil {
		return fmt.Errorf("funnel --timing --json: %v\n%s", err, out)
	}
	for _, p := range append(f.Timing.Total.Phases, f.Timing.Total.Total) {
		sum := phases[p.Phase]
		if sum == nil {
			sum = &stats.PhaseTiming{Phase: p.Phase}
			phases[p.Phase] = sum
		}
		if p.Pieces == 0 {
			continue // nothing recorded: no figure rather than a zero
		}
		sum.Pieces += p.Pieces
		sum.WallS += p.WallS
		sum.CPUS += p.CPUS
		sum.CPUUnmeasured += p.CPUUnmeasured
	}
	return nil
}

// machineCPU is the CPU time every process of the machine has used so far
// (user, nice, system, irq, softirq, steal from /proc/stat's cpu line);
// 0 where /proc/stat is missing.
func machineCPU() time.Duration {
	data, err := os.ReadFile("/proc/stat")
	if err != nil {
		return 0
	}
	line, _, _ := strings.Cut(string(data), "\n")
	f := strings.Fields(line)
	if len(f) < 9 || f[0] != "cpu" {
		return 0
	}
	var ticks int64
	for _, i := range []int{1, 2, 3, 6, 7, 8} {
		n, _ := strconv.ParseInt(f[i], 10, 64)
		ticks += n
	}
	return time.Duration(ticks) * (time.Second / 100) // USER_HZ is 100 on Linux
}

// benchPRs is how many PRs one run takes: 20, or CURATE_YIELD_LIMIT.
func benchPRs(b *testing.B) int {
	if v := os.Getenv("CURATE_YIELD_LIMIT"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			b.Fatalf("CURATE_YIELD_LIMIT=%q: want a positive number", v)
		}
		return n
	}
	return MinPRs
}
