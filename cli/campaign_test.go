package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"curate/internal/fixtures"
	"curate/internal/testenv"
	"curate/pipeline"
)

// TestCampaignTakesClonesToValidTasks: one command takes two clones (the
// Python and Go fixture projects) through mine, env check, build and
// validate to valid tasks. One task was built by hand before, as a
// campaign stopped after building it would leave it: it is not built
// again. A second campaign finds everything done and runs nothing.
func TestCampaignTakesClonesToValidTasks(t *testing.T) {
	dir, py, gr, ws := campaignFixtures(t)
	if code, _, errs := cli(t, "-w", ws, "mine", "git", py.Path, "--preset", "none"); code != 0 {
		t.Fatal(errs)
	}
	if code, _, errs := cli(t, "-w", ws, "build", "acme__calc-1"); code != 0 {
		t.Fatal(errs)
	}
	list := filepath.Join(dir, "repos.txt")
	if err := os.WriteFile(list, []byte("# the fixtures\ncalc\nmathx\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := cli(t, "-w", ws, "campaign", "--from", list, "--preset", "none", "--json")
	if code != 0 {
		t.Fatalf("campaign: %d\n%s%s", code, out, errs)
	}
	events := map[string]map[string]any{}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var e map[string]any
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			t.Fatalf("not a JSON line: %q", line)
		}
		events[e["repo"].(string)+" "+e["step"].(string)] = e
	}
	for key, want := range map[string]map[string]float64{
		"acme/calc build":     {"built": 1, "already": 1},
		"acme/calc validate":  {"valid": 2},
		"acme/mathx build":    {"built": float64(len(gr.PRs))},
		"acme/mathx validate": {"valid": float64(len(gr.PRs))},
	} {
		for k, v := range want {
			if got, _ := events[key][k].(float64); got != v {
				t.Errorf("%s %s = %v, want %v (%v)", key, k, events[key][k], v, events[key])
			}
		}
	}
	if _, ok := events["acme/calc env_check"]; !ok {
		t.Errorf("no env check of acme/calc: %v", events)
	}
	runs := func() int {
		_, out, _ := cli(t, "-w", ws, "runs", "--json")
		var rs []pipeline.Run
		json.Unmarshal([]byte(out), &rs)
		return len(rs)
	}
	before := runs()
	code, out, errs = cli(t, "-w", ws, "campaign", filepath.Join(dir, "calc"), py.Path, gr.Path, "--preset", "none")
	if code != 0 {
		t.Fatalf("second campaign: %d\n%s%s", code, out, errs)
	}
	if after := runs(); after != before {
		t.Errorf("a second campaign ran %d more runs:\n%s", after-before, out)
	}
	for _, want := range []string{"acme/calc                    build      2 built before", "acme/calc                    env_check  recorded: ok"} {
		if !strings.Contains(out, want) {
			t.Errorf("second campaign output lacks %q:\n%s", want, out)
		}
	}
	if code, _, errs := cli(t, "-w", ws, "campaign", filepath.Join(dir, "nope")); code == 0 || !strings.Contains(errs, "argument: "+filepath.Join(dir, "nope")+": not a clone folder") {
		t.Errorf("a missing clone: %d %s", code, errs)
	}
}

// campaignFixtures are the Python and Go fixture clones in dir and a new
// workspace on the test base image.
func campaignFixtures(t *testing.T) (dir string, py, gr fixtures.Project, ws string) {
	t.Helper()
	base := testenv.BaseImage(t)
	dir = t.TempDir()
	py, err := fixtures.PythonRepo(filepath.Join(dir, "calc"))
	if err != nil {
		t.Fatal(err)
	}
	if gr, err = fixtures.GoRepo(filepath.Join(dir, "mathx")); err != nil {
		t.Fatal(err)
	}
	return dir, py, gr, checkWorkspace(t, base, "")
}
