package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"curate/app"
	"curate/internal/fixtures"
	"curate/internal/testenv"
	"curate/pipeline/validate/kube/kubetest"
)

// TestEnvCheckOnKubernetes: `curate env check --engine kubernetes REPO`
// checks the cluster, then runs the repository's check as a Job there and
// records the same result as the local Docker check of the same
// repository (pass/total, failing tests with their first error line),
// from an image in the registry. A check the cluster cannot take yet says
// it waits; one cancelled (SIGINT) deletes its Job and keeps the last
// record; one killed leaves its Job, which the next command deletes.
// Nothing is left in the namespace. With builder = "buildkit" buildkitd
// builds the image and no Docker engine is used.
func TestEnvCheckOnKubernetes(t *testing.T) {
	c := kubetest.Require(t)
	base := testenv.BaseImage(t)
	py, err := fixtures.PythonRepo(filepath.Join(t.TempDir(), "calc"))
	if err != nil {
		t.Fatal(err)
	}
	// Two tests fail on the snapshot (7/9: the check fails and names
	// them); a slow one keeps the Job running long enough to stop it.
	addOnMain(t, py.Path, map[string]string{
		"tests/test_slow.py": "import time\n\n\ndef test_slow():\n    time.sleep(6)\n",
		"tests/test_percent.py": readFile(t, filepath.Join(py.Path, "tests/test_percent.py")) +
			"\n\ndef test_percent_locale():\n    assert fmt_percent(0.5, locale='de') == '50 %'\n" +
			"\n\ndef test_percent_wrong():\n    assert fmt_percent(0.5) == 'half'\n",
	})
	ws := checkWorkspace(t, base, "scope = \"all\"\n")
	start := time.Now()
	if code, _, errs := mineAndCheck(t, ws, py.Path); code != 1 {
		t.Fatalf("local env check: exit %d, want 1 (a failed check)\n%s", code, errs)
	}
	local := envCheckRecord(t, ws)
	if local.Total != 9 || local.Passed != 7 || len(local.Failing) != 2 {
		t.Fatalf("local check %+v: want 7/9 with 2 failing tests", local)
	}
	appendKubeConfig(t, ws, c)
	tookLocal, start := time.Since(start), time.Now()

	code, out, errs := cli(t, "-w", ws, "env", "check", "--engine", "kubernetes", "acme/calc")
	onCluster := envCheckRecord(t, ws)
	t.Logf("the local check took %s, the check on the cluster %s", tookLocal.Round(time.Second), time.Since(start).Round(time.Second))
	if code != 1 || !strings.Contains(out, "ok   api") || !strings.Contains(out, "failed 7/9") {
		t.Errorf("env check --engine kubernetes: exit %d, want 1 with the cluster's lines and the failed check\n%s%s", code, out, errs)
	}
	sameEnvCheck(t, local, onCluster, c.Registry)
	if left := c.Leftovers(t); len(left) > 0 {
		t.Errorf("left in the namespace after the check: %v", left)
	}
	if t.Failed() {
		return
	}

	t.Run("wait, cancel, kill", func(t *testing.T) { envCheckStopped(t, c, ws, onCluster) })
	t.Run("buildkit", func(t *testing.T) { envCheckWithBuildKit(t, c, ws, base, local) })
}

