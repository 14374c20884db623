package envgen

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"curate/pipeline/validate/parse"
)

// ctrfCase is one runner's real output (captured from the tool, paths
// made /app and /logs/verifier as in a task container): the report
// ctrf.py reads, and the log a gold run parses (test.sh's output with the
// verifier's report files after it, as the validator joins them).
type ctrfCase struct {
	format string   // the Runner's LogFormat
	dir    string   // testdata/ctrf/<dir>
	report string   // the file ctrfReports names, by base name
	log    []string // files joined into the log, in order
}

var ctrfCases = []ctrfCase{
	{"pytest", "pytest", "junit.xml", []string{"stdout.txt", "junit.xml"}},             // pytest 9.2 -rA, junit_family=xunit1
	{"go", "gotest", "go-test.json", []string{"go-test.json", "go-test.json"}},         // go 1.26, two packages
	{"cargo", "cargo", "cargo-test.txt", []string{"cargo-test.txt", "cargo-test.txt"}}, // cargo 1.95, lib + tests/
	{"jest", "jest", "jest.json", []string{"stdout.txt", "jest.json"}},                 // jest --verbose --json shape
	{"surefire", "surefire", "surefire.xml", []string{"stdout.txt", "surefire.xml"}},   // two TEST-*.xml concatenated
	{"node-test", "tap", "tap.txt", []string{"tap.txt", "tap.txt"}},                    // node 20 --test-reporter=tap
	{"ctest", "ctest", "c-junit.xml", []string{"stdout.txt", "c-junit.xml"}},           // CTest 3.25 --output-junit (curate-cbuild), a C project's 19 tests
}

// runCTRF runs the embedded ctrf.py as test.sh does, on a copy of the
// report at the path the runner writes it.
func runCTRF(t *testing.T, c ctrfCase) []byte {
	t.Helper()
	kind, path := ctrfReports[c.format][0], ctrfReports[c.format][1]
	if filepath.Base(path) != c.report {
		t.Fatalf("%s: ctrfReports names %s, fixture is %s", c.format, path, c.report)
	}
	dir := t.TempDir()
	script := filepath.Join(dir, "ctrf.py")
	if err := os.WriteFile(script, CTRFScript, 0o755); err != nil {
		t.Fatal(err)
	}
	report := filepath.Join(dir, c.report)
	data, err := os.ReadFile(filepath.Join("testdata", "ctrf", c.dir, c.report))
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(report, data, 0o644)
	var stderr bytes.Buffer
	cmd := exec.Command("python3", script, kind, report)
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s: ctrf.py: %v\n%s", c.format, err, stderr.String())
	}
	return out
}

// passFail is what F2P and P2P are made of: the passing and the failing
// test ids (a skipped test is in neither list).
func passFail(r *parse.Report) (pass, fail []string) {
	for id, s := range r.Tests {
		switch {
		case s.Pass():
			pass = append(pass, id)
		case s.Fail():
			fail = append(fail, id)
		}
	}
	sort.Strings(pass)
	sort.Strings(fail)
	return pass, fail
}

// Every runner's ctrf.json validates against the CTRF schema, and gold
// reading it finds the same passing and failing tests (so the same F2P and
// P2P) as gold reading the log.
func TestCTRFMatchesLogParsers(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Fatal("python3 is needed: the task images run ctrf.py with it")
	}
	for _, c := range ctrfCases {
		t.Run(c.format, func(t *testing.T) {
			out := runCTRF(t, c)
			validCTRF(t, out) // the CTRF project's schema
			if err := parse.CheckCTRF(out); err != nil {
				t.Fatalf("schema: %v\n%s", err, out)
			}
			fromCTRF, err := parse.CTRF(out)
			if err != nil {
				t.Fatal(err)
			}
			var log []byte
			for _, f := range c.log {
				data, err := os.ReadFile(filepath.Join("testdata", "ctrf", c.dir, f))
				if err != nil {
					t.Fatal(err)
				}
				log = append(append(log, data...), '\n')
			}
			fromLog := parse.Auto(log)
			p1, f1 := passFail(fromCTRF)
			p2, f2 := passFail(fromLog)
			if len(p1)+len(f1) < 3 || len(f1) == 0 {
				t.Fatalf("fixture too thin: pass %v fail %v", p1, f1)
			}
			if !reflect.DeepEqual(p1, p2) || !reflect.DeepEqual(f1, f2) {
				t.Errorf("ctrf.json and the log (%s) disagree:\n ctrf pass %v\n log  pass %v\n ctrf fail %v\n log  fail %v",
					fromLog.Framework, p1, p2, f1, f2)
			}
			// Errors stay errors and expected failures stay passes.
			for id, s := range fromLog.Tests {
				if (s == parse.Error || s == parse.XFail) && fromCTRF.Tests[id] != s {
					t.Errorf("%s: log says %s, ctrf.json %s", id, s, fromCTRF.Tests[id])
				}
			}
		})
	}
}

// Every format with a report gets the CTRF step in test.sh, and it never
// touches the test status.
func TestTestShWritesCTRF(t *testing.T) {
	for format := range ctrfReports {
		sh := TestSh("x", Runner{Command: "true", LogFormat: format}, nil, nil, nil, nil)
		step := CTRFStep(format)
		if !strings.Contains(sh, step) || !strings.Contains(step, "python3 /tests/ctrf.py "+ctrfReports[format][0]) {
			t.Errorf("%s: test.sh lacks the CTRF step:\n%s", format, sh)
		}
		if strings.Contains(step, "status") {
			t.Errorf("%s: the CTRF step must not touch $status", format)
		}
		if strings.Index(sh, step) > strings.Index(sh, "echo 1 > /logs/verifier/reward.txt") {
			t.Errorf("%s: the CTRF step runs after the reward", format)
		}
	}
	if CTRFStep("unknown-runner") != "" {
		t.Error("a log format without a report got a CTRF step")
	}
	// A missing report leaves no ctrf.json and exit status 1 for ctrf.py.
	dir := t.TempDir()
	script := filepath.Join(dir, "ctrf.py")
	os.WriteFile(script, CTRFScript, 0o755)
	if err := exec.Command("python3", script, "junit", filepath.Join(dir, "none.xml")).Run(); err == nil {
		t.Error("ctrf.py succeeded without a report")
	}
}

// test.sh forgives known failures only when it has them and its runner
// writes a report ctrf.py reads.
func TestTestShKnownFailuresStep(t *testing.T) {
	for _, c := range []struct {
		format string
		known  []string
		want   bool
	}{
		{"surefire", []string{"a.B.c"}, true},
		{"surefire", nil, false},
		{"", []string{"a.B.c"}, false},
	} {
		sh := TestSh("x", Runner{Command: "false", LogFormat: c.format}, nil, nil, c.known, nil)
		if got := strings.Contains(sh, KnownFailuresFile); got != c.want {
			t.Errorf("format %q known %v: step in test.sh = %v, want %v", c.format, c.known, got, c.want)
		}
	}
}
