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
			return describe(err)
		}
		if _, err := tx.ExecContext(ctx, "INSERT INTO selections (name, created_at, source, config, stats) VALUES (?,?,?,?,?)",
			sel.Name, created.UTC().Format(timeFormat), sel.Source, string(cfg), string(stats)); err != nil {
			return fmt.Errorf("save selection %s: %w", sel.Name, describe(err))
		}
		stmt, err := tx.PrepareContext(ctx, "INSERT INTO selection_tasks (selection, task_id, rationale, rank) VALUES (?,?,?,?)")
		if err != nil {
			return describe(err)
		}
		defer stmt.Close()
		for _, t := range sel.Tasks {
			if _, err := stmt.ExecContext(ctx, sel.Name, t.TaskID, t.Rationale, t.Rank); err != nil {
				return fmt.Errorf("save selection %s task %s: %w", sel.Name, t.TaskID, describe(err))
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
		return nil, fmt.Errorf("load selection %s: %w", name, describe(err))
	}
	sel.CreatedAt, _ = time.Parse(timeFormat, created)
	_ = decodeJSON(cfg, &sel.Config)
	_ = decodeJSON(stats, &sel.Stats)
	rows, err := s.db.QueryContext(ctx, "SELECT task_id, rationale, rank FROM selection_tasks WHERE selection = ? ORDER BY rank, task_id", name)
	if err != nil {
		return nil, describe(err)
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
		return nil, describe(err)
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
