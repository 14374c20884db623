package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"time"

	"curate/pipeline"
)

// SaveSelection stores (replacing any of the same name) a selection snapshot.
func (s *Store) SaveSelection(ctx context.Context, sel *pipeline.Selection) error {
	if sel.Name == "" {
		return fmt.Errorf("save selection: empty name")
	}
	cfg, err := json.Marshal(sel.Config)
	if err != nil {
		return fmt.Errorf("save selection %s: %w", sel.Name, err)
	}
	stats, err := json.Marshal(sel.Stats)
	if err != nil {
		return fmt.Errorf("save selection %s: %w", sel.Name, err)
	}
	created := sel.CreatedAt
	if created.IsZero() {
		created = time.Now().UTC()
	}
	return s.tx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, "DELETE FROM selections WHERE name = ?", sel.Name); err != nil {
			return s.describe(err)
		}
		if _, err := tx.ExecContext(ctx, "INSERT INTO selections (name, created_at, source, config, stats) VALUES (?,?,?,?,?)",
			sel.Name, created.UTC().Format(timeFormat), sel.Source, string(cfg), string(stats)); err != nil {
			return fmt.Errorf("save selection %s: %w", sel.Name, s.describe(err))
		}
		stmt, err := tx.PrepareContext(ctx, "INSERT INTO selection_tasks (selection, task_id, rationale, rank) VALUES (?,?,?,?)")
		if err != nil {
			return s.describe(err)
		}
		defer stmt.Close()
		for _, t := range sel.Tasks {
			if _, err := stmt.ExecContext(ctx, sel.Name, t.TaskID, t.Rationale, t.Rank); err != nil {
				return fmt.Errorf("save selection %s task %s: %w", sel.Name, t.TaskID, s.describe(err))
			}
		}
		return nil
	})
}

// Selection loads a named selection with its tasks in rank order.
func (s *Store) Selection(ctx context.Context, name string) (*pipeline.Selection, error) {
	sel := &pipeline.Selection{Name: name}
	var created, cfg, stats string
	err := s.db.QueryRowContext(ctx, "SELECT created_at, source, config, stats FROM selections WHERE name = ?", name).
		Scan(&created, &sel.Source, &cfg, &stats)
	if err == sql.ErrNoRows {
		return nil, fmt.Errorf("selection %q: %w (see `curate select list`)", name, ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("load selection %s: %w", name, s.describe(err))
	}
	sel.CreatedAt, _ = time.Parse(timeFormat, created)
	_ = decodeJSON(cfg, &sel.Config)
	_ = decodeJSON(stats, &sel.Stats)
	rows, err := s.db.QueryContext(ctx, "SELECT task_id, rationale, rank FROM selection_tasks WHERE selection = ? ORDER BY rank, task_id", name)
	if err != nil {
		return nil, s.describe(err)
	}
	defer rows.Close()
	for rows.Next() {
		var t pipeline.SelectedTask
		if err := rows.Scan(&t.TaskID, &t.Rationale, &t.Rank); err != nil {
			return nil, err
		}
		sel.Tasks = append(sel.Tasks, t)
	}
	return sel, rows.Err()
}

// Selections lists selection names, newest first.
func (s *Store) Selections(ctx context.Context) ([]string, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT name FROM selections ORDER BY created_at DESC, name")
	if err != nil {
		return nil, s.describe(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			return nil, err
		}
		out = append(out, n)
	}
	return out, rows.Err()
}

// DeleteSelection removes a saved selection and its task list.
func (s *Store) DeleteSelection(ctx context.Context, name string) error {
	return s.tx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, "DELETE FROM selection_tasks WHERE selection = ?", name); err != nil {
			return fmt.Errorf("remove selection %s: %w", name, s.describe(err))
		}
		res, err := tx.ExecContext(ctx, "DELETE FROM selections WHERE name = ?", name)
		if err != nil {
			return fmt.Errorf("remove selection %s: %w", name, s.describe(err))
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return fmt.Errorf("selection %q: %w (see `curate select list`)", name, ErrNotFound)
		}
		return nil
	})
}

// RenameSelection renames a saved selection; a selection already named to
// is an error, never replaced.
func (s *Store) RenameSelection(ctx context.Context, from, to string) error {
	if to == "" {
		return fmt.Errorf("rename selection %s: empty new name", from)
	}
	return s.tx(ctx, func(tx *sql.Tx) error {
		var n int
		if err := tx.QueryRowContext(ctx, "SELECT count(*) FROM selections WHERE name = ?", to).Scan(&n); err != nil {
			return s.describe(err)
		}
		if n > 0 {
			return fmt.Errorf("rename selection %s: %q is taken (curate select rm %s first)", from, to, to)
		}
		// A copy under the new name, then the tasks moved, then the old row
		// gone: selection_tasks references the name.
		res, err := tx.ExecContext(ctx, "INSERT INTO selections (name, created_at, source, config, stats) SELECT ?, created_at, source, config, stats FROM selections WHERE name = ?", to, from)
		if err != nil {
			return fmt.Errorf("rename selection %s: %w", from, s.describe(err))
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return fmt.Errorf("selection %q: %w (see `curate select list`)", from, ErrNotFound)
		}
		if _, err := tx.ExecContext(ctx, "UPDATE selection_tasks SET selection = ? WHERE selection = ?", to, from); err != nil {
			return fmt.Errorf("rename selection %s: %w", from, s.describe(err))
		}
		if _, err := tx.ExecContext(ctx, "DELETE FROM selections WHERE name = ?", from); err != nil {
			return fmt.Errorf("rename selection %s: %w", from, s.describe(err))
		}
		return nil
	})
}
