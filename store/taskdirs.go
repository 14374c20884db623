package store

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"strings"

	"curate/pipeline"
)

// workspaceRoot is the workspace of a database at ROOT/.curate/curate.db;
// "" when the file lives elsewhere (tests, tools).
func workspaceRoot(dbPath string) string {
	state := filepath.Dir(dbPath)
	if filepath.Base(state) != ".curate" {
		return ""
	}
	return filepath.Dir(state)
}

// storedDir is how a task dir is written: relative to root (with /) when
// it lies inside, as given otherwise.
func storedDir(root, dir string) string {
	if root == "" || !filepath.IsAbs(dir) {
		return dir
	}
	rel, err := filepath.Rel(root, dir)
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return dir
	}
	return filepath.ToSlash(rel)
}

// loadedDir is a stored task dir as callers see it: absolute, under the
// workspace where it stands now.
func loadedDir(root, dir string) string {
	if root == "" || dir == "" || filepath.IsAbs(dir) {
		return dir
	}
	return filepath.Join(root, filepath.FromSlash(dir))
}

// backfillRelativeDirs rewrites the absolute task dirs inside root that
// earlier versions stored (plain column and packed copy) as relative ones.
// It reads only columns that existed at its migration (id, task_dir,
// packed): later migrations add task columns this schema does not have.
func backfillRelativeDirs(ctx context.Context, tx *sql.Tx, root string) error {
	if root == "" {
		return nil
	}
	rows, err := tx.QueryContext(ctx, "SELECT id, task_dir, packed FROM tasks WHERE substr(task_dir, 1, ?) = ?", len(root)+1, root+string(filepath.Separator))
	if err != nil {
		return err
	}
	type row struct{ id, dir, packed string }
	var todo []row
	for rows.Next() {
		var r row
		if err := rows.Scan(&r.id, &r.dir, &r.packed); err != nil {
			rows.Close()
			return err
		}
		todo = append(todo, r)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for _, r := range todo {
		dir := storedDir(root, r.dir)
		packed := r.packed
		if packed != "" {
			var t pipeline.Task
			if err := unpackTask(packed, &t); err != nil {
				return fmt.Errorf("task %s: %w", r.id, err)
			}
			t.TaskDir = dir
			if packed, err = packTask(&t, t.CreatedAt.Format(timeFormat), t.UpdatedAt.Format(timeFormat)); err != nil {
				return fmt.Errorf("task %s: %w", r.id, err)
			}
		}
		if _, err := tx.ExecContext(ctx, "UPDATE tasks SET task_dir = ?, packed = ? WHERE id = ?", dir, packed, r.id); err != nil {
			return err
		}
	}
	return nil
}

// backfillRelativeLogs rewrites the absolute run log paths inside root
// that earlier versions stored as relative ones (compared in Go: SQL's
// substr counts characters, a path's length is bytes).
func backfillRelativeLogs(ctx context.Context, tx *sql.Tx, root string) error {
	if root == "" {
		return nil
	}
	rows, err := tx.QueryContext(ctx, "SELECT id, log_path FROM runs WHERE log_path != ''")
	if err != nil {
		return err
	}
	rel := map[string]string{}
	for rows.Next() {
		var id, p string
		if err := rows.Scan(&id, &p); err != nil {
			rows.Close()
			return err
		}
		if stored := storedDir(root, p); stored != p {
			rel[id] = stored
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for id, p := range rel {
		if _, err := tx.ExecContext(ctx, "UPDATE runs SET log_path = ? WHERE id = ?", p, id); err != nil {
			return err
		}
	}
	return nil
}
