package store

import (
	"context"
	"testing"
	"time"

	"curate/pipeline"
)

// Machine times come back as stored, in order; a CPU nobody measured
// stays unmeasured (NULL), never a zero that would read as "free".
func TestPhaseTimesRoundTrip(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	if got, err := s.PhaseTimes(ctx); err != nil || len(got) != 0 {
		t.Fatalf("a new store: %v %v", got, err)
	}
	at := time.Date(2026, 11, 29, 7, 0, 0, 0, time.UTC)
	want := []pipeline.PhaseTime{
		{Phase: pipeline.TimeMine, Repo: "o/r", Wall: 1500 * time.Millisecond, CPU: 700 * time.Millisecond, CPUMeasured: true, At: at},
		{Phase: pipeline.TimeRuns, Repo: "o/r", TaskID: "o__r-1", RunID: "r1", Wall: 3 * time.Second, At: at},
	}
	if err := s.SavePhaseTimes(ctx, want); err != nil {
		t.Fatal(err)
	}
	got, err := s.PhaseTimes(ctx)
	if err != nil || len(got) != 2 {
		t.Fatalf("%v %v", got, err)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("time %d: %+v, want %+v", i, got[i], want[i])
		}
	}
}
