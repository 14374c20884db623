package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"curate/app"
	"curate/internal/testenv"
	"curate/pipeline"
	"curate/pipeline/validate/kube/kubetest"
)

// The demo's tasks, made by the task builder from the Python and Go
// fixture repos, validate: NOP 0, Oracle 1, and gold finds the tests the
// PR flips; gold runs without --mode, since the tasks are mined, so the
// tour ends with valid tasks, a funnel and a review queue. The test base
// image stands in for `curate env bootstrap`'s (same debootstrap code,
// cached by content).
func TestValidateBuiltDemoTasks(t *testing.T) {
	base := testenv.BaseImage(t)
	root := filepath.Join(t.TempDir(), "demo")
	if code, _, errs := cli(t, "demo", "--dir", root, "--no-open"); code != 0 {
		t.Fatalf("demo: %s", errs)
	}
	t.Cleanup(func() { cli(t, "-w", root, "env", "prune") })
	dockerfiles, _ := filepath.Glob(filepath.Join(root, "tasks", "*", "environment", "Dockerfile"))
	if len(dockerfiles) < 2 {
		t.Fatalf("demo built %d tasks", len(dockerfiles))
	}
	for _, df := range dockerfiles {
		data, _ := os.ReadFile(df)
		os.WriteFile(df, []byte(strings.Replace(string(data), "FROM "+app.DemoBaseImage, "FROM "+base, 1)), 0o644)
	}
	code, out, errs := cli(t, "-w", root, "validate", "--all", "--json", "--concurrency", "2")
	var runs []pipeline.Run
	if err := json.Unmarshal([]byte(out), &runs); err != nil {
		t.Fatalf("exit %d: %v\n%s\n%s", code, err, out, errs)
	}
	langs := map[string]bool{}
	for _, r := range runs {
		if r.Outcome != pipeline.OutcomeOK {
			log, _ := os.ReadFile(r.LogPath)
			t.Errorf("%s %s: %s %s\n%s", r.TaskID, r.Mode, r.Outcome, r.Detail, log)
			continue
		}
		switch r.Mode {
		case "nop":
			if r.Reward == nil || *r.Reward != 0 {
				t.Errorf("%s nop reward %v", r.TaskID, r.Reward)
			}
		case "oracle":
			if r.Reward == nil || *r.Reward != 1 {
				t.Errorf("%s oracle reward %v", r.TaskID, r.Reward)
			}
		case "gold":
			if len(r.FailToPass) == 0 {
				t.Errorf("%s gold: no FAIL_TO_PASS", r.TaskID)
			}
			// The builder's SWE-bench record gets the lists too.
			var rec pipeline.SWEBenchInstance
			data, _ := os.ReadFile(filepath.Join(root, "tasks", r.TaskID, "swebench.json"))
			if err := json.Unmarshal(data, &rec); err != nil || strings.Join(rec.FailToPass, ",") != strings.Join(r.FailToPass, ",") ||
				strings.Join(rec.PassToPass, ",") != strings.Join(r.PassToPass, ",") {
				t.Errorf("%s swebench.json: F2P %v P2P %v (%v), want %v %v", r.TaskID, rec.FailToPass, rec.PassToPass, err, r.FailToPass, r.PassToPass)
			}
		}
		langs[strings.SplitN(r.TaskID, "-", 2)[0]] = true
	}
	if code != 0 || len(runs) != 3*len(dockerfiles) {
		t.Fatalf("exit %d, %d runs\n%s", code, len(runs), errs)
	}
	if !langs["acme__calc"] || !langs["acme__mathx"] {
		t.Errorf("want Python (calc) and Go (mathx) tasks, got %v", langs)
	}
	// Valid, counted as valid by the funnel, and waiting in the review
	// queue (valid and unreviewed).
	n := len(dockerfiles)
	if _, out, _ := cli(t, "-w", root, "list", "--filter", "status=valid review=unreviewed", "--json"); strings.Count(out, `"id":`) != n {
		t.Errorf("review queue: want %d valid unreviewed tasks\n%s", n, out)
	}
	if _, out, _ := cli(t, "-w", root, "funnel"); !regexp.MustCompile(`(?m)^total\n(.*\n)*  valid\s+` + strconv.Itoa(n) + `$`).MatchString(out) {
		t.Errorf("funnel: want %d valid in total\n%s", n, out)
	}
	checkRunTiming(t, root, runs, n)
	// Today's two executions per task against the five of one mode per
	// command: the same verdicts and lists.
	t.Run("each mode alone", func(t *testing.T) { sameWhenEachModeRunsAlone(t, root, runs) })
	// The same tasks on a Kubernetes cluster, reusing the images built
	// above: the same verdicts, rewards, FAIL_TO_PASS and PASS_TO_PASS.
	t.Run("kubernetes", func(t *testing.T) { sameOnKubernetes(t, root, runs) })
	// And built by BuildKit in the cluster, with no local engine.
	t.Run("buildkit", func(t *testing.T) { sameWithBuildKit(t, root, base, runs) })
}

// sameOnKubernetes validates the workspace's tasks on the test cluster
// and compares each run with the Docker engine's.
func sameOnKubernetes(t *testing.T, root string, onDocker []pipeline.Run) {
	c := kubetest.Require(t)
	appendKubeConfig(t, root, c)
	code, out, errs := cli(t, "-w", root, "validate", "--all", "--json", "--mode", "nop,oracle,gold", "--engine", "kubernetes")
	var runs []pipeline.Run
	if err := json.Unmarshal([]byte(out), &runs); err != nil {
		t.Fatalf("exit %d: %v\n%s\n%s", code, err, out, errs)
	}
	sameVerdicts(t, onDocker, runs, code, errs)
	if left := c.Leftovers(t); len(left) > 0 {
		t.Errorf("left in the namespace: %v", left)
	}
	t.Logf("%d runs agree with the Docker engine's", len(runs))
}

// sameVerdicts compares each cluster run with the Docker engine's: the
// same outcome, reward, FAIL_TO_PASS and PASS_TO_PASS, every run made.
func sameVerdicts(t *testing.T, onDocker, runs []pipeline.Run, code int, errs string) {
	t.Helper()
	type verdict struct {
		Outcome    pipeline.Outcome
		Reward     string
		FailToPass []string
		PassToPass []string
	}
	of := func(r pipeline.Run) verdict {
		v := verdict{Outcome: r.Outcome, FailToPass: r.FailToPass, PassToPass: r.PassToPass}
		if r.Reward != nil {
			v.Reward = fmt.Sprint(*r.Reward)
		}
		return v
	}
	want := map[string]verdict{}
	for _, r := range onDocker {
		want[r.TaskID+" "+r.Mode] = of(r)
	}
	for _, r := range runs {
		k := r.TaskID + " " + r.Mode
		if got := of(r); !reflect.DeepEqual(got, want[k]) {
			log, _ := os.ReadFile(r.LogPath)
			t.Errorf("%s: kubernetes %+v, docker %+v\n%s", k, got, want[k], log)
		}
		if !strings.HasPrefix(r.DockerHost, "kubernetes ") {
			t.Errorf("%s ran on %q", k, r.DockerHost)
		}
		delete(want, k)
	}
	if len(want) > 0 || code != 0 {
		t.Errorf("exit %d; runs not made on kubernetes: %v\n%s", code, want, errs)
	}
}
