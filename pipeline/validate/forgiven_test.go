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
		known []string
		f2p   []string
		want  pipeline.Outcome
	}{
		{"listed", []string{hang}, []string{feature}, pipeline.OutcomeOK},
		{"not listed", []string{"Other.Test"}, []string{feature}, pipeline.OutcomeFlaky},
		{"no list", nil, []string{feature}, pipeline.OutcomeFlaky},
		{"no FAIL_TO_PASS", []string{hang}, nil, pipeline.OutcomeFlaky},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			run := &pipeline.Run{}
			buggy := rep(feature, "FAILED", hang, "PASSED")
			if c.f2p == nil {
				buggy = rep(feature, "PASSED", hang, "PASSED")
			}
			summarize(ModeGold, []attempt{{outcome: pipeline.OutcomeOK, buggy: buggy,
				fixed: rep(feature, "PASSED", hang, "FAILED"), again: rep(feature, "PASSED", hang, "PASSED")}}, run, nil)
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
			summarize(ModeGold, []attempt{{outcome: pipeline.OutcomeOK, buggy: c.buggy, fixed: fixed, again: fixed}}, run, nil)
			if run.Outcome != pipeline.OutcomeOK || !slices.Contains(run.FailToPass, hang) {
				t.Fatalf("before: %s %v", run.Outcome, run.FailToPass)
			}
			leaveOutKnown(run, []string{hang})
			if run.Outcome != c.want || !reflect.DeepEqual(run.FailToPass, c.f2p) || !reflect.DeepEqual(run.PassToPass, c.p2p) {
				t.Errorf("%s f2p %v p2p %v (%s), want %s %v", run.Outcome, run.FailToPass, run.PassToPass, run.Detail, c.want, c.f2p)
			}
		})
	}
	// A known failure that is in no list changes nothing, the detail
	// included.
	run := &pipeline.Run{}
	summarize(ModeGold, []attempt{{outcome: pipeline.OutcomeOK, buggy: rep(feature, "FAILED", hang, "FAILED"),
		fixed: rep(feature, "PASSED", hang, "FAILED"), again: rep(feature, "PASSED", hang, "FAILED")}}, run, nil)
	before := *run
	leaveOutKnown(run, []string{hang})
	if !reflect.DeepEqual(*run, before) {
		t.Errorf("changed: %+v, was %+v", *run, before)
	}
}

// Gold leaves out what earlier gold runs found (known failures, flaky
// tests), not the curator's drops: gold must still report a dropped test
// so that RecordResults keeps it as dropped and an undo can give it back.
// Before, gold read tests/known_failures.txt, which lists the drops too,
// so a validation after a drop lost FAIL_TO_PASS_dropped for good.
func TestGoldKeepsTheCuratorsDrops(t *testing.T) {
	const feature, dropped, known, hang = "A.feature", "A.overspecified", "A.online", "A.hang"
	root := t.TempDir()
	dir := filepath.Join(root, "tasks", "t1")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "task.toml"), []byte("version = \"1.0\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	task := &pipeline.Task{ID: "t1", TaskDir: dir, Extra: map[string]any{
		"FAIL_TO_PASS":              []string{feature},
		"FAIL_TO_PASS_dropped":      []string{dropped},
		pipeline.ExtraKnownFailures: []any{known},
		pipeline.ExtraFlakyTests:    []string{hang},
	}}
	task.Labels.TestsDropped = pipeline.EncodeDropped([]pipeline.DroppedTest{{Test: dropped, List: "FAIL_TO_PASS", Reason: "over-specified"}})
	jobs, skips := Jobs(root, []*pipeline.Task{task}, []string{ModeGold})
	if len(jobs) != 1 || len(skips) != 0 {
		t.Fatalf("jobs %v skips %v", jobs, skips)
	}
	if want := []string{known, hang}; !reflect.DeepEqual(jobs[0].LeftOut, want) {
		t.Fatalf("left out %v, want %v", jobs[0].LeftOut, want)
	}
	run := &pipeline.Run{Outcome: pipeline.OutcomeOK, FailToPass: []string{feature, dropped, known}}
	leaveOutKnown(run, jobs[0].LeftOut)
	if want := []string{feature, dropped}; !reflect.DeepEqual(run.FailToPass, want) {
		t.Errorf("FAIL_TO_PASS %v, want %v", run.FailToPass, want)
	}
	kept, gone := task.Labels.Keep("FAIL_TO_PASS", run.FailToPass)
	if !reflect.DeepEqual(kept, []string{feature}) || !reflect.DeepEqual(gone, []string{dropped}) {
		t.Errorf("kept %v dropped %v", kept, gone)
	}
}
