package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"curate/pipeline"
)

// ErrNothingToUndo and ErrNothingToRedo report an empty undo or redo stack.
var (
	ErrNothingToUndo = errors.New("nothing to undo")
	ErrNothingToRedo = errors.New("nothing to redo")
)

// labelColumn maps a label field to its column in tasks.
var labelColumn = map[string]string{
	pipeline.FieldDifficulty: "label_difficulty",
	pipeline.FieldPhase:      "label_phase",
	pipeline.FieldCategory:   "label_category",
	pipeline.FieldNote:       "label_note",
	pipeline.FieldExcluded:   "excluded",
	pipeline.FieldPinned:     "pinned",

	pipeline.FieldUnderspecified: "review_underspecified",
	pipeline.FieldFalseNegative:  "review_false_negative",
	pipeline.FieldFixTime:        "review_fix_time",
	pipeline.FieldReviewComment:  "review_comment",
	pipeline.FieldReviewer:       "reviewer",

	pipeline.FieldInstruction:  "label_instruction",
	pipeline.FieldTestsDropped: "label_tests_dropped",
}

// Label applies the changes as one batch (one undo step) in one
// transaction, appending an event per field that actually changes. Values
// are validated first; an unknown task aborts the whole batch.
func (s *Store) Label(ctx context.Context, actor string, changes []pipeline.Change) ([]pipeline.Event, error) {
	norm, err := normalizeLabels(changes)
	if err != nil {
		return nil, err
	}
	var out []pipeline.Event
	err = s.tx(ctx, func(tx *sql.Tx) error {
		var err error
		out, err = applyBatch(ctx, tx, actor, pipeline.EventLabel, 0, norm, true)
		return err
	})
	return out, err
}

func normalizeLabels(changes []pipeline.Change) ([]pipeline.Change, error) {
	norm := make([]pipeline.Change, len(changes))
	for i, c := range changes {
		v, err := pipeline.NormalizeLabel(c.Field, c.New)
		if err != nil {
			return nil, fmt.Errorf("label %s: %w", c.TaskID, err)
		}
		c.New = v
		norm[i] = c
	}
	return norm, nil
}

// PreviewLabel is Label without writing: the events Label would write now
// (no-ops left out), without sequence or batch numbers.
func (s *Store) PreviewLabel(ctx context.Context, actor string, changes []pipeline.Change) ([]pipeline.Event, error) {
	norm, err := normalizeLabels(changes)
	if err != nil {
		return nil, err
	}
	tx, err := s.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	return applyBatch(ctx, tx, actor, pipeline.EventLabel, 0, norm, false)
}

// applyBatch writes one batch of changes inside tx (or, write false, only
// says what it would write). A batch whose changes are all no-ops writes
// nothing.
func applyBatch(ctx context.Context, tx *sql.Tx, actor, kind string, ref int64, changes []pipeline.Change, write bool) ([]pipeline.Event, error) {
	now := time.Now().UTC()
	var batch int64
	var out []pipeline.Event
	for _, c := range changes {
		col, ok := labelColumn[c.Field]
		if !ok {
			return nil, fmt.Errorf("label %s: unknown field %q", c.TaskID, c.Field)
		}
		old, err := currentLabel(ctx, tx, c.TaskID, col)
		if err == sql.ErrNoRows {
			return nil, fmt.Errorf("label: task %q: %w in this workspace (see `curate list`)", c.TaskID, ErrNotFound)
		}
		if err != nil {
			return nil, fmt.Errorf("label %s: %w", c.TaskID, err)
		}
		if old == c.New {
			continue
		}
		if !write {
			out = append(out, pipeline.Event{Kind: kind, Ref: ref, Time: now, Actor: actor, TaskID: c.TaskID, Field: c.Field, Old: old, New: c.New, Note: c.Note})
			continue
		}
		if batch == 0 {
			res, err := tx.ExecContext(ctx, "INSERT INTO batches (kind, ref, time, actor) VALUES (?,?,?,?)", kind, ref, now.Format(timeFormat), actor)
			if err != nil {
				return nil, err
			}
			batch, _ = res.LastInsertId()
		}
		if err := setLabel(ctx, tx, c.TaskID, c.Field, col, c.New, c.Note); err != nil {
			return nil, err
		}
		res, err := tx.ExecContext(ctx, "INSERT INTO events (batch, time, actor, task_id, field, old, new, note) VALUES (?,?,?,?,?,?,?,?)",
			batch, now.Format(timeFormat), actor, c.TaskID, c.Field, old, c.New, c.Note)
		if err != nil {
			return nil, err
		}
		seq, _ := res.LastInsertId()
		out = append(out, pipeline.Event{Seq: seq, Batch: batch, Kind: kind, Ref: ref, Time: now, Actor: actor,
			TaskID: c.TaskID, Field: c.Field, Old: old, New: c.New, Note: c.Note})
	}
	return out, nil
}

func currentLabel(ctx context.Context, tx *sql.Tx, id, col string) (string, error) {
	var v any
	if err := tx.QueryRowContext(ctx, "SELECT "+col+" FROM tasks WHERE id = ?", id).Scan(&v); err != nil {
		return "", err
	}
	switch x := v.(type) {
	case int64:
		if x != 0 {
			return "true", nil
		}
		return "false", nil
	case string:
		return x, nil
	}
	return fmt.Sprint(v), nil
}

