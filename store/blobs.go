package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"curate/pipeline"
)

// Large values of a task's Extra (a SWE-bench patch or test_patch is tens
// of KB) live in task_blobs, not in the extra and packed columns, so
// listings and filters never read or decode them. Task and TasksByID put
// them back; a task read from a listing can be written back without losing
// its blobs, since a key absent from Extra leaves its blob alone.

// BlobMin is the length from which a string in Extra is kept apart.
const BlobMin = 1024

// splitBlobs returns t with only the small Extra values (a shallow copy
// when some are large) and the large ones by key.
func splitBlobs(t *pipeline.Task) (*pipeline.Task, map[string]string) {
	var big map[string]string
	for k, v := range t.Extra {
		if s, ok := v.(string); ok && len(s) >= BlobMin {
			if big == nil {
				big = map[string]string{}
			}
			big[k] = s
		}
	}
	if big == nil {
		return t, nil
	}
	small := make(map[string]any, len(t.Extra)-len(big))
	for k, v := range t.Extra {
		if _, ok := big[k]; !ok {
			small[k] = v
		}
	}
	c := *t
	c.Extra = small
	return &c, big
}

// writeBlobs stores a task's large values and drops the blobs of keys that
// Extra now holds small.
func writeBlobs(ctx context.Context, tx *sql.Tx, id string, small map[string]any, big map[string]string) error {
	for k := range small {
		if _, err := tx.ExecContext(ctx, "DELETE FROM task_blobs WHERE task_id = ? AND key = ?", id, k); err != nil {
			return err
		}
	}
	for k, v := range big {
		if _, err := tx.ExecContext(ctx, "INSERT INTO task_blobs (task_id, key, value) VALUES (?,?,?) ON CONFLICT(task_id, key) DO UPDATE SET value=excluded.value", id, k, v); err != nil {
			return err
		}
	}
	return nil
}

// attachBlobs puts the stored large values back into the tasks' Extra.
func (s *Store) attachBlobs(ctx context.Context, tasks map[string]*pipeline.Task) error {
	ids := make([]any, 0, len(tasks))
	for id := range tasks {
		ids = append(ids, id)
	}
	const chunk = 500 // well under SQLite's bound-parameter limit
	for start := 0; start < len(ids); start += chunk {
		part := ids[start:min(start+chunk, len(ids))]
		rows, err := s.db.QueryContext(ctx, "SELECT task_id, key, value FROM task_blobs WHERE task_id IN (?"+strings.Repeat(",?", len(part)-1)+")", part...)
		if err != nil {
			return fmt.Errorf("load task blobs: %w", s.describe(err))
		}
		for rows.Next() {
			var id, k, v string
			if err := rows.Scan(&id, &k, &v); err != nil {
				rows.Close()
				return fmt.Errorf("load task blobs: %w", err)
			}
			t := tasks[id]
			if t.Extra == nil {
				t.Extra = map[string]any{}
			}
			t.Extra[k] = v
		}
		err = rows.Err()
		rows.Close()
		if err != nil {
			return fmt.Errorf("load task blobs: %w", s.describe(err))
		}
	}
	return nil
}

// backfillBlobs moves the large Extra values of rows written before
// task_blobs existed (migration 5) into it.
func backfillBlobs(ctx context.Context, tx *sql.Tx) error {
	tasks, err := scanAll(ctx, tx, "SELECT "+backfillColumns+" FROM tasks WHERE length(extra) >= ?", BlobMin)
	if err != nil {
		return err
	}
	for _, t := range tasks {
		small, big := splitBlobs(t)
		if big == nil {
			continue
		}
		_, _, _, extra, err := encodeTaskJSON(small)
		if err != nil {
			return fmt.Errorf("task %s: %w", t.ID, err)
		}
		p, err := packTask(small, t.CreatedAt.Format(timeFormat), t.UpdatedAt.Format(timeFormat))
		if err != nil {
			return fmt.Errorf("task %s: %w", t.ID, err)
		}
		if _, err := tx.ExecContext(ctx, "UPDATE tasks SET extra = ?, packed = ? WHERE id = ?", extra, p, t.ID); err != nil {
			return err
		}
		if err := writeBlobs(ctx, tx, t.ID, nil, big); err != nil {
			return err
		}
	}
	return nil
}
