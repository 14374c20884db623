package envgen_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"curate/internal/testenv"
	"curate/pipeline"
	"curate/pipeline/envgen"
	"curate/pipeline/validate"
)

// knownTask is a task whose runner writes a Surefire report with the given
// test cases (name=passed|failed) and exits 1 when any failed, like mvn;
// test.sh is envgen.TestSh's, with known as the known failures and
// required as the FAIL_TO_PASS tests it requires.
func knownTask(t *testing.T, base, name string, cases map[string]string, known, required []string) string {
	t.Helper()
	var xml strings.Builder
	xml.WriteString(`<testsuite name="acme.ATest" tests="2">`)
	rc := 0
	for n, st := range cases {
		xml.WriteString(`<testcase classname="acme.ATest" name="` + n + `">`)
		switch st {
		case "failed":
			xml.WriteString(`<failure message="boom">boom</failure>`)
			rc = 1
		case "skipped":
			xml.WriteString(`<skipped/>`)
		}
		xml.WriteString(`</testcase>`)
	}
	xml.WriteString(`</testsuite>`)
	run := envgen.Runner{LogFormat: "surefire",
		Command: "cp /tests/report.xml /logs/verifier/surefire.xml; (exit " + map[int]string{0: "0", 1: "1"}[rc] + ")"}
	dir := filepath.Join(t.TempDir(), name)
	files := map[string]string{
		"instruction.md":         "Known failures.\n",
		"task.toml":              "schema_version = \"1.4\"\n[task]\nname = \"acme/" + name + "\"\n",
		"environment/Dockerfile": "FROM " + base + "\nRUN mkdir -p /app\nWORKDIR /app\n",
		"solution/solve.sh":      "#!/bin/bash\ntrue\n",
		"tests/test.sh":          envgen.TestSh(name, run, nil, nil, known, required),
		"tests/report.xml":       xml.String(),
		envgen.CTRFFile:          string(envgen.CTRFScript),
	}
	if len(known) > 0 {
		files[envgen.KnownFailuresFile] = strings.Join(known, "\n") + "\n"
	}
	if len(required) > 0 {
		files[envgen.RequiredTestsFile] = strings.Join(required, "\n") + "\n"
	}
	writeTaskFiles(t, dir, files)
	return dir
}

// A run whose only failing tests are the known failures gets reward 1;
// an unknown failure, a run where nothing else passed, or a task with no
// known failures keep reward 0.
func TestKnownFailuresDoNotDecideTheReward(t *testing.T) {
	if testing.Short() {
		t.Skip("runs containers")
	}
	base := testenv.BaseImage(t)
	v := dockerValidator(t, "known")
	cases := []struct {
		name  string
		tests map[string]string
		known []string
		want  pipeline.Outcome
	}{
		{"only-known", map[string]string{"ok": "passed", "jdk": "failed"}, []string{"acme.ATest.jdk"}, pipeline.OutcomeOK},
		{"unknown-too", map[string]string{"ok": "passed", "jdk": "failed", "new": "failed"}, []string{"acme.ATest.jdk"}, pipeline.OutcomeOracleFailed},
		{"none-passed", map[string]string{"jdk": "failed"}, []string{"acme.ATest.jdk"}, pipeline.OutcomeOracleFailed},
		{"none-known", map[string]string{"ok": "passed", "jdk": "failed"}, nil, pipeline.OutcomeOracleFailed},
	}
	var jobs []validate.Job
	for _, c := range cases {
		jobs = append(jobs, validate.Job{TaskID: c.name, TaskDir: knownTask(t, base, c.name, c.tests, c.known, nil), Mode: pipeline.ModeOracle})
	}
	runs := v.Validate(context.Background(), jobs)
	for i, c := range cases {
		if runs[i].Outcome != c.want {
			log, _ := os.ReadFile(runs[i].LogPath)
			t.Errorf("%s: outcome %s (%s), want %s\n%s", c.name, runs[i].Outcome, runs[i].Detail, c.want, log)
		}
	}
}

// A run that passes but does not report a required (FAIL_TO_PASS) test
// passed gets reward 0, as gold counts a test missing before the fix as
// failing: the bug compiled it out, or an agent deleted it. Without the
// list the same run gets 1 (what test.sh did before).
func TestRequiredTestsMustBeReportedPassed(t *testing.T) {
	if testing.Short() {
		t.Skip("runs containers")
	}
	base := testenv.BaseImage(t)
	v := dockerValidator(t, "required")
	cases := []struct {
		name            string
		tests           map[string]string
		known, required []string
		want            pipeline.Outcome
	}{
		{"reported", map[string]string{"ok": "passed", "new": "passed"}, nil, []string{"acme.ATest.new"}, pipeline.OutcomeOK},
		{"left-out", map[string]string{"ok": "passed"}, nil, []string{"acme.ATest.new"}, pipeline.OutcomeOracleFailed},
		{"skipped", map[string]string{"ok": "passed", "new": "skipped"}, nil, []string{"acme.ATest.new"}, pipeline.OutcomeOracleFailed},
		{"no-list", map[string]string{"ok": "passed"}, nil, nil, pipeline.OutcomeOK},
		{"with-known", map[string]string{"ok": "passed", "jdk": "failed", "new": "passed"}, []string{"acme.ATest.jdk"}, []string{"acme.ATest.new"}, pipeline.OutcomeOK},
	}
	var jobs []validate.Job
	for _, c := range cases {
		jobs = append(jobs, validate.Job{TaskID: c.name, TaskDir: knownTask(t, base, c.name, c.tests, c.known, c.required), Mode: pipeline.ModeOracle})
	}
	runs := v.Validate(context.Background(), jobs)
	for i, c := range cases {
		if runs[i].Outcome != c.want {
			log, _ := os.ReadFile(runs[i].LogPath)
			t.Errorf("%s: outcome %s (%s), want %s\n%s", c.name, runs[i].Outcome, runs[i].Detail, c.want, log)
		}
	}
}
