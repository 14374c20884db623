package kube_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"curate/pipeline"
	"curate/pipeline/validate"
	"curate/pipeline/validate/kube"
)

// A task asking more than the workspace's caps ([docker] max_memory,
// max_cpus) gets the caps in its pod: the container's own cgroup shows
// the capped memory limit and CPU quota, and the log says what was
// lowered. A task value never lifts a workspace cap.
func TestCapsClampPodLimits(t *testing.T) {
	s := start(t)
	k, err := kube.Open(kube.Config{Kubeconfig: s.cluster.Kubeconfig, Namespace: s.cluster.Namespace, Registry: s.cluster.Registry,
		Caps: validate.Caps{MemoryMB: 300, CPUs: 0.5}}, s.docker, "caps-"+t.Name())
	if err != nil {
		t.Fatal(err)
	}
	dir := task(t, "bb-valid", s.busybox)
	toml := "schema_version = \"1.0\"\n[task]\nname = \"fixtures/caps\"\n[verifier]\ntimeout_sec = 60\n[environment]\ncpus = 4\nmemory_mb = 4096\n"
	if err := os.WriteFile(filepath.Join(dir, "task.toml"), []byte(toml), 0o644); err != nil {
		t.Fatal(err)
	}
	// cgroup v1 (this CI host) or v2, whichever the node has.
	script := "#!/bin/bash\nmkdir -p /logs/verifier\n" +
		"echo mem=$(cat /sys/fs/cgroup/memory/memory.limit_in_bytes 2>/dev/null || cat /sys/fs/cgroup/memory.max)\n" +
		"echo cpu=$(cat /sys/fs/cgroup/cpu/cpu.cfs_quota_us 2>/dev/null || cut -d' ' -f1 /sys/fs/cgroup/cpu.max)\n" +
		"echo 1 > /logs/verifier/reward.txt\n"
	if err := os.WriteFile(filepath.Join(dir, "tests", "test.sh"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	run := validator(t, k).Validate(context.Background(), []validate.Job{{TaskID: "caps", TaskDir: dir, Mode: "nop"}})[0]
	log := logOf(t, run)
	for _, want := range []string{
		"mem=314572800", // 300 MiB
		"cpu=50000",     // half a CPU per 100 ms period
		"curate: cap: task.toml memory_mb = 4096 MB is over max_memory; the container gets 300 MB",
		"curate: cap: task.toml cpus = 4 is over max_cpus; the container gets 0.5",
	} {
		if !strings.Contains(log, want) {
			t.Errorf("log lacks %q:\n%s", want, log)
		}
	}
	if run.Outcome != pipeline.OutcomeNopPassed {
		t.Errorf("outcome %s (%s), want nop_passed (reward 1 before the fix)", run.Outcome, run.Detail)
	}
}

// At most Concurrency (the engine's parallelism) Jobs are in flight: the
// namespace is watched while six runs go two at a time.
func TestParallelismBoundsJobs(t *testing.T) {
	s := start(t)
	dir := task(t, "bb-valid", s.busybox)
	var jobs []validate.Job
	for _, id := range []string{"a", "b", "c"} {
		jobs = append(jobs, validate.Job{TaskID: id, TaskDir: dir, Mode: "nop"}, validate.Job{TaskID: id, TaskDir: dir, Mode: "oracle"})
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	most := 0
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case <-stop:
				return
			case <-time.After(100 * time.Millisecond):
			}
			l, err := s.cluster.CS.BatchV1().Jobs(s.cluster.Namespace).List(context.Background(), metav1.ListOptions{})
			if err == nil {
				most = max(most, len(l.Items))
			}
		}
	}()
	v := validator(t, s.kube) // two at a time
	runs := v.Validate(context.Background(), jobs)
	close(stop)
	wg.Wait()
	for _, r := range runs {
		want := pipeline.OutcomeOK
		if r.Outcome != want {
			t.Errorf("%s %s: %s (%s)", r.TaskID, r.Mode, r.Outcome, r.Detail)
		}
	}
	if most == 0 || most > v.Concurrency {
		t.Errorf("at most %d Jobs at once seen, want 1..%d", most, v.Concurrency)
	}
	t.Logf("at most %d Jobs in flight (parallelism %d)", most, v.Concurrency)
}
