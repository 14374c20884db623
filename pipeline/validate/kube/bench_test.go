package kube_test

import (
	"context"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"curate/pipeline"
	"curate/pipeline/validate"
	"curate/pipeline/validate/kube"
)

// BenchmarkFortyRuns: the same 40 runs (20 small tasks, nop and oracle,
// two at a time) on the local Docker engine and through the cluster; the
// wall-time ratio, and where a cluster run's time goes per step, from the
// timing line each run's log ends with. Run it with -benchtime=1x (one
// round is about two minutes on the CI cluster); results are in
// docs/dev/performance.md.
func BenchmarkFortyRuns(b *testing.B) {
	s := start(b)
	dir := task(b, "bb-valid", s.busybox)
	var jobs []validate.Job
	for i := 0; i < 20; i++ {
		id := fmt.Sprintf("t%02d", i)
		jobs = append(jobs, validate.Job{TaskID: id, TaskDir: dir, Mode: "nop"}, validate.Job{TaskID: id, TaskDir: dir, Mode: "oracle"})
	}
	// The image is built and pushed once before the clock starts (env
	// push does it ahead of a batch); the push is measured on its own.
	local, _, err := s.docker.Image(context.Background(), dir, nil)
	if err != nil {
		b.Fatal(err)
	}
	t0 := time.Now()
	_, sent, err := s.kube.Push(context.Background(), local, nil)
	if err != nil {
		b.Fatal(err)
	}
	push := time.Since(t0)
	b.ResetTimer()
	for n := 0; n < b.N; n++ {
		v := &validate.Validator{Runners: []validate.Runner{s.docker}, Concurrency: 2, Runs: 1, LogDir: b.TempDir(), NewID: newID}
		t0 := time.Now()
		onDocker := v.Validate(context.Background(), jobs)
		dockerWall := time.Since(t0)
		v = &validate.Validator{Runners: []validate.Runner{s.kube}, Concurrency: 2, Runs: 1, LogDir: b.TempDir(), NewID: newID}
		t0 = time.Now()
		onKube := v.Validate(context.Background(), jobs)
		kubeWall := time.Since(t0)
		steps := map[string][]float64{}
		for i := range jobs {
			if onDocker[i].Outcome != pipeline.OutcomeOK || onKube[i].Outcome != pipeline.OutcomeOK {
				b.Fatalf("%s %s: docker %s, kubernetes %s (%s)", jobs[i].TaskID, jobs[i].Mode, onDocker[i].Outcome, onKube[i].Outcome, onKube[i].Detail)
			}
			data, err := os.ReadFile(onKube[i].LogPath)
			if err != nil {
				b.Fatal(err)
			}
			for _, l := range strings.Split(string(data), "\n") {
				if rest, ok := strings.CutPrefix(l, kube.TimingPrefix); ok {
					for _, f := range strings.Fields(rest) {
						k, v, _ := strings.Cut(f, "=")
						x, _ := strconv.ParseFloat(v, 64)
						steps[k] = append(steps[k], x)
					}
				}
			}
		}
		b.ReportMetric(dockerWall.Seconds(), "docker-s")
		b.ReportMetric(kubeWall.Seconds(), "kube-s")
		b.ReportMetric(kubeWall.Seconds()/dockerWall.Seconds(), "ratio")
		var names []string
		for k := range steps {
			names = append(names, k)
		}
		sort.Strings(names)
		line := fmt.Sprintf("push %.2fs (%d bytes sent); per cluster run, mean (max):", push.Seconds(), sent)
		for _, k := range names {
			sum, most := 0.0, 0.0
			for _, x := range steps[k] {
				sum += x
				most = max(most, x)
			}
			mean := sum / float64(len(steps[k]))
			b.ReportMetric(mean, k+"-s/run")
			line += fmt.Sprintf(" %s %.2f (%.2f)", k, mean, most)
		}
		b.Logf("40 runs: docker %.1fs, kubernetes %.1fs (x%.2f); %s", dockerWall.Seconds(), kubeWall.Seconds(), kubeWall.Seconds()/dockerWall.Seconds(), line)
	}
}

func newID() string { return fmt.Sprintf("b%d-%d", os.Getpid(), seq.Add(1)) }
