package kube_test

import (
	"context"
	"crypto/rand"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"curate/internal/testenv"
	"curate/pipeline"
	"curate/pipeline/validate"
	"curate/pipeline/validate/kube"
	"curate/pipeline/validate/kube/kubetest"
	"curate/pipeline/validate/logstream"
)

// These tests run on a real cluster (.ci/start-kube.sh); no fake client
// stands in for it.

// task copies ../testdata/tasks/name into a temp dir, FROM the busybox image.
func task(t testing.TB, name, from string) string {
	t.Helper()
	src := filepath.Join("..", "testdata", "tasks", name)
	dst := filepath.Join(t.TempDir(), name)
	err := filepath.Walk(src, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if fi.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		data = []byte(strings.ReplaceAll(string(data), "FROM BUSYBOX", "FROM "+from))
		return os.WriteFile(filepath.Join(dst, rel), data, fi.Mode())
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

var seq atomic.Int64

type setup struct {
	cluster *kubetest.Cluster
	docker  *validate.DockerRunner
	kube    *kube.Runner
	busybox string
}

func start(t testing.TB) *setup {
	t.Helper()
	c := kubetest.Require(t)
	busybox := testenv.BusyboxImage(t)
	ws := fmt.Sprintf("kube-test-%s-%d", t.Name(), os.Getpid())
	d, err := validate.NewDockerRunner("", ws)
	if err != nil {
		t.Fatal(err)
	}
	k, err := kube.Open(kube.Config{Kubeconfig: c.Kubeconfig, Namespace: c.Namespace, Registry: c.Registry}, d, ws)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if left := c.Leftovers(t); len(left) > 0 {
			t.Errorf("left in namespace %s: %v", c.Namespace, left)
		}
		d.Prune(context.Background(), false)
		d.Close()
	})
	return &setup{cluster: c, docker: d, kube: k, busybox: busybox}
}

func validator(t *testing.T, r validate.Runner) *validate.Validator {
	return &validate.Validator{
		Runners: []validate.Runner{r}, Concurrency: 2, Runs: 1, LogDir: t.TempDir(),
		NewID: func() string { return fmt.Sprintf("t%d-%d", os.Getpid(), seq.Add(1)) },
	}
}

