package app

import (
	"context"
	"fmt"

	"curate/pipeline"
	"curate/store"
)

// Review is a human review to record (SWE-bench Verified shape); a nil
// field is left as it is, "" clears it.
type Review struct {
	Underspecified, FalseNegative, FixTime, Comment *string
}

// Empty reports whether the review sets nothing.
func (r Review) Empty() bool {
	return r.Underspecified == nil && r.FalseNegative == nil && r.FixTime == nil && r.Comment == nil
}

// ReviewChanges checks r and returns its label changes on each task, the
// reviewer included, for one batch in the event log. `curate label` adds
// them to its other changes; the workbench records them with SetReview.
func ReviewChanges(ids []string, r Review, reviewer string) ([]pipeline.Change, error) {
	var fields [][2]string
	for _, f := range []struct {
		name string
		v    *string
	}{
		{pipeline.FieldUnderspecified, r.Underspecified},
		{pipeline.FieldFalseNegative, r.FalseNegative},
		{pipeline.FieldFixTime, r.FixTime},
		{pipeline.FieldReviewComment, r.Comment},
	} {
		if f.v == nil {
			continue
		}
		v, err := pipeline.NormalizeLabel(f.name, *f.v)
		if err != nil {
			return nil, err
		}
		fields = append(fields, [2]string{f.name, v})
	}
	if len(fields) == 0 {
		return nil, nil
	}
	fields = append(fields, [2]string{pipeline.FieldReviewer, reviewer})
	changes := make([]pipeline.Change, 0, len(ids)*len(fields))
	for _, id := range ids {
		for _, f := range fields {
			changes = append(changes, pipeline.Change{TaskID: id, Field: f[0], New: f[1]})
		}
	}
	return changes, nil
}

// SetReview records r on the tasks as one undo step.
func SetReview(ctx context.Context, st *store.Store, reviewer string, ids []string, r Review) ([]pipeline.Event, error) {
	if r.Empty() {
		return nil, fmt.Errorf("review: nothing to set")
	}
	changes, err := ReviewChanges(ids, r, reviewer)
	if err != nil {
		return nil, err
	}
	return st.Label(ctx, reviewer, changes)
}
