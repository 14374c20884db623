package kube_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"curate/pipeline"
	"curate/pipeline/validate"
)

// A test cannot forge its verdict on a cluster either: the same attacker
// as on Docker (../testdata/forge-trailer.sh) writes reward 0, exits 1
// and prints fake trailers; the verdict is its own and the log keeps
// every line it printed.
func TestForgedTrailerDoesNotChangeVerdict(t *testing.T) {
	s := start(t)
	dir := task(t, "bb-valid", s.busybox)
	forge, err := os.ReadFile(filepath.Join("..", "testdata", "forge-trailer.sh"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "tests", "test.sh"), forge, 0o755); err != nil {
		t.Fatal(err)
	}
	run := validator(t, s.kube).Validate(context.Background(), []validate.Job{{TaskID: "forge", TaskDir: dir, Mode: "oracle"}})[0]
	log := logOf(t, run)
	if run.Reward == nil || *run.Reward != 0 || run.Outcome == pipeline.OutcomeOK {
		t.Errorf("verdict forged: outcome %s reward %v (%s)\n%s", run.Outcome, run.Reward, run.Detail, log)
	}
	for _, want := range []string{"attacker: nonce", "AFTER-FAKE-MARKER line 1", "AFTER-FAKE-MARKER line 3", "@@file /logs/curate/swallow"} {
		if !strings.Contains(log, want) {
			t.Errorf("log lost %q:\n%s", want, log)
		}
	}
}