func logOf(t *testing.T, r *pipeline.Run) string {
	t.Helper()
	data, err := os.ReadFile(r.LogPath)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// verdict is what must agree between engines.
type verdict struct {
	Outcome    pipeline.Outcome
	Reward     string
	FailToPass []string
	PassToPass []string
}

func verdictOf(r *pipeline.Run) verdict {
	v := verdict{Outcome: r.Outcome, FailToPass: r.FailToPass, PassToPass: r.PassToPass}
	if r.Reward != nil {
		v.Reward = fmt.Sprint(*r.Reward)
	}
	return v
}

func TestVerdictsMatchDocker(t *testing.T) {
	s := start(t)
	var jobs []validate.Job
	for _, name := range []string{"bb-valid", "bb-nop-passed", "bb-oracle-failed"} {
		dir := task(t, name, s.busybox)
		for _, mode := range []string{"nop", "oracle", "gold"} {
			jobs = append(jobs, validate.Job{TaskID: name, TaskDir: dir, Mode: mode})
		}
	}
	onDocker := validator(t, s.docker).Validate(context.Background(), jobs)
	onKube := validator(t, s.kube).Validate(context.Background(), jobs)
	for i, j := range jobs {
		d, k := verdictOf(onDocker[i]), verdictOf(onKube[i])
		if !reflect.DeepEqual(d, k) {
			t.Errorf("%s %s: docker %+v, kubernetes %+v\nkubernetes log:\n%s", j.TaskID, j.Mode, d, k, logOf(t, onKube[i]))
		}
	}
	// bb-valid is valid on both: the runs really ran.
	if onKube[0].Outcome != pipeline.OutcomeOK || onKube[1].Outcome != pipeline.OutcomeOK {
		t.Errorf("bb-valid on kubernetes: nop %s, oracle %s", onKube[0].Outcome, onKube[1].Outcome)
	}
	if !strings.Contains(logOf(t, onKube[1]), kube.TimingPrefix+" create=") {
		t.Errorf("the oracle run's log lacks where its time went:\n%s", logOf(t, onKube[1]))
	}
	if !strings.Contains(logOf(t, onKube[1]), "ok 2 - value is fixed") {
		t.Errorf("the oracle run's log lacks the test output:\n%s", logOf(t, onKube[1]))
	}
}

func TestBigTestFileAndPush(t *testing.T) {
	s := start(t)
	dir := task(t, "bb-valid", s.busybox)
	big := make([]byte, 30<<20)
	rand.Read(big)
	if err := os.WriteFile(filepath.Join(dir, "tests", "big.bin"), big, 0o644); err != nil {
		t.Fatal(err)
	}
	script := "#!/bin/bash\nmkdir -p /logs/verifier\n" +
		fmt.Sprintf("if [ \"$(wc -c < /tests/big.bin)\" = %d ]; then echo 1; else echo 0; fi > /logs/verifier/reward.txt\n", len(big))
	if err := os.WriteFile(filepath.Join(dir, "tests", "test.sh"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	local, _, err := s.docker.Image(context.Background(), dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	ref, sent, err := s.kube.Push(context.Background(), local, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(ref, s.cluster.Registry+"/") || !strings.Contains(ref, "@sha256:") {
		t.Errorf("reference %q: want one by digest in %s", ref, s.cluster.Registry)
	}
	t.Logf("pushed %s: %d bytes sent", ref, sent)
	run := validator(t, s.kube).Validate(context.Background(), []validate.Job{{TaskID: "big", TaskDir: dir, Mode: "oracle"}})[0]
	if run.Outcome != pipeline.OutcomeOK {
		t.Fatalf("30 MB test file: %s %s\n%s", run.Outcome, run.Detail, logOf(t, run))
	}
}

// Cancel mid-run: bb-slow's tests print a line, then sleep for minutes;
// the cancel deletes the Job (the namespace is checked empty at cleanup).
func TestCancelMidRun(t *testing.T) {
	s := start(t)
	dir := task(t, "bb-slow", s.busybox)
	v := validator(t, s.kube)
	var started atomic.Bool
	v.OnStart = func(r *pipeline.Run, b *logstream.Broadcaster) { watchFor(b, "running a long suite", &started) }
	v.CancelRequested = func(string) bool { return started.Load() }
	run := v.Validate(context.Background(), []validate.Job{{TaskID: "slow", TaskDir: dir, Mode: "nop"}})[0]
	if run.Outcome != pipeline.OutcomeCancelled {
		t.Fatalf("outcome %s (%s), want cancelled\n%s", run.Outcome, run.Detail, logOf(t, run))
	}
}

// A pod deleted mid-run is lost, not the task's failure: the run is
// retried once in a new pod and ends with the task's own verdict.
func TestDeletedPodIsRetried(t *testing.T) {
	s := start(t)
	dir := task(t, "bb-valid", s.busybox)
	script := "#!/bin/bash\nmkdir -p /logs/verifier\necho suite-started\nsleep 6\necho 1 > /logs/verifier/reward.txt\n"
	if err := os.WriteFile(filepath.Join(dir, "tests", "test.sh"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	v := validator(t, s.kube)
	var started atomic.Bool
	var once sync.Once
	v.OnStart = func(r *pipeline.Run, b *logstream.Broadcaster) { watchFor(b, "suite-started", &started) }
	done := make(chan struct{})
	go func() {
		defer close(done)
		for !started.Load() {
			time.Sleep(100 * time.Millisecond)
		}
		once.Do(func() {
			pods, err := s.cluster.CS.CoreV1().Pods(s.cluster.Namespace).List(context.Background(), metav1.ListOptions{})
			if err != nil || len(pods.Items) == 0 {
				t.Errorf("no pod to delete: %v", err)
				return
			}
			if err := s.cluster.CS.CoreV1().Pods(s.cluster.Namespace).Delete(context.Background(), pods.Items[0].Name, metav1.DeleteOptions{}); err != nil {
				t.Errorf("delete pod: %v", err)
			}
		})
	}()
	run := v.Validate(context.Background(), []validate.Job{{TaskID: "deleted", TaskDir: dir, Mode: "oracle"}})[0]
	<-done
	log := logOf(t, run)
	if run.Outcome != pipeline.OutcomeOK || !strings.Contains(log, "retried once in a new pod") {
		t.Fatalf("outcome %s (%s), want ok after one retry\n%s", run.Outcome, run.Detail, log)
	}
}

// watchFor sets flag once a line containing s appears in the log.
func watchFor(b *logstream.Broadcaster, s string, flag *atomic.Bool) {
	sub := b.Subscribe(0)
	go func() {
		for {
			lines, _, ok := sub.Next()
			if !ok {
				return
			}
			for _, l := range lines {
				if strings.Contains(l, s) {
					flag.Store(true)
				}
			}
		}
	}()
}

// A ResourceQuota that admits one pod at a time makes the second run wait
// for the cluster (said in its log), not fail.
func TestQuotaRefusalWaits(t *testing.T) {
	s := start(t)
	q := &corev1.ResourceQuota{ObjectMeta: metav1.ObjectMeta{Name: "one-pod"},
		Spec: corev1.ResourceQuotaSpec{Hard: corev1.ResourceList{corev1.ResourcePods: resource.MustParse("1")}}}
	if _, err := s.cluster.CS.CoreV1().ResourceQuotas(s.cluster.Namespace).Create(context.Background(), q, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	dir := task(t, "bb-valid", s.busybox)
	// Each pod holds its place for a while, so the two runs overlap however
	// the machine's load spaces their starts (under load 8-17 the first pod
	// once finished before the second was made, and nothing waited).
	solve := filepath.Join(dir, "solution", "solve.sh")
	if err := os.WriteFile(solve, []byte("#!/bin/bash\necho fixed > /app/value\nsleep 20\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	v := validator(t, s.kube)
	var mu sync.Mutex
	heard := map[string][]string{} // run id -> what OnWait heard, in order
	v.OnWait = func(id, why string) {
		mu.Lock()
		heard[id] = append(heard[id], why)
		mu.Unlock()
	}
	runs := v.Validate(context.Background(), []validate.Job{
		{TaskID: "a", TaskDir: dir, Mode: "oracle"}, {TaskID: "b", TaskDir: dir, Mode: "oracle"}})
	waited := 0
	for _, r := range runs {
		if r.Outcome != pipeline.OutcomeOK {
			t.Errorf("%s: %s (%s)\n%s", r.TaskID, r.Outcome, r.Detail, logOf(t, r))
		}
		if log := logOf(t, r); strings.Contains(log, "curate: waiting for the cluster:") {
			waited++
			t.Logf("%s waited:\n%s", r.TaskID, log)
		}
	}
	// The jobs lists hear it too: a reason, then "" once the pod runs.
	mu.Lock()
	defer mu.Unlock()
	told := 0
	for id, whys := range heard {
		if len(whys) < 2 || whys[0] == "" || whys[len(whys)-1] != "" {
			t.Errorf("%s: OnWait heard %q, want reasons then \"\"", id, whys)
		}
		told++
	}
	if told == 0 {
		t.Error("OnWait heard of no waiting run")
	}
	if waited == 0 {
		t.Errorf("no run said it waited for the cluster:\n%s\n%s", logOf(t, runs[0]), logOf(t, runs[1]))
	}
}
