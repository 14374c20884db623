package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/api/types/filters"

	"curate/internal/testenv"
	"curate/pipeline"
	"curate/pipeline/validate"
	"curate/pipeline/validate/kube/kubetest"
)

// TestCampaignKilledAndStartedAgain: a campaign killed (SIGKILL, no
// chance to tidy) while its validation batch runs, then started again
// with the same arguments, ends with every task valid, each task's mode
// with exactly one verdict on its files (nothing validated twice), no task
// built again, and no container of the workspace left.
func TestCampaignKilledAndStartedAgain(t *testing.T) {
	campaignKilledAndStartedAgain(t, nil)
}

// The same on the cluster (--engine kubernetes): the environment checks
// and the runs are the cluster's Jobs, and nothing of the campaign is
// left in the namespace.
func TestCampaignOnKubernetesKilledAndStartedAgain(t *testing.T) {
	campaignKilledAndStartedAgain(t, kubetest.Require(t))
}

// campaignKilledAndStartedAgain runs the campaign on the local engine, or
// on cluster c when it is not nil.
func campaignKilledAndStartedAgain(t *testing.T, c *kubetest.Cluster) {
	_, py, gr, ws := campaignFixtures(t)
	dockerCli := testenv.RequireDocker(t)
	bin := filepath.Join(t.TempDir(), "curate")
	if out, err := exec.Command("go", "build", "-o", bin, "..").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	args := []string{"-w", ws, "campaign", py.Path, gr.Path, "--preset", "none", "--concurrency", "1", "--json"}
	if c != nil {
		appendKubeConfig(t, ws, c)
		args = append(args, "--engine", "kubernetes")
	} else {
		args = append(args, "--no-env-check") // the local check has tests of its own
	}
	finished := func() []pipeline.Run {
		_, out, _ := cli(t, "-w", ws, "runs", "--json")
		var rs, done []pipeline.Run
		json.Unmarshal([]byte(out), &rs)
		for _, r := range rs {
			if r.Outcome.Finished() && r.Outcome != pipeline.OutcomeInterrupted && r.Outcome != pipeline.OutcomeCancelled {
				done = append(done, r)
			}
		}
		return done
	}

	cmd := exec.Command(bin, args...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	built := 0
	sc := bufio.NewScanner(stdout)
	for sc.Scan() && built < 2 {
		if strings.Contains(sc.Text(), `"step":"build"`) {
			built++
		}
	}
	deadline := time.Now().Add(5 * time.Minute)
	for len(finished()) == 0 && time.Now().Before(deadline) {
		time.Sleep(200 * time.Millisecond)
	}
	syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	cmd.Wait()
	before := len(finished())
	if built != 2 || before == 0 {
		t.Fatalf("killed after %d build events and %d finished runs: want both repositories built and a run done", built, before)
	}

	code, out, errs := cli(t, args...)
	if code != 0 {
		t.Fatalf("campaign again: %d\n%s%s", code, out, errs)
	}
	if strings.Contains(out, `"built":`) {
		t.Errorf("the second campaign built again:\n%s", out)
	}
	seen := map[string]int{}
	for _, r := range finished() {
		seen[r.TaskID+" "+r.Digest+" "+r.Mode]++
	}
	for k, n := range seen {
		if n != 1 {
			t.Errorf("%s: %d verdicts, want 1", k, n)
		}
	}
	_, list, _ := cli(t, "-w", ws, "list", "--json")
	var tasks []map[string]any
	json.Unmarshal([]byte(list), &tasks)
	for _, task := range tasks {
		if task["status"] != "valid" {
			t.Errorf("%s: %v after the second campaign", task["id"], task["status"])
		}
	}
	left, err := dockerCli.ContainerList(context.Background(), container.ListOptions{All: true,
		Filters: filters.NewArgs(filters.Arg("label", validate.LabelWorkspace+"="+ws))})
	if err != nil {
		t.Fatal(err)
	}
	if len(left) > 0 {
		t.Errorf("%d containers of the workspace left", len(left))
	}
	if c == nil {
		return
	}
	if left := c.Leftovers(t); len(left) > 0 {
		t.Errorf("left in the namespace: %v", left)
	}
	for _, repo := range []string{"acme/calc", "acme/mathx"} {
		_, out, _ := cli(t, "-w", ws, "repo", "show", repo, "--json")
		if !strings.Contains(out, `"image": "`+c.Registry+"/curate-repo@sha256:") {
			t.Errorf("%s: the environment check did not run on the cluster:\n%s", repo, out)
		}
	}
	_, out, _ = cli(t, "-w", ws, "runs", "--json")
	var runs []pipeline.Run
	json.Unmarshal([]byte(out), &runs)
	for _, r := range runs {
		if !strings.HasPrefix(r.DockerHost, "kubernetes ") {
			t.Errorf("run %s of %s %s ran on %q, not the cluster", r.ID, r.TaskID, r.Mode, r.DockerHost)
		}
	}
}
