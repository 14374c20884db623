package pipeline

import (
	"fmt"
	"strings"
	"time"
)

// Label fields an Event can change.
const (
	FieldDifficulty = "difficulty"
	FieldPhase      = "phase"
	FieldCategory   = "category"
	FieldNote       = "note"
	FieldExcluded   = "excluded"
	FieldPinned     = "pinned"
)

// LabelFields lists the fields a curator can label.
var LabelFields = append([]string{FieldDifficulty, FieldPhase, FieldCategory, FieldNote, FieldExcluded, FieldPinned}, ReviewFields...)

// Event kinds: a curator's change, the inverse appended by undo, and the
// re-application appended by redo. History is never deleted.
const (
	EventLabel = "label"
	EventUndo  = "undo"
	EventRedo  = "redo"
)

// Event is one field change on one task, part of a batch (one curator
// action, which may touch many tasks; undo reverts a whole batch).
type Event struct {
	Seq    int64     `json:"seq"`
	Batch  int64     `json:"batch"`
	Kind   string    `json:"kind"`
	Ref    int64     `json:"ref,omitempty"` // the batch an undo/redo reverts or re-applies
	Time   time.Time `json:"time"`
	Actor  string    `json:"actor"`
	TaskID string    `json:"task_id"`
	Field  string    `json:"field"`
	Old    string    `json:"old"`
	New    string    `json:"new"`
	Note   string    `json:"note,omitempty"`
}

// Change is a requested label change on one task (the store fills Old).
type Change struct {
	TaskID string
	Field  string
	New    string
	Note   string
}

// NormalizeLabel validates a label value for a field and returns its
// canonical form ("" clears a label; booleans are "true"/"false").
func NormalizeLabel(field, value string) (string, error) {
	switch field {
	case FieldDifficulty:
		d, err := ParseDifficulty(value)
		return string(d), err
	case FieldPhase:
		if value == "" {
			return "", nil
		}
		return ParsePhase(value)
	case FieldCategory, FieldNote, FieldReviewComment, FieldReviewer:
		return value, nil
	case FieldInstruction:
		return strings.TrimSpace(value), nil
	case FieldTestsDropped:
		return normalizeDropped(value)
	case FieldUnderspecified, FieldFalseNegative:
		return normalizeScore(field, value)
	case FieldFixTime:
		return normalizeFixTime(value)
	case FieldExcluded, FieldPinned:
		switch value {
		case "true", "false":
			return value, nil
		}
		return "", fmt.Errorf("%s must be true or false, not %q", field, value)
	}
	return "", fmt.Errorf("unknown label field %q (fields: %s)", field, strings.Join(LabelFields, ", "))
}
