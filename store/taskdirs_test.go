package store

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"testing"

	"curate/pipeline"
)

// Migration 9 turns the absolute task dirs inside the workspace that
// earlier versions stored into relative ones (column and packed copy), so
// the workspace can move; a dir outside it stays absolute.
func TestMigrationStoresTaskDirsRelative(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	os.MkdirAll(filepath.Join(root, ".curate"), 0o755)
	path := filepath.Join(root, ".curate", "curate.db")
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	if err := migrateTo(ctx, db, 8, ""); err != nil {
		t.Fatal(err)
	}
	old := &Store{db: db, wdb: db, path: path} // as curate before 9 wrote: no root
	inside, outside := filepath.Join(root, "tasks", "in-1"), "/elsewhere/out-1"
	if err := old.UpsertTasks(ctx, []*pipeline.Task{
		{ID: "in-1", Benchmark: "b", TaskDir: inside, Failure: &pipeline.Failure{Class: "timeout"}},
		{ID: "out-1", Benchmark: "b", TaskDir: outside},
	}); err != nil {
		t.Fatal(err)
	}
	db.Close()
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var raw string
	s.db.QueryRow("SELECT task_dir FROM tasks WHERE id = 'in-1'").Scan(&raw)
	if raw != "tasks/in-1" {
		t.Errorf("stored %q, want tasks/in-1", raw)
	}
	list, err := s.Tasks(ctx)
	if err != nil || len(list) != 2 {
		t.Fatal(list, err)
	}
	for _, tk := range list {
		want := map[string]string{"in-1": inside, "out-1": outside}[tk.ID]
		if tk.TaskDir != want {
			t.Errorf("%s: listed dir %q, want %q", tk.ID, tk.TaskDir, want)
		}
	}
	if one, _ := s.Task(ctx, "in-1"); one.TaskDir != inside || one.Failure == nil || one.Failure.Class != "timeout" {
		t.Errorf("loaded %+v", one)
	}
	if list[0].Failure == nil {
		t.Errorf("the packed copy lost the failure: %+v", list[0])
	}
}
