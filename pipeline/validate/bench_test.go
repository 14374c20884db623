package validate_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"curate/internal/testenv"
	"curate/pipeline"
	. "curate/pipeline/validate"
	"curate/pipeline/validate/logstream"
)

// BenchmarkRunnerOverhead compares a NOP validation of the Python fixture
// task (pytest in a container) with a plain `docker run` of the same test
// command, measured alternately in the same run; the metric
// runner/docker-run is the ratio of their mean times.
func BenchmarkRunnerOverhead(b *testing.B) {
	base := testenv.BaseImage(b)
	v, r := testValidator(b)
	v.Concurrency = 1
	dir := fixtureTask(b, "py-valid", base)
	ctx := context.Background()
	image, _, err := r.Image(ctx, dir, nil)
	if err != nil {
		b.Fatal(err)
	}
	tests, _ := filepath.Abs(filepath.Join(dir, "tests"))
	plain := func() {
		cmd := exec.Command("docker", "run", "--rm", "--network", "none", "-v", tests+":/tests:ro", image,
			"/bin/sh", "-c", "mkdir -p /logs/verifier; bash /tests/test.sh > /logs/verifier/test-stdout.txt 2>&1; cat /logs/verifier/reward.txt")
		if out, err := cmd.CombinedOutput(); err != nil || string(out) != "0\n" {
			b.Fatalf("docker run: %v %q", err, out)
		}
	}
	runner := func() {
		run := validateOne(b, v, dir, ModeNop)
		if run.Outcome != pipeline.OutcomeOK {
			b.Fatalf("runner: %s %s", run.Outcome, run.Detail)
		}
	}
	plain() // warm both paths
	runner()
	var tPlain, tRunner time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		plain()
		t1 := time.Now()
		runner()
		tRunner += time.Since(t1)
		tPlain += t1.Sub(t0)
	}
	b.ReportMetric(float64(tRunner.Milliseconds())/float64(b.N), "runner-ms/op")
	b.ReportMetric(float64(tPlain.Milliseconds())/float64(b.N), "docker-run-ms/op")
	b.ReportMetric(float64(tRunner)/float64(tPlain), "runner/docker-run")
}

// BenchmarkUnchangedEnvImage: once an environment is built, validating the
// task again finds its image by tag and builds nothing.
func BenchmarkUnchangedEnvImage(b *testing.B) {
	img := testenv.BusyboxImage(b)
	_, r := testValidator(b)
	dir := fixtureTask(b, "bb-valid", img)
	ctx := context.Background()
	if _, _, err := r.Image(ctx, dir, nil); err != nil {
		b.Fatal(err)
	}
	builds := 0
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		_, built, err := r.Image(ctx, dir, nil)
		if err != nil {
			b.Fatal(err)
		}
		if built {
			builds++
		}
	}
	b.ReportMetric(float64(builds)/float64(b.N), "builds/op")
}

// BenchmarkGigabyteLog runs a test.sh that prints 1 GiB of 100-byte lines,
// with one subscriber that never reads and one that reads everything, and
// reports the peak Go heap while it runs.
func BenchmarkGigabyteLog(b *testing.B) {
	img := testenv.BusyboxImage(b)
	v, _ := testValidator(b)
	dir := fixtureTask(b, "bb-valid", img)
	os.WriteFile(filepath.Join(dir, "tests", "test.sh"), []byte(`#!/bin/bash
echo 0 > /logs/verifier/reward.txt
yes "$(printf '%099d' 7)" | head -c 1073741824
`), 0o755)
	v.Timeout = 10 * time.Minute
	var seen atomic.Int64
	v.OnStart = func(_ *pipeline.Run, log *logstream.Broadcaster) {
		log.Subscribe(256) // never read: must not block nor grow
		fast := log.Subscribe(0)
		go func() {
			for {
				lines, dropped, ok := fast.Next()
				if !ok {
					return
				}
				seen.Add(int64(len(lines) + dropped))
			}
		}()
	}
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	var peak atomic.Uint64
	stop := make(chan struct{})
	go func() {
		var m runtime.MemStats
		for {
			select {
			case <-stop:
				return
			case <-time.After(20 * time.Millisecond):
				runtime.ReadMemStats(&m)
				if m.HeapAlloc > peak.Load() {
					peak.Store(m.HeapAlloc)
				}
			}
		}
	}()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		run := validateOne(b, v, dir, ModeNop)
		if run.Outcome != pipeline.OutcomeOK {
			b.Fatalf("%s: %s", run.Outcome, run.Detail)
		}
		fi, _ := os.Stat(run.LogPath)
		if fi.Size() < 1<<30 {
			b.Fatalf("log file has %d bytes, want >= 1 GiB", fi.Size())
		}
		os.Remove(run.LogPath)
	}
	b.StopTimer()
	close(stop)
	b.SetBytes(1 << 30)
	b.ReportMetric(float64(peak.Load())/(1<<20), "peak-heap-MiB")
	b.ReportMetric(float64(before.HeapAlloc)/(1<<20), "start-heap-MiB")
	b.ReportMetric(float64(seen.Load())/float64(b.N), "lines/op")
}