func setLabel(ctx context.Context, tx *sql.Tx, id, field, col, value, note string) error {
	var arg any = value
	if field == pipeline.FieldExcluded || field == pipeline.FieldPinned {
		arg = value == "true"
	}
	q := "UPDATE tasks SET " + col + " = ? WHERE id = ?"
	args := []any{arg, id}
	if field == pipeline.FieldExcluded {
		// The reason travels with the exclusion and goes when it is lifted.
		reason := note
		if value != "true" {
			reason = ""
		}
		q = "UPDATE tasks SET excluded = ?, exclude_reason = ? WHERE id = ?"
		args = []any{arg, reason, id}
	}
	if _, err := tx.ExecContext(ctx, q, args...); err != nil {
		return fmt.Errorf("label %s: %w", id, err)
	}
	return nil
}

// stacks replays the batch log into undo and redo stacks of label batch
// ids, the way an editor's history behaves: a new change clears redo.
func stacks(ctx context.Context, tx *sql.Tx) (undo, redo []int64, err error) {
	rows, err := tx.QueryContext(ctx, "SELECT id, kind, ref FROM batches ORDER BY id")
	if err != nil {
		return nil, nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var id, ref int64
		var kind string
		if err := rows.Scan(&id, &kind, &ref); err != nil {
			return nil, nil, err
		}
		switch kind {
		case pipeline.EventLabel:
			undo = append(undo, id)
			redo = redo[:0]
		case pipeline.EventUndo:
			if n := len(undo); n > 0 {
				undo = undo[:n-1]
			}
			redo = append(redo, ref)
		case pipeline.EventRedo:
			if n := len(redo); n > 0 {
				redo = redo[:n-1]
			}
			undo = append(undo, ref)
		}
	}
	return undo, redo, rows.Err()
}

// Undo reverts the newest label batch not yet undone by appending its
// inverse as a new batch. History is never deleted.
func (s *Store) Undo(ctx context.Context, actor string) ([]pipeline.Event, error) {
	return s.replay(ctx, actor, pipeline.EventUndo)
}

// Redo re-applies the batch the newest undo reverted (the undo of an undo).
func (s *Store) Redo(ctx context.Context, actor string) ([]pipeline.Event, error) {
	return s.replay(ctx, actor, pipeline.EventRedo)
}

func (s *Store) replay(ctx context.Context, actor, kind string) ([]pipeline.Event, error) {
	var out []pipeline.Event
	err := s.tx(ctx, func(tx *sql.Tx) error {
		undo, redo, err := stacks(ctx, tx)
		if err != nil {
			return err
		}
		stack, empty := undo, ErrNothingToUndo
		if kind == pipeline.EventRedo {
			stack, empty = redo, ErrNothingToRedo
		}
		if len(stack) == 0 {
			return empty
		}
		target := stack[len(stack)-1]
		evs, err := batchEvents(ctx, tx, target)
		if err != nil {
			return err
		}
		changes := make([]pipeline.Change, 0, len(evs))
		if kind == pipeline.EventUndo {
			for i := len(evs) - 1; i >= 0; i-- {
				changes = append(changes, pipeline.Change{TaskID: evs[i].TaskID, Field: evs[i].Field, New: evs[i].Old, Note: "undo"})
			}
		} else {
			for _, e := range evs {
				changes = append(changes, pipeline.Change{TaskID: e.TaskID, Field: e.Field, New: e.New, Note: e.Note})
			}
		}
		out, err = applyBatch(ctx, tx, actor, kind, target, changes, true)
		if err == nil && len(out) == 0 {
			// The values already match (changed by hand since); still record
			// the step so the stacks stay in step with what the curator did.
			_, err = tx.ExecContext(ctx, "INSERT INTO batches (kind, ref, time, actor) VALUES (?,?,?,?)", kind, target, time.Now().UTC().Format(timeFormat), actor)
		}
		return err
	})
	return out, err
}

func batchEvents(ctx context.Context, tx *sql.Tx, batch int64) ([]pipeline.Event, error) {
	rows, err := tx.QueryContext(ctx, `SELECT e.seq, e.batch, b.kind, b.ref, e.time, e.actor, e.task_id, e.field, e.old, e.new, e.note
		FROM events e JOIN batches b ON b.id = e.batch WHERE e.batch = ? ORDER BY e.seq`, batch)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	return scanEvents(rows)
}

// History returns events newest first, for one task or (id "") all tasks;
// limit <= 0 means no limit.
func (s *Store) History(ctx context.Context, taskID string, limit int) ([]pipeline.Event, error) {
	q := `SELECT e.seq, e.batch, b.kind, b.ref, e.time, e.actor, e.task_id, e.field, e.old, e.new, e.note
		FROM events e JOIN batches b ON b.id = e.batch`
	var args []any
	if taskID != "" {
		q += " WHERE e.task_id = ?"
		args = append(args, taskID)
	}
	q += " ORDER BY e.seq DESC"
	if limit > 0 {
		q += fmt.Sprintf(" LIMIT %d", limit)
	}
	rows, err := s.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("history: %w", err)
	}
	defer rows.Close()
	return scanEvents(rows)
}

func scanEvents(rows *sql.Rows) ([]pipeline.Event, error) {
	var out []pipeline.Event
	for rows.Next() {
		var e pipeline.Event
		var ts string
		if err := rows.Scan(&e.Seq, &e.Batch, &e.Kind, &e.Ref, &ts, &e.Actor, &e.TaskID, &e.Field, &e.Old, &e.New, &e.Note); err != nil {
			return nil, err
		}
		e.Time, _ = time.Parse(timeFormat, ts)
		out = append(out, e)
	}
	return out, rows.Err()
}

// CanUndo and CanRedo tell the workbench whether u / U would do anything.
func (s *Store) CanUndo(ctx context.Context) (undo, redo bool, err error) {
	tx, err := s.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return false, false, err
	}
	defer tx.Rollback()
	u, r, err := stacks(ctx, tx)
	return len(u) > 0, len(r) > 0, err
}
