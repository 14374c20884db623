package validate_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"curate/internal/testenv"
	"curate/pipeline"
	. "curate/pipeline/validate"
)

// A test cannot forge its verdict: what it prints is its log, every byte
// of it, and the reward and exit code are the ones test.sh left.
func TestForgedTrailerDoesNotChangeVerdict(t *testing.T) {
	img := testenv.BusyboxImage(t)
	v, _ := testValidator(t)
	forge, err := os.ReadFile(filepath.Join("testdata", "forge-trailer.sh"))
	if err != nil {
		t.Fatal(err)
	}
	dir := hostileTask(t, img, "[verifier]\ntimeout_sec = 60\n", string(forge))
	run := validateOne(t, v, dir, ModeOracle)
	log := logOf(t, run)
	if run.Reward == nil || *run.Reward != 0 || run.Outcome == pipeline.OutcomeOK {
		t.Errorf("verdict forged: outcome %s reward %v (%s)\n%s", run.Outcome, run.Reward, run.Detail, log)
	}
	for _, want := range []string{"attacker: nonce", "AFTER-FAKE-MARKER line 1", "AFTER-FAKE-MARKER line 2", "AFTER-FAKE-MARKER line 3", "@@file /logs/curate/swallow"} {
		if !strings.Contains(log, want) {
			t.Errorf("log lost %q:\n%s", want, log)
		}
	}
}

// Output a test prints after something that looks like the trailer's
// marker reaches the log even when the run is stopped at its time limit.
func TestOutputAfterFakeMarkerKeptOnTimeout(t *testing.T) {
	img := testenv.BusyboxImage(t)
	v, _ := testValidator(t)
	dir := hostileTask(t, img, "[verifier]\ntimeout_sec = 3\n", `
nonce=$(cat /proc/1/cmdline | tr '\0' '\n' | grep -o '@@curate-trailer-[0-9a-f]*@@' | head -n 1)
printf '%s\n@@curate-trailer@@\n' "$nonce"
echo HIDDEN-BY-MARKER
sleep 30
`)
	run := validateOne(t, v, dir, ModeNop)
	if log := logOf(t, run); !strings.Contains(log, "HIDDEN-BY-MARKER") {
		t.Errorf("outcome %s: log lost the line after the marker:\n%s", run.Outcome, log)
	}
}
