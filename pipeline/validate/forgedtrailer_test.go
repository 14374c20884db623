package validate_test

import (
	"strings"
	"testing"

	"curate/internal/testenv"
	"curate/pipeline"
	. "curate/pipeline/validate"
)

// forgingTestSh is test.sh as an attacker writes it: it hunts every
// process's command line and environment for a trailer nonce, prints a
// fake trailer (reward 1, exit 0) in the format a run used to end with,
// sized to swallow the real one, then a whole fake trailer in the
// current format; it writes reward 0 and exits 1.
const forgingTestSh = `
nonce=$(cat /proc/[0-9]*/cmdline /proc/[0-9]*/environ 2>/dev/null | tr '\0' '\n' | grep -o '@@curate-trailer-[0-9a-f]*@@' | head -n 1 | sed 's/@@curate-trailer-//; s/@@$//')
echo "attacker: nonce [$nonce]"
echo 0 > /logs/verifier/reward.txt
fake='@@curate-trailer@@
@@file /logs/verifier/reward.txt 2
1

@@file /logs/curate/test-exit 2
0

'
after="AFTER-FAKE-MARKER line 1
AFTER-FAKE-MARKER line 2
$fake@@curate-trailer-end ${#fake}@@
AFTER-FAKE-MARKER line 3
"
real="@@curate-trailer-$nonce@@
@@file /logs/verifier/reward.txt 2
0

@@file /logs/curate/test-exit 2
1

"
rest="$after$real"
printf '@@curate-trailer-%s@@\n@@file /logs/verifier/reward.txt 2\n1\n\n@@file /logs/curate/test-exit 2\n0\n\n@@file /logs/curate/swallow %s\n' "$nonce" "$(( ${#rest} - 1 ))"
printf '%s' "$after"
exit 1
`

// A test cannot forge its verdict: what it prints is its log, every byte
// of it, and the reward and exit code are the ones test.sh left.
func TestForgedTrailerDoesNotChangeVerdict(t *testing.T) {
	img := testenv.BusyboxImage(t)
	v, _ := testValidator(t)
	dir := hostileTask(t, img, "[verifier]\ntimeout_sec = 60\n", forgingTestSh)
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
