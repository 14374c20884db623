package validate

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"curate/pipeline"
	"curate/pipeline/validate/parse"
)

// A gold run flaky only on tests the task lists as known failures (an
// earlier gold run found them flaky) is valid; a flaky test it does not
// list, or no FAIL_TO_PASS, keeps it flaky.
func TestLeaveOutKnownFlaky(t *testing.T) {
	const hang, feature = "SSLClientServerTest.ClientCertMissing", "ServerTest.Feature"
	cases := []struct {
		name  string
		known map[string]bool
		f2p   []string
		want  pipeline.Outcome
	}{
		{"listed", map[string]bool{hang: true}, []string{feature}, pipeline.OutcomeOK},
		{"not listed", map[string]bool{"Other.Test": true}, []string{feature}, pipeline.OutcomeFlaky},
		{"no list", map[string]bool{}, []string{feature}, pipeline.OutcomeFlaky},
		{"no FAIL_TO_PASS", map[string]bool{hang: true}, nil, pipeline.OutcomeFlaky},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			run := &pipeline.Run{}
			buggy := rep(feature, "FAILED", hang, "PASSED")
			if c.f2p == nil {
				buggy = rep(feature, "PASSED", hang, "PASSED")
			}
			summarize(ModeGold, []attempt{{outcome: pipeline.OutcomeOK, buggy: buggy,
				fixed: rep(feature, "PASSED", hang, "FAILED"), again: rep(feature, "PASSED", hang, "PASSED")}}, run)
			if run.Outcome != pipeline.OutcomeFlaky {
				t.Fatalf("before forgiving: %s, want flaky", run.Outcome)
			}
			leaveOutKnown(run, c.known)
			if run.Outcome != c.want || !reflect.DeepEqual(run.FailToPass, c.f2p) || !reflect.DeepEqual(run.Flaky, []string{hang}) {
				t.Errorf("%s f2p %v flaky %v (%s), want %s", run.Outcome, run.FailToPass, run.Flaky, run.Detail, c.want)
			}
		})
	}
}

// yhirose/cpp-httplib 295 validated again with its flaky test listed:
// SSLClientServerTest.ClientCertMissing hung before the fix and passed in
// both runs after it, so gold read it as a FAIL_TO_PASS (8, not 7). A
// listed test is in neither list; one that leaves no FAIL_TO_PASS keeps
// the task from being valid.
func TestLeaveOutKnownFromTheLists(t *testing.T) {
	const hang, feature, keep = "SSLClientServerTest.ClientCertMissing", "ServerTest.Feature", "ServerTest.Keep"
	for _, c := range []struct {
		name  string
		buggy *parse.Report
		want  pipeline.Outcome
		f2p   []string
		p2p   []string
	}{
		{"another FAIL_TO_PASS", rep(feature, "FAILED", hang, "FAILED", keep, "PASSED"), pipeline.OutcomeOK, []string{feature}, []string{keep}},
		{"no other FAIL_TO_PASS", rep(feature, "PASSED", hang, "FAILED", keep, "PASSED"), pipeline.OutcomeFlaky, []string{}, []string{feature, keep}},
	} {
		t.Run(c.name, func(t *testing.T) {
			run := &pipeline.Run{}
			fixed := rep(feature, "PASSED", hang, "PASSED", keep, "PASSED")
			summarize(ModeGold, []attempt{{outcome: pipeline.OutcomeOK, buggy: c.buggy, fixed: fixed, again: fixed}}, run)
			if run.Outcome != pipeline.OutcomeOK || !slices.Contains(run.FailToPass, hang) {
				t.Fatalf("before: %s %v", run.Outcome, run.FailToPass)
			}
			leaveOutKnown(run, map[string]bool{hang: true})
			if run.Outcome != c.want || !reflect.DeepEqual(run.FailToPass, c.f2p) || !reflect.DeepEqual(run.PassToPass, c.p2p) {
				t.Errorf("%s f2p %v p2p %v (%s), want %s %v", run.Outcome, run.FailToPass, run.PassToPass, run.Detail, c.want, c.f2p)
			}
		})
	}
	// A known failure that is in no list changes nothing, the detail
	// included.
	run := &pipeline.Run{}
	summarize(ModeGold, []attempt{{outcome: pipeline.OutcomeOK, buggy: rep(feature, "FAILED", hang, "FAILED"),
		fixed: rep(feature, "PASSED", hang, "FAILED"), again: rep(feature, "PASSED", hang, "FAILED")}}, run)
	before := *run
	leaveOutKnown(run, map[string]bool{hang: true})
	if !reflect.DeepEqual(*run, before) {
		t.Errorf("changed: %+v, was %+v", *run, before)
	}
}

// The list is read from the task's tests/known_failures.txt, a regular
// file only: a task directory may come from anyone.
func TestReadKnownFailures(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "tests"), 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, pipeline.KnownFailuresFile)
	if err := os.WriteFile(path, []byte("A.b\n\n  C.d  \n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := readKnownFailures(dir); !reflect.DeepEqual(got, map[string]bool{"A.b": true, "C.d": true}) {
		t.Errorf("read %v", got)
	}
	outside := filepath.Join(t.TempDir(), "names")
	if err := os.WriteFile(outside, []byte("E.f\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	os.Remove(path)
	if err := os.Symlink(outside, path); err != nil {
		t.Fatal(err)
	}
	if got := readKnownFailures(dir); len(got) != 0 {
		t.Errorf("a link was followed: %v", got)
	}
	if got := readKnownFailures(t.TempDir()); len(got) != 0 {
		t.Errorf("no file: %v", got)
	}
}
