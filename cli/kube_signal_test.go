package cli

import (
	"context"
	"encoding/json"
	"strings"
	"syscall"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"curate/internal/testenv"
	"curate/pipeline"
	"curate/pipeline/validate/kube/kubetest"
)

// ctrl+c (SIGINT) of `curate validate --engine kubernetes` mid-run: the
// run ends cancelled, its Job is deleted (foreground) before curate
// exits, and nothing is left in the namespace.
func TestKubeInterruptCancelsRun(t *testing.T) {
	c := kubetest.Require(t)
	img := testenv.BusyboxImage(t)
	root := kubeWorkspace(t, c)
	slow := copyFixture(t, root, "bb-slow", img)

	cmd := startCLI(t, "-w", root, "validate", slow, "--mode", "nop", "--engine", "kubernetes")
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	waitRunningPods(t, c, cmd, done, 1)
	cmd.Process.Signal(syscall.SIGINT)
	select {
	case <-done:
	case <-time.After(2 * time.Minute):
		cmd.Process.Kill()
		t.Fatal("curate did not end within 2 minutes of SIGINT")
	}
	if left := c.Leftovers(t); len(left) > 0 {
		t.Errorf("left in the namespace when curate exited: %v", left)
	}
	_, out, _ := cli(t, "-w", root, "runs", "--json")
	var runs []pipeline.Run
	if err := json.Unmarshal([]byte(out), &runs); err != nil {
		t.Fatal(err)
	}
	if len(runs) != 1 || runs[0].Outcome != pipeline.OutcomeCancelled {
		t.Errorf("runs after SIGINT: %s, want one cancelled", out)
	}
}

// A ResourceQuota admitting one pod while parallelism is 2: the second run
// waits for the cluster - `curate validate` prints the run waiting and
// why - then runs; both end ok and nothing is left.
func TestKubeQuotaWaitShownByValidate(t *testing.T) {
	c := kubetest.Require(t)
	img := testenv.BusyboxImage(t)
	root := kubeWorkspace(t, c)
	q := &corev1.ResourceQuota{ObjectMeta: metav1.ObjectMeta{Name: "one-pod"},
		Spec: corev1.ResourceQuotaSpec{Hard: corev1.ResourceList{corev1.ResourcePods: resource.MustParse("1")}}}
	if _, err := c.CS.CoreV1().ResourceQuotas(c.Namespace).Create(context.Background(), q, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	valid := copyFixture(t, root, "bb-valid", img)
	code, out, errs := cli(t, "-w", root, "validate", valid, "--mode", "nop,oracle", "--engine", "kubernetes")
	if code != 0 {
		t.Errorf("exit %d", code)
	}
	if !strings.Contains(out, "waiting for the cluster: FailedCreate") || !strings.Contains(out, "exceeded quota: one-pod") {
		t.Errorf("no run said it waited for the quota:\n%s\n%s", out, errs)
	}
	if !strings.Contains(out, "2 run(s): 2 ok, 0 not ok") {
		t.Errorf("want both runs ok after waiting:\n%s\n%s", out, errs)
	}
	if left := c.Leftovers(t); len(left) > 0 {
		t.Errorf("left in the namespace: %v", left)
	}
}
