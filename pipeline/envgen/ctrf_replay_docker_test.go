package envgen_test

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"curate/internal/testenv"
	"curate/pipeline/envgen"
	"curate/pipeline/validate"
)

// replayTask is a task whose generated test.sh (envgen.TestSh: the real
// CTRF step) replays the captured output of the state /app/state names;
// the oracle switches it to the fixed state. withCTRF false leaves out
// tests/ctrf.py, so gold can only read the log.
func replayTask(t *testing.T, base string, c envgen.CTRFCapture, withCTRF bool) string {
	t.Helper()
	name := "replay-" + c.Format
	if !withCTRF {
		name += "-log"
	}
	dir := filepath.Join(t.TempDir(), name)
	replay := "s=$(cat /app/state); f=/tests/fixture/$s; cat \"$f/test-stdout.txt\"; cp \"$f/" + c.Report + "\" /logs/verifier/" + c.Report +
		"; rc=$(sed -n 's/^curate: test status //p' \"$f/test-stdout.txt\" | tail -n 1); (exit ${rc:-1})"
	files := map[string]string{
		"instruction.md":         "Replay.\n",
		"task.toml":              "schema_version = \"1.4\"\n[task]\nname = \"acme/" + name + "\"\n",
		"environment/Dockerfile": "FROM " + base + "\nRUN mkdir -p /app && echo bug > /app/state\nWORKDIR /app\n",
		"solution/solve.sh":      "#!/bin/bash\necho fix > /app/state\n",
		"tests/test.sh":          envgen.TestSh(name, envgen.Runner{Command: replay, LogFormat: c.Format}, nil, nil, nil, nil),
	}
	if withCTRF {
		files[envgen.CTRFFile] = string(envgen.CTRFScript)
	}
	for _, state := range []string{"bug", "fix"} {
		for _, f := range []string{"test-stdout.txt", c.Report} {
			data, err := os.ReadFile(filepath.Join("testdata", "ctrf", c.Dir, state, f))
			if err != nil {
				t.Fatal(err)
			}
			files["tests/fixture/"+state+"/"+f] = string(data)
		}
	}
	writeTaskFiles(t, dir, files)
	return dir
}

// For each language's real runner output, the generated test.sh's CTRF
// step, run in the base image, writes a ctrf.json that validates against
// the CTRF schema in both states; gold reads it ("tests from ctrf.json")
// and finds the same FAIL_TO_PASS and PASS_TO_PASS as gold reading only
// the log (the same task without ctrf.py).
func TestCTRFReplayInContainer(t *testing.T) {
	if testing.Short() {
		t.Skip("runs containers")
	}
	base := testenv.BaseImage(t)
	v := dockerValidator(t, "ctrf-replay")
	runner := v.Runners[0]
	ctx := context.Background()
	var jobs []validate.Job
	for _, c := range envgen.CTRFCaptures {
		with, without := replayTask(t, base, c, true), replayTask(t, base, c, false)
		jobs = append(jobs, validate.Job{TaskID: c.Dir, TaskDir: with, Mode: "gold"}, validate.Job{TaskID: c.Dir + "-log", TaskDir: without, Mode: "gold"})

		// The ctrf.json itself, in both states.
		img, _, err := runner.Image(ctx, with, nil)
		if err != nil {
			t.Fatal(err)
		}
		cfg, err := validate.ReadTaskConfig(with)
		if err != nil {
			t.Fatal(err)
		}
		for _, oracle := range []bool{false, true} {
			res, err := runner.Exec(ctx, validate.ExecSpec{TaskDir: with, Image: img, Oracle: oracle, Config: cfg, KeepTestLog: true}, validate.Output{})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.CTRF) == 0 {
				t.Fatalf("%s (oracle %v): test.sh wrote no ctrf.json:\n%s", c.Dir, oracle, res.TestLog)
			}
			envgen.ValidCTRFDoc(t, res.CTRF)
		}
	}
	runs := v.Validate(ctx, jobs)
	for i := 0; i < len(runs); i += 2 {
		c := envgen.CTRFCaptures[i/2]
		a, b := runs[i], runs[i+1]
		la, _ := os.ReadFile(a.LogPath)
		lb, _ := os.ReadFile(b.LogPath)
		if strings.Count(string(la), "tests from ctrf.json") != goldStates(la) {
			t.Errorf("%s: gold did not read ctrf.json in both states:\n%s", c.Dir, la)
		}
		if strings.Contains(string(lb), "tests from ctrf.json") {
			t.Errorf("%s: the task without ctrf.py still had a ctrf.json:\n%s", c.Dir, lb)
		}
		if !fixedFromCTRF.Match(la) {
			t.Errorf("%s: gold read no tests from ctrf.json in the fixed state (outcome %s: %s):\n%s", c.Dir, a.Outcome, a.Detail, la)
		}
		if !reflect.DeepEqual(a.FailToPass, b.FailToPass) || !reflect.DeepEqual(a.PassToPass, b.PassToPass) || a.Outcome != b.Outcome {
			t.Errorf("%s: from ctrf.json %s F2P %v P2P %v; from the log %s F2P %v P2P %v", c.Dir, a.Outcome, a.FailToPass, a.PassToPass, b.Outcome, b.FailToPass, b.PassToPass)
		}
		t.Logf("%s (%s): %s, %d FAIL_TO_PASS, %d PASS_TO_PASS from ctrf.json and from the log", c.Dir, c.Format, a.Outcome, len(a.FailToPass), len(a.PassToPass))
	}
}