// envCheckStopped: with a quota of no pods the check waits for the
// cluster and says so; given room, its pod runs; SIGINT then deletes its
// Job and the record stays last's. A check killed (SIGKILL) mid-run
// leaves its Job; the next command deletes it.
func envCheckStopped(t *testing.T, c *kubetest.Cluster, ws string, last *app.EnvCheck) {
	ctx := context.Background()
	quotas := c.CS.CoreV1().ResourceQuotas(c.Namespace)
	q := &corev1.ResourceQuota{ObjectMeta: metav1.ObjectMeta{Name: "no-pods"},
		Spec: corev1.ResourceQuotaSpec{Hard: corev1.ResourceList{corev1.ResourcePods: resource.MustParse("0")}}}
	if _, err := quotas.Create(ctx, q, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	cmd, stderr, done := startCheck(t, ws)
	waitUntil(t, "the check to say it waits", done, func() bool {
		return strings.Contains(stderr.String(), "acme/calc  waiting for the cluster: FailedCreate") && strings.Contains(stderr.String(), "exceeded quota: no-pods")
	})
	if err := quotas.Delete(ctx, q.Name, metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	waitRunningPods(t, c, cmd, done, 1)
	cmd.Process.Signal(syscall.SIGINT)
	<-done
	if cmd.ProcessState.Success() {
		t.Errorf("a cancelled check exited 0\n%s", stderr.String())
	}
	if left := c.Leftovers(t); len(left) > 0 {
		t.Errorf("left in the namespace after the cancel: %v", left)
	}
	if now := envCheckRecord(t, ws); !reflect.DeepEqual(now, last) {
		t.Errorf("a cancelled check changed the record:\n%+v\nwant %+v", now, last)
	}

	cmd, _, done = startCheck(t, ws)
	waitRunningPods(t, c, cmd, done, 1)
	cmd.Process.Signal(syscall.SIGKILL)
	<-done
	if left := c.Leftovers(t); len(left) == 0 {
		t.Fatal("nothing in the namespace after the kill: the test did not kill mid-run")
	}
	if _, _, errs := cli(t, "-w", ws, "repo", "show", "acme/calc"); !strings.Contains(errs, "container(s)") {
		t.Errorf("the next command did not say it removed the killed check's Job:\n%s", errs)
	}
	if left := c.Leftovers(t); len(left) > 0 {
		t.Errorf("left in the namespace after the next command: %v", left)
	}
}

// envCheckWithBuildKit checks again with builder = "buildkit" under a
// registry path of the test's own, with DOCKER_HOST at a socket that does
// not exist: buildkitd builds the image, and the record is the local one.
func envCheckWithBuildKit(t *testing.T, c *kubetest.Cluster, ws, base string, local *app.EnvCheck) {
	registry := c.Registry + "/" + c.Namespace
	testenv.PushImage(t, base, registry+"/"+base[strings.LastIndex(base, "/")+1:])
	setKubernetes(t, ws, fmt.Sprintf("kubeconfig = %q\nnamespace = %q\nregistry = %q\nbuilder = \"buildkit\"\n", c.Kubeconfig, c.Namespace, registry))
	t.Setenv("DOCKER_HOST", "unix://"+filepath.Join(t.TempDir(), "no-docker.sock"))
	if code, out, errs := cli(t, "-w", ws, "env", "buildkit", "install", "--image", kubetest.BuildKitImage); code != 0 {
		t.Fatalf("buildkit install: exit %d\n%s\n%s", code, out, errs)
	}
	start := time.Now()
	code, out, errs := cli(t, "-w", ws, "env", "check", "--engine", "kubernetes", "acme/calc", "-v")
	if code != 1 || !strings.Contains(errs, "curate: buildkit built and pushed "+registry+"/curate-repo@sha256:") {
		t.Errorf("env check with buildkit: exit %d, want 1 and the image built by buildkitd\n%s%s", code, out, errs)
	}
	sameEnvCheck(t, local, envCheckRecord(t, ws), registry)
	if left := c.Leftovers(t); len(left) > 0 {
		t.Errorf("left in the namespace: %v", left)
	}
	t.Logf("the check with buildkit took %s", time.Since(start).Round(time.Second))
}

// sameEnvCheck requires the cluster's record to be the local one's, made
// after it from an image in registry.
func sameEnvCheck(t *testing.T, local, onCluster *app.EnvCheck, registry string) {
	t.Helper()
	if !strings.HasPrefix(onCluster.Image, registry+"/curate-repo@sha256:") || !onCluster.At.After(local.At) {
		t.Errorf("the record is not the cluster's check (image %s at %s; the local one at %s)", onCluster.Image, onCluster.At, local.At)
	}
	a, b := *local, *onCluster
	a.Image, a.At, b.Image, b.At = "", time.Time{}, "", time.Time{}
	if !reflect.DeepEqual(a, b) {
		t.Errorf("the cluster's check records\n%+v\nthe local one\n%+v", b, a)
	}
}

// envCheckRecord is acme/calc's recorded environment check.
func envCheckRecord(t *testing.T, ws string) *app.EnvCheck {
	t.Helper()
	_, out, errs := cli(t, "-w", ws, "repo", "show", "acme/calc", "--json")
	var st app.RepoState
	if err := json.Unmarshal([]byte(out), &st); err != nil || st.EnvCheck == nil {
		t.Fatalf("repo show --json: %v\n%s%s", err, out, errs)
	}
	return st.EnvCheck
}

// waitUntil polls cond for up to 3 minutes; it fails when the process
// whose end closes done ends first.
func waitUntil(t *testing.T, what string, done chan struct{}, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(3 * time.Minute); !cond(); time.Sleep(200 * time.Millisecond) {
		select {
		case <-done:
			t.Fatalf("curate ended before %s", what)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("waited 3 minutes for %s", what)
		}
	}
}

// startCheck starts `curate env check --engine kubernetes --json acme/calc`
// (its waiting lines then go to stderr); done closes when it has ended.
func startCheck(t *testing.T, ws string) (*exec.Cmd, *syncBuffer, chan struct{}) {
	t.Helper()
	cmd, stderr := startCLIStderr(t, "-w", ws, "env", "check", "--engine", "kubernetes", "--json", "acme/calc")
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	t.Cleanup(func() { cmd.Process.Kill(); <-done })
	return cmd, stderr, done
}
