package validate_test

import (
	"reflect"
	"strings"
	"testing"

	"curate/internal/testenv"
	"curate/pipeline"
	. "curate/pipeline/validate"
)

// In Docker: a gold run of one attempt whose fixed state names its tests
// "value is fixed" and "app exists" runs each state once and says why.
func TestGoldPlainIDsRunTheFixedStateOnceInDocker(t *testing.T) {
	img := testenv.BusyboxImage(t)
	v, _ := testValidator(t)
	v.Runs = 1
	run := validateOne(t, v, fixtureTask(t, "bb-valid", img), ModeGold)
	log := logOf(t, run)
	if run.Outcome != pipeline.OutcomeOK || !reflect.DeepEqual(run.FailToPass, []string{"value is fixed"}) {
		t.Fatalf("outcome %s F2P %v: %s\n%s", run.Outcome, run.FailToPass, run.Detail, log)
	}
	if strings.Contains(log, "fixed (again") || !strings.Contains(log, "plain name") {
		t.Fatalf("the fixed state ran again, or no line said why not:\n%s", log)
	}
}
