package app

import (
	"reflect"
	"testing"

	"curate/pipeline"
)

// TestEnvironmentNotes: the plan's notes, then the image build's (as
// decoded from the store), each said to be the image build's.
func TestEnvironmentNotes(t *testing.T) {
	task := &pipeline.Task{Extra: map[string]any{
		EnvironmentNotesKey:      []any{"node 22", "dependencies: npm ci"},
		pipeline.ExtraBuildNotes: []any{"top-sites 1.1.222 installed instead"},
	}}
	want := []string{"node 22", "dependencies: npm ci", "image build: top-sites 1.1.222 installed instead"}
	if got := EnvironmentNotes(task); !reflect.DeepEqual(got, want) {
		t.Fatalf("EnvironmentNotes = %q, want %q", got, want)
	}
}
