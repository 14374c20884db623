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
func backfillRelativeDirs(ctx context.Context, tx *sql.Tx, root string) error {
	if root == "" {
		return nil
	}
	rows, err := tx.QueryContext(ctx, "SELECT "+taskColumns+", failure, body FROM tasks WHERE substr(task_dir, 1, ?) = ?", len(root)+1, root+string(filepath.Separator))
	if err != nil {
		return err
	}
	var tasks []*pipeline.Task
	for rows.Next() {
		t, err := scanTask(rows, true) // with the failure, which the packed copy keeps
		if err != nil {
			rows.Close()
			return err
		}
		tasks = append(tasks, t)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for _, t := range tasks {
		t.TaskDir = storedDir(root, t.TaskDir)
		p, err := packTask(t, t.CreatedAt.Format(timeFormat), t.UpdatedAt.Format(timeFormat))
		if err != nil {
			return fmt.Errorf("task %s: %w", t.ID, err)
		}
		if _, err := tx.ExecContext(ctx, "UPDATE tasks SET task_dir = ?, packed = ? WHERE id = ?", t.TaskDir, p, t.ID); err != nil {
			return err
		}
	}
	return nil
}
