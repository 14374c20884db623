package kube

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"curate/pipeline/validate"
)

// The followed log of argparse PR 395's NOP run on the cluster ended
// inside its trailer; the whole log, read again, has it.
func TestRereadLogFindsTheTrailer(t *testing.T) {
	body := "@@curate-trailer@@\n@@file /logs/verifier/reward.txt 2\n1\n\n"
	log := "curate: verifier: bash /tests/test.sh\ncurate: test status 0\n" + body + fmt.Sprintf("@@curate-trailer-end %d@@\n", len(body))
	var shown bytes.Buffer
	tap := rereadLog(&shown, func() (io.ReadCloser, error) { return io.NopCloser(strings.NewReader(log)), nil })
	res := &validate.ExecResult{}
	if err := tap.Fill(res, false); err != nil || !res.HasText || string(res.RewardText) != "1\n" {
		t.Fatalf("no reward from the whole log: %v %+v", err, res)
	}
	if !strings.Contains(shown.String(), "the result was read from the whole log") || strings.Contains(shown.String(), "test status") {
		t.Errorf("shown %q: want one line saying so, and the log not shown twice", shown.String())
	}

	shown.Reset()
	tap = rereadLog(&shown, func() (io.ReadCloser, error) { return nil, errors.New("pods \"x\" not found") })
	if tap.Found() || !strings.Contains(shown.String(), "reading it again failed: pods \"x\" not found") {
		t.Errorf("a failed read: found %v, shown %q", tap.Found(), shown.String())
	}
}
