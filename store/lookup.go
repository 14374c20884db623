package store

import (
	"context"
	"fmt"
	"strings"

	"curate/pipeline"
)

// TasksByID loads the tasks with these ids (bodies and blobs included) in a few
// queries; ids not in the store are simply absent from the map. Importers
// use it to compare what they read with what is stored.
func (s *Store) TasksByID(ctx context.Context, ids []string) (map[string]*pipeline.Task, error) {
	out := make(map[string]*pipeline.Task, len(ids))
	const chunk = 500 // well under SQLite's bound-parameter limit
	for start := 0; start < len(ids); start += chunk {
		part := ids[start:min(start+chunk, len(ids))]
		args := make([]any, len(part))
		for i, id := range part {
			args[i] = id
		}
		q := "SELECT " + taskColumns + ", failure, body FROM tasks WHERE id IN (?" + strings.Repeat(",?", len(part)-1) + ")"
		rows, err := s.db.QueryContext(ctx, q, args...)
		if err != nil {
			return nil, fmt.Errorf("load tasks: %w", s.describe(err))
		}
		for rows.Next() {
			t, err := scanTask(rows, true)
			if err != nil {
				rows.Close()
				return nil, fmt.Errorf("load tasks: %w", err)
			}
			t.TaskDir = loadedDir(s.root, t.TaskDir)
			out[t.ID] = t
		}
		err = rows.Err()
		rows.Close()
		if err != nil {
			return nil, fmt.Errorf("load tasks: %w", s.describe(err))
		}
	}
	if err := s.attachBlobs(ctx, out); err != nil {
		return nil, err
	}
	return out, nil
}
