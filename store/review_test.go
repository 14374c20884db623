package store

import (
	"context"
	"strings"
	"testing"

	"curate/pipeline"
)

// The review fields are label columns: stored, listed, undone as one batch.
func TestReviewLabelsRoundTripAndUndo(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	seed(t, s, "a", "b")
	var changes []pipeline.Change
	for _, id := range []string{"a", "b"} {
		for _, f := range [][2]string{{pipeline.FieldUnderspecified, "2"}, {pipeline.FieldFalseNegative, "0"},
			{pipeline.FieldFixTime, "1H-4H"}, {pipeline.FieldReviewComment, "vague issue"}, {pipeline.FieldReviewer, "ann"}} {
			changes = append(changes, pipeline.Change{TaskID: id, Field: f[0], New: f[1]})
		}
	}
	ev, err := s.Label(ctx, "ann", changes)
	if err != nil || len(ev) != 10 || ev[0].Batch != ev[9].Batch {
		t.Fatalf("review label: %v %+v", err, ev)
	}
	want := pipeline.Labels{Underspecified: "2", FalseNegative: "0", FixTime: "1h-4h", ReviewComment: "vague issue", Reviewer: "ann"}
	one, _ := s.Task(ctx, "a")
	list, _ := s.Tasks(ctx)
	for _, got := range []pipeline.Labels{one.Labels, list[0].Labels, list[1].Labels} {
		if got != want {
			t.Fatalf("labels %+v, want %+v", got, want)
		}
	}
	if !one.Labels.Flagged() {
		t.Fatal("underspecified 2 must flag the task")
	}
	if _, err := s.Undo(ctx, "ann"); err != nil {
		t.Fatal(err)
	}
	after, _ := s.Task(ctx, "b")
	if after.Labels.Reviewed() || after.Labels.Reviewer != "" {
		t.Fatalf("undo left a review: %+v", after.Labels)
	}
	if _, err := s.Redo(ctx, "ann"); err != nil {
		t.Fatal(err)
	}
	if again, _ := s.Task(ctx, "b"); again.Labels != want {
		t.Fatalf("redo: %+v", again.Labels)
	}
}

func TestReviewValuesOutOfRangeRefused(t *testing.T) {
	s := openTemp(t)
	seed(t, s, "a")
	for _, c := range []pipeline.Change{
		{TaskID: "a", Field: pipeline.FieldUnderspecified, New: "4"},
		{TaskID: "a", Field: pipeline.FieldFalseNegative, New: "-1"},
		{TaskID: "a", Field: pipeline.FieldFixTime, New: "2h"},
	} {
		_, err := s.Label(context.Background(), "me", []pipeline.Change{c})
		if err == nil || !strings.Contains(err.Error(), "must be") {
			t.Errorf("%+v: got %v", c, err)
		}
	}
}
