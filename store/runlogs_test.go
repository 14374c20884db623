package store

import (
	"context"
	"database/sql"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"curate/pipeline"
)

// A copied workspace's runs read the copy's logs, not the original's.
func TestCopiedWorkspaceReadsItsOwnRunLogs(t *testing.T) {
	ctx := context.Background()
	orig := filepath.Join(t.TempDir(), "ws")
	os.MkdirAll(filepath.Join(orig, ".curate", "runs"), 0o755)
	s, err := Open(ctx, filepath.Join(orig, ".curate", "curate.db"))
	if err != nil {
		t.Fatal(err)
	}
	log := filepath.Join(orig, ".curate", "runs", "r1.log")
	os.WriteFile(log, []byte("original\n"), 0o644)
	run := &pipeline.Run{ID: "r1", TaskID: "t1", Mode: pipeline.ModeNop, Outcome: pipeline.OutcomeOK, LogPath: log, StartedAt: time.Now()}
	if err := s.SaveRun(ctx, run); err != nil {
		t.Fatal(err)
	}
	s.Close()
	copied := filepath.Join(t.TempDir(), "copy")
	if out, err := exec.Command("cp", "-a", orig, copied).CombinedOutput(); err != nil {
		t.Fatalf("cp: %v %s", err, out)
	}
	c, err := Open(ctx, filepath.Join(copied, ".curate", "curate.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	got, err := c.Run(ctx, "r1")
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(copied, ".curate", "runs", "r1.log"); got.LogPath != want {
		t.Errorf("the copy's run log is %q, want %q", got.LogPath, want)
	}
}

// Migration 12 turns the absolute run log paths inside the workspace
// that earlier versions stored into relative ones; a log outside stays.
func TestMigrationStoresRunLogsRelative(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	os.MkdirAll(filepath.Join(root, ".curate"), 0o755)
	path := filepath.Join(root, ".curate", "curate.db")
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	if err := migrateTo(ctx, db, 11, ""); err != nil {
		t.Fatal(err)
	}
	old := &Store{db: db, wdb: db, path: path} // as curate before 12 wrote: no root
	inside, outside := filepath.Join(root, ".curate", "runs", "in.log"), "/elsewhere/out.log"
	for id, p := range map[string]string{"in": inside, "out": outside} {
		if err := old.SaveRun(ctx, &pipeline.Run{ID: id, TaskID: "t", Mode: pipeline.ModeNop, Outcome: pipeline.OutcomeOK, LogPath: p}); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var raw string
	s.db.QueryRow("SELECT log_path FROM runs WHERE id = 'in'").Scan(&raw)
	if raw != ".curate/runs/in.log" {
		t.Errorf("stored %q, want .curate/runs/in.log", raw)
	}
	for id, want := range map[string]string{"in": inside, "out": outside} {
		if r, err := s.Run(ctx, id); err != nil || r.LogPath != want {
			t.Errorf("run %s: log %v %v, want %q", id, r, err, want)
		}
	}
}
