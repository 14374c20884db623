package envgen_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sync/atomic"
	"testing"

	"github.com/pelletier/go-toml/v2"

	"curate/internal/fixtures"
	"curate/internal/testenv"
	"curate/pipeline"
	"curate/pipeline/envgen"
	"curate/pipeline/filter"
	"curate/pipeline/source/gitmine"
	"curate/pipeline/validate"
)

// TestBuiltTasksValidateInDocker builds the Python and Go fixture PRs into
// task dirs FROM the bootstrapped Debian base image and validates them on
// the real engine: NOP must give 0, Oracle 1, gold at least one
// FAIL_TO_PASS. Skips without an engine unless CURATE_REQUIRE_DOCKER=1.
func TestBuiltTasksValidateInDocker(t *testing.T) {
	if testing.Short() {
		t.Skip("builds images")
	}
	base := testenv.BaseImage(t)
	filterConfig := profileFilter(t)
	py, err := fixtures.PythonRepo(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	gr, err := fixtures.GoRepo(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	tasksDir := t.TempDir()
	var jobs []validate.Job
	for _, p := range []fixtures.Project{py, gr} {
		prs, err := gitmine.Mine(context.Background(), gitmine.Options{Path: p.Path})
		if err != nil {
			t.Fatal(err)
		}
		for _, pr := range prs {
			task := pr.Task("git", p.Path, nil)
			res, err := envgen.Build(context.Background(), task, tasksDir, envgen.Config{Filter: filterConfig, BaseImage: base, Network: envgen.HostNetwork(context.Background(), "")})
			if err != nil {
				t.Fatalf("build %s: %v", task.ID, err)
			}
			for _, mode := range []string{"nop", "oracle", "gold"} {
				jobs = append(jobs, validate.Job{TaskID: task.ID, TaskDir: res.Dir, Digest: res.Digest, Mode: mode})
			}
		}
	}
	v := dockerValidator(t, "mine")
	for i, run := range v.Validate(context.Background(), jobs) {
		j := jobs[i]
		if run.Outcome != pipeline.OutcomeOK {
			log, _ := os.ReadFile(run.LogPath)
			t.Errorf("%s %s: outcome %s (%s)\n%s", j.TaskID, j.Mode, run.Outcome, run.Detail, log)
			continue
		}
		if j.Mode == "gold" && len(run.FailToPass) == 0 {
			t.Errorf("%s gold: no FAIL_TO_PASS", j.TaskID)
		}
		if j.Mode == "gold" { // test.sh wrote a ctrf.json that passed the schema check
			log, _ := os.ReadFile(run.LogPath)
			// The fixed state always runs the tests; the buggy state may not
			// even compile them (mathx-2), and then there is no report.
			if !fixedFromCTRF.Match(log) {
				t.Errorf("%s gold: per-test results not read from a valid ctrf.json:\n%s", j.TaskID, log)
			}
		}
	}
}

// dockerValidator is a validator on the local engine whose containers and
// images carry a workspace name of their own, pruned after the test.
func dockerValidator(t *testing.T, name string) *validate.Validator {
	t.Helper()
	r, err := validate.NewDockerRunner("", fmt.Sprintf("test-%s-%d", name, os.Getpid()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		r.Prune(context.Background(), false)
		r.Close()
	})
	// NewID is called from the validator's workers at once: a plain
	// counter gave two runs one id, and their logs one file.
	var n atomic.Int64
	return &validate.Validator{Runners: []validate.Runner{r}, Concurrency: 2, Runs: 1, LogDir: t.TempDir(),
		NewID: func() string { return fmt.Sprintf("%s-%d-%d", name, os.Getpid(), n.Add(1)) }}
}

// fixedFromCTRF is gold's log line when the fixed state's results came
// from a ctrf.json that passed the schema check.
var fixedFromCTRF = regexp.MustCompile(`fixed state: [1-9][0-9]* tests from ctrf\.json`)

// writeTaskFiles writes a test task's files (path under dir -> body), all
// executable as the scripts need.
func writeTaskFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for rel, body := range files {
		p := filepath.Join(dir, rel)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
	}
}

// profileFilter is the filter of curate's default profile (which files
// are tests).
func profileFilter(t *testing.T) *filter.Config {
	t.Helper()
	var doc struct {
		Filter filter.Config `toml:"filter"`
	}
	data, err := os.ReadFile("../profiles/filter.toml")
	if err != nil {
		t.Fatal(err)
	}
	if err := toml.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	return &doc.Filter
}
