package workspace

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"curate/pipeline"
)

// A journal whose owner died is replayed: rows written → the new dir
// stays; rows not written → the old dir comes back, a new one goes.
func TestRecoverImportsReplaysDeadJournal(t *testing.T) {
	ctx := context.Background()
	root, err := Init(filepath.Join(t.TempDir(), "ws"))
	if err != nil {
		t.Fatal(err)
	}
	w, err := Open(ctx, root)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	mk := func(dir, content string) {
		os.MkdirAll(dir, 0o755)
		os.WriteFile(filepath.Join(dir, "f"), []byte(content), 0o644)
	}
	read := func(dir string) string { b, _ := os.ReadFile(filepath.Join(dir, "f")); return string(b) }
	var entries []JournalEntry
	for _, id := range []string{"kept", "restored", "dropped"} {
		staging, old := w.StagingPaths(id)
		entries = append(entries, JournalEntry{ID: id, Dir: filepath.Join(w.TasksPath(), id), Staging: staging, Old: old,
			HadDir: id == "restored", Digest: "new-" + id})
	}
	// kept: swapped in and its row written; restored: swapped in, old dir
	// aside, row not written; dropped: new, swapped in, row not written.
	mk(entries[0].Dir, "new")
	w.Store.UpsertTasks(ctx, []*pipeline.Task{{ID: "kept", Benchmark: "b", TaskDir: entries[0].Dir, Digest: "new-kept"}})
	mk(entries[1].Dir, "new")
	mk(entries[1].Old, "old")
	mk(entries[2].Dir, "new")
	mk(entries[2].Staging, "half")
	j, err := w.BeginJournal(entries)
	if err != nil {
		t.Fatal(err)
	}
	// While the owner holds the lock, nothing is touched.
	if rep, err := w.RecoverImports(ctx); err != nil || rep != (RecoverReport{}) {
		t.Fatalf("live journal: %+v %v", rep, err)
	}
	j.lock.Close() // the owner dies: its lock is released
	rep, err := w.RecoverImports(ctx)
	if err != nil || rep.Kept != 1 || rep.RolledBack != 2 {
		t.Fatalf("report %+v %v", rep, err)
	}
	if read(entries[0].Dir) != "new" || read(entries[1].Dir) != "old" {
		t.Errorf("kept %q, restored %q", read(entries[0].Dir), read(entries[1].Dir))
	}
	left, _ := os.ReadDir(w.TasksPath())
	if len(left) != 2 {
		t.Errorf("tasks/ holds %v", left)
	}
	if js, _ := filepath.Glob(filepath.Join(root, StateDir, "journal", "*")); len(js) != 0 {
		t.Errorf("journal left: %v", js)
	}
}
