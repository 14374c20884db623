package pipeline

import (
	"reflect"
	"testing"
)

// A required test the task forgives (a known failure, or one a curator
// dropped) is not required; nor is a name a one-line list cannot hold.
func TestRequiredTestsLeaveOutWhatTheTaskForgives(t *testing.T) {
	task := &Task{Extra: map[string]any{
		ExtraRequiredTests: []any{"a.new", "a.jdk", "a.dropped", "two\nlines", " ", "a.new"},
		ExtraKnownFailures: []string{"a.jdk"},
	}}
	task.Labels.TestsDropped = EncodeDropped([]DroppedTest{{Test: "a.dropped", List: "FAIL_TO_PASS", Reason: "environment"}})
	if got, want := RequiredTests(task), []string{"a.new"}; !reflect.DeepEqual(got, want) {
		t.Errorf("required %v, want %v", got, want)
	}
}
