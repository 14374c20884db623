package app

import (
	"strconv"
	"testing"
)

// A check's run id names its process: recovery keeps the Job or
// container of a check whose curate runs and removes one whose curate
// died; ids of validation runs are not checks'.
func TestEnvCheckRunIDNamesItsProcess(t *testing.T) {
	if id := envCheckRunID(); !envCheckAlive(id) {
		t.Errorf("%s: this process's check counted as dead", id)
	}
	if a, b := envCheckRunID(), envCheckRunID(); a == b {
		t.Errorf("two executions got one id: %s", a)
	}
	for _, id := range []string{"envcheck-" + strconv.Itoa(1<<30) + "-0a1b2c3d", "envcheck-x-0a", "run-20261129-1", ""} {
		if envCheckAlive(id) {
			t.Errorf("%q counted as a live check", id)
		}
	}
}
