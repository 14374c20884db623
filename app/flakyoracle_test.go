package app

import (
	"context"
	"strings"
	"testing"

	"curate/pipeline"
)

// An Oracle failure whose tests all passed in gold's fixed state on the
// same files is flakiness; one that gold saw fail too, or that gold did
// not run, is not.
func TestFlakyOracleEvidence(t *testing.T) {
	const (
		pager   = "tests/test_utils.py::test_echo_via_pager[test6-less]"
		feature = "tests/test_utils.py::test_feature"
	)
	cases := []struct {
		name, fixed, oracleLog string
		goldDigest             string
		want                   string // a part of the evidence, "" for none
	}{
		{"passed in gold", "PASSED " + pager + "\nPASSED " + feature + "\n", "FAILED " + pager + "\nPASSED " + feature + "\n", "d", pager + " failed in Oracle"},
		{"failed in gold too", "FAILED " + pager + "\nPASSED " + feature + "\n", "FAILED " + pager + "\nPASSED " + feature + "\n", "d", ""},
		{"not run by gold", "PASSED " + feature + "\n", "FAILED " + pager + "\nPASSED " + feature + "\n", "d", ""},
		{"other files", "PASSED " + pager + "\nPASSED " + feature + "\n", "FAILED " + pager + "\nPASSED " + feature + "\n", "e", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			write := func(name, body string) string { return writeLog(t, dir, name, body) }
			latest := map[string]*pipeline.Run{
				pipeline.ModeOracle: {ID: "o", Mode: pipeline.ModeOracle, Outcome: pipeline.OutcomeOracleFailed, Digest: "d",
					LogPath: write("oracle.log", c.oracleLog), Failure: &pipeline.Failure{Class: pipeline.ClassFixFailsTests}},
				pipeline.ModeGold: {ID: "g", Mode: pipeline.ModeGold, Outcome: pipeline.OutcomeOK, Digest: c.goldDigest, FailToPass: []string{feature},
					LogPath: write("gold.log", goldLog("FAILED "+feature+"\n", c.fixed))},
			}
			got := flakyOracleEvidence(context.Background(), dir, &pipeline.Task{ID: "t"}, latest)
			if (c.want == "") != (got == "") || !strings.Contains(got, c.want) {
				t.Errorf("evidence %q, want one with %q", got, c.want)
			}
		})
	}
}
