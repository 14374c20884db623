package app

import (
	"context"
	"reflect"
	"testing"

	"curate/pipeline"
)

// goldLogAgain is goldLog with the fixed state run a second time, as the
// validator does for one repeat.
func goldLogAgain(buggy, fixed, again string) string {
	return goldLog(buggy, fixed) + "curate: gold: fixed (again, for stable test ids) state\ncurate: verifier: bash /tests/test.sh\n" + again
}

// yhirose/cpp-httplib 295 (TaskGen's): SSLClientServerTest.ClientCertMissing
// hung in one repeat of the fixed state and passed in the other; the 7
// FAIL_TO_PASS never changed. The flaky test and a test that never passes
// here are left out of the reward; a task whose fix breaks a test, whose
// Oracle failed on anything else, or with no FAIL_TO_PASS is not.
func TestFlakyKnownFailures(t *testing.T) {
	const (
		hang    = "tests/test_tls.py::test_client_cert_missing"
		online  = "tests/test_net.py::test_online"
		feature = "tests/test_utils.py::test_feature"
		other   = "tests/test_utils.py::test_other"
	)
	cases := []struct {
		name                string
		buggy, fixed, again string
		oracle              pipeline.Outcome
		oracleLog           string
		f2p                 []string
		wantKnown, wantFl   []string
	}{
		{"flaky in the fixed state", "FAILED " + feature + "\nPASSED " + hang + "\n", "PASSED " + feature + "\nFAILED " + hang + "\n", "PASSED " + feature + "\nPASSED " + hang + "\n",
			pipeline.OutcomeOK, "", []string{feature}, nil, []string{hang}},
		{"with a test that needs the internet", "FAILED " + feature + "\nFAILED " + online + "\nPASSED " + hang + "\n", "PASSED " + feature + "\nFAILED " + online + "\nFAILED " + hang + "\n", "PASSED " + feature + "\nFAILED " + online + "\nPASSED " + hang + "\n",
			pipeline.OutcomeOracleFailed, "PASSED " + feature + "\nFAILED " + online + "\nFAILED " + hang + "\n", []string{feature}, []string{online}, []string{hang}},
		{"oracle failed on another test", "FAILED " + feature + "\nPASSED " + hang + "\nPASSED " + other + "\n", "PASSED " + feature + "\nFAILED " + hang + "\nPASSED " + other + "\n", "PASSED " + feature + "\nPASSED " + hang + "\nPASSED " + other + "\n",
			pipeline.OutcomeOracleFailed, "PASSED " + feature + "\nFAILED " + other + "\n", []string{feature}, nil, nil},
		{"the fix breaks a test", "FAILED " + feature + "\nPASSED " + hang + "\nPASSED " + other + "\n", "PASSED " + feature + "\nFAILED " + hang + "\nFAILED " + other + "\n", "PASSED " + feature + "\nPASSED " + hang + "\nFAILED " + other + "\n",
			pipeline.OutcomeOK, "", []string{feature}, nil, nil},
		{"no FAIL_TO_PASS", "PASSED " + feature + "\nPASSED " + hang + "\n", "PASSED " + feature + "\nFAILED " + hang + "\n", "PASSED " + feature + "\nPASSED " + hang + "\n",
			pipeline.OutcomeOK, "", nil, nil, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			oracle := &pipeline.Run{Mode: pipeline.ModeOracle, Outcome: c.oracle, LogPath: writeLog(t, dir, "oracle.log", c.oracleLog)}
			gold := &pipeline.Run{ID: "g", Mode: pipeline.ModeGold, Outcome: pipeline.OutcomeFlaky, FailToPass: c.f2p, Flaky: []string{hang},
				LogPath: writeLog(t, dir, "gold.log", goldLogAgain(c.buggy, c.fixed, c.again))}
			known, flaky := flakyKnownFailures(context.Background(), dir, &pipeline.Task{ID: "t"}, oracle, gold)
			if !reflect.DeepEqual(known, c.wantKnown) || !reflect.DeepEqual(flaky, c.wantFl) {
				t.Errorf("known %v flaky %v, want %v and %v", known, flaky, c.wantKnown, c.wantFl)
			}
		})
	}
}
