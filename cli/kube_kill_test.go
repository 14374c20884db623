package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"curate/internal/testenv"
	"curate/pipeline"
	"curate/pipeline/validate/kube/kubetest"
)

// kubeWorkspace is a workspace whose [kubernetes] section points at the
// test's namespace on the real cluster.
func kubeWorkspace(t *testing.T, c *kubetest.Cluster) string {
	t.Helper()
	root := newDockerWorkspace(t)
	appendKubeConfig(t, root, c)
	return root
}

// appendKubeConfig points the workspace at root to the test's namespace.
func appendKubeConfig(t *testing.T, root string, c *kubetest.Cluster) {
	t.Helper()
	f, err := os.OpenFile(filepath.Join(root, "curate.toml"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(f, "\n[kubernetes]\nkubeconfig = %q\nnamespace = %q\nregistry = %q\nparallelism = 2\n", c.Kubeconfig, c.Namespace, c.Registry)
	f.Close()
}

// kill -9 of `curate validate --engine kubernetes` mid-batch, then any
// command (`curate runs`) marks the killed runs interrupted and deletes
// their Jobs; a rerun validates and leaves nothing in the namespace.
func TestKubeKilledMidBatchThenRerun(t *testing.T) {
	c := kubetest.Require(t)
	img := testenv.BusyboxImage(t)
	root := kubeWorkspace(t, c)
	slow := copyFixture(t, root, "bb-slow", img)
	valid := copyFixture(t, root, "bb-valid", img)

	cmd := startCLI(t, "-w", root, "validate", slow, "--mode", "nop,oracle", "--engine", "kubernetes")
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	waitRunningPods(t, c, cmd, done, 2)
	cmd.Process.Signal(syscall.SIGKILL)
	<-done
	if left := c.Leftovers(t); len(left) == 0 {
		t.Fatal("nothing in the namespace after the kill: the test did not kill mid-run")
	}

	// Any next command finds the killed runs: marked interrupted, their
	// Jobs, ConfigMaps and NetworkPolicies deleted by label.
	_, _, errs := cli(t, "-w", root, "runs")
	if !strings.Contains(errs, "2 run(s) of a stopped curate marked interrupted, 2 container(s) removed") {
		t.Errorf("the next command did not report the interrupted runs:\n%s", errs)
	}
	if left := c.Leftovers(t); len(left) > 0 {
		t.Errorf("left in the namespace after the next command: %v", left)
	}
	code, out, errs := cli(t, "-w", root, "validate", valid, "--mode", "nop,oracle", "--engine", "kubernetes")
	if code != 0 {
		t.Fatalf("rerun: exit %d\n%s\n%s", code, out, errs)
	}
	if left := c.Leftovers(t); len(left) > 0 {
		t.Errorf("left in the namespace after the rerun: %v", left)
	}
	_, out, _ = cli(t, "-w", root, "runs", "--json")
	var runs []pipeline.Run
	if err := json.Unmarshal([]byte(out), &runs); err != nil {
		t.Fatal(err)
	}
	outcomes := map[pipeline.Outcome]int{}
	for _, r := range runs {
		outcomes[r.Outcome]++
	}
	if outcomes[pipeline.OutcomeInterrupted] != 2 || outcomes[pipeline.OutcomeOK] != 2 {
		t.Errorf("outcomes %v, want 2 interrupted and 2 ok", outcomes)
	}
}

// waitRunningPods waits until n pods run in the test's namespace; it
// fails when cmd ends first or none run after 3 minutes.
func waitRunningPods(t *testing.T, c *kubetest.Cluster, cmd *exec.Cmd, done chan struct{}, n int) {
	t.Helper()
	deadline := time.Now().Add(3 * time.Minute)
	for {
		pods, err := c.CS.CoreV1().Pods(c.Namespace).List(context.Background(), metav1.ListOptions{})
		running := 0
		if err == nil {
			for _, p := range pods.Items {
				if p.Status.Phase == "Running" {
					running++
				}
			}
		}
		if running == n {
			return
		}
		select {
		case <-done:
			t.Fatal("curate validate ended before its pods ran")
		default:
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatalf("not %d running pods after 3 minutes (%d)", n, running)
		}
		time.Sleep(300 * time.Millisecond)
	}
}
