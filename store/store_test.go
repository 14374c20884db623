package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"curate/pipeline"
)

func openTemp(t testing.TB) *Store {
	t.Helper()
	s, err := Open(context.Background(), filepath.Join(t.TempDir(), "curate.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func seed(t testing.TB, s *Store, ids ...string) {
	t.Helper()
	var tasks []*pipeline.Task
	for _, id := range ids {
		tk := &pipeline.Task{ID: id, Benchmark: "b", Repo: "o/r", Language: "go", Status: pipeline.StatusImported, DifficultyCalibrated: "hard"}
		tk.Features.Set(pipeline.FeatFilesChanged, 3, "test")
		tasks = append(tasks, tk)
	}
	if err := s.UpsertTasks(context.Background(), tasks); err != nil {
		t.Fatal(err)
	}
}

func TestMigrationsFromEveryVersion(t *testing.T) {
	ctx := context.Background()
	for from := 0; from <= len(migrations); from++ {
		path := filepath.Join(t.TempDir(), "curate.db")
		db, err := sql.Open("sqlite", "file:"+path)
		if err != nil {
			t.Fatal(err)
		}
		if err := migrateTo(ctx, db, from, ""); err != nil {
			t.Fatalf("migrate to %d: %v", from, err)
		}
		if from >= 1 { // data written under an old schema must survive
			if _, err := db.Exec("INSERT INTO tasks (id, benchmark) VALUES ('old-task', 'b')"); err != nil {
				t.Fatal(err)
			}
		}
		db.Close()
		if from == 0 {
			os.Remove(path) // version 0 is a new index: no file (an empty one is refused)
		}
		s, err := Open(ctx, path)
		if err != nil {
			t.Fatalf("open from version %d: %v", from, err)
		}
		var v int
		s.db.QueryRow("PRAGMA user_version").Scan(&v)
		if v != SchemaVersion() {
			t.Errorf("from %d: version %d, want %d", from, v, SchemaVersion())
		}
		if from >= 1 {
			if _, err := s.Task(ctx, "old-task"); err != nil {
				t.Errorf("from %d: old task lost: %v", from, err)
			}
			if list, err := s.Tasks(ctx); err != nil || len(list) != 1 || list[0].ID != "old-task" {
				t.Errorf("from %d: old task missing from listings (packed backfill): %v %v", from, list, err)
			}
		}
		if res, _ := s.IntegrityCheck(ctx); res != "ok" {
			t.Errorf("from %d: integrity %s", from, res)
		}
		s.Close()
	}
}

func TestNewerSchemaRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "curate.db")
	db, _ := sql.Open("sqlite", "file:"+path)
	db.Exec("PRAGMA user_version = 999")
	db.Close()
	_, err := Open(context.Background(), path)
	if err == nil || !strings.Contains(err.Error(), "newer") || !strings.Contains(err.Error(), path) {
		t.Fatalf("want a newer-schema error naming the file, got %v", err)
	}
}

func TestBadDatabaseFiles(t *testing.T) {
	cases := map[string][]byte{
		"text":      []byte("this is not a database at all, just some text that is long enough"),
		"truncated": []byte("SQLite"),
		"garbage":   append([]byte("SQLite format 3\x00"), make([]byte, 100)...),
	}
	for name, content := range cases {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "curate.db")
			os.WriteFile(path, content, 0o644)
			_, err := Open(context.Background(), path)
			if err == nil {
				t.Fatal("opened a corrupt database")
			}
			if !strings.Contains(err.Error(), path) {
				t.Errorf("error does not name the file: %v", err)
			}
			after, _ := os.ReadFile(path)
			if string(after) != string(content) {
				t.Error("the corrupt file was modified")
			}
		})
	}
}

func TestUpsertKeepsLabels(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	seed(t, s, "a")
	if _, err := s.Label(ctx, "me", []pipeline.Change{{TaskID: "a", Field: pipeline.FieldDifficulty, New: "easy"}, {TaskID: "a", Field: pipeline.FieldPinned, New: "true"}}); err != nil {
		t.Fatal(err)
	}
	seed(t, s, "a") // a re-import / re-score
	got, err := s.Task(ctx, "a")
	if err != nil {
		t.Fatal(err)
	}
	if got.Labels.Difficulty != "easy" || !got.Labels.Pinned || got.EffectiveDifficulty() != "easy" {
		t.Fatalf("labels lost on upsert: %+v", got.Labels)
	}
	if got.Features.Int(pipeline.FeatFilesChanged) != 3 {
		t.Fatalf("features not stored: %+v", got.Features)
	}
}

func label(t *testing.T, s *Store, id, field, v string) []pipeline.Event {
	t.Helper()
	ev, err := s.Label(context.Background(), "me", []pipeline.Change{{TaskID: id, Field: field, New: v}})
	if err != nil {
		t.Fatal(err)
	}
	return ev
}

func difficulty(t *testing.T, s *Store, id string) string {
	t.Helper()
	tk, err := s.Task(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return string(tk.Labels.Difficulty)
}

func TestUndoRedo(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	seed(t, s, "a", "b")
	label(t, s, "a", pipeline.FieldDifficulty, "easy")
	label(t, s, "a", pipeline.FieldDifficulty, "Very-Hard") // normalized
	if got := difficulty(t, s, "a"); got != "very_hard" {
		t.Fatalf("got %q", got)
	}
	steps := []struct {
		op   string
		want string
	}{
		{"undo", "easy"}, {"undo", ""}, {"undo", "!nothing"}, {"redo", "easy"}, {"redo", "very_hard"}, {"redo", "!nothing"},
		{"undo", "easy"},
	}
	for i, st := range steps {
		var err error
		if st.op == "undo" {
			_, err = s.Undo(ctx, "me")
		} else {
			_, err = s.Redo(ctx, "me")
		}
		if strings.HasPrefix(st.want, "!") {
			if !errors.Is(err, ErrNothingToUndo) && !errors.Is(err, ErrNothingToRedo) {
				t.Fatalf("step %d %s: want nothing-to error, got %v", i, st.op, err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("step %d %s: %v", i, st.op, err)
		}
		if got := difficulty(t, s, "a"); got != st.want {
			t.Fatalf("step %d %s: difficulty %q, want %q", i, st.op, got, st.want)
		}
	}
	// A new change clears the redo stack.
	label(t, s, "b", pipeline.FieldPinned, "true")
	if _, err := s.Redo(ctx, "me"); !errors.Is(err, ErrNothingToRedo) {
		t.Fatalf("redo after a new change: %v", err)
	}
	// History is append-only: every step is an event.
	h, _ := s.History(ctx, "a", 0)
	if len(h) != 7 {
		t.Fatalf("history has %d events for a, want 7", len(h))
	}
	if h[0].Kind != pipeline.EventUndo || h[0].Old != "very_hard" || h[0].New != "easy" {
		t.Fatalf("newest event %+v", h[0])
	}
}

func TestBulkBatchIsOneUndoStep(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	seed(t, s, "a", "b", "c")
	var changes []pipeline.Change
	for _, id := range []string{"a", "b", "c"} {
		changes = append(changes, pipeline.Change{TaskID: id, Field: pipeline.FieldExcluded, New: "true", Note: "duplicate"})
	}
	ev, err := s.Label(ctx, "me", changes)
	if err != nil || len(ev) != 3 || ev[0].Batch != ev[2].Batch {
		t.Fatalf("bulk label: %v %+v", err, ev)
	}
	tk, _ := s.Task(ctx, "b")
	if !tk.Labels.Excluded || tk.Labels.ExcludeReason != "duplicate" {
		t.Fatalf("exclusion not stored: %+v", tk.Labels)
	}
	undo, err := s.Undo(ctx, "me")
	if err != nil || len(undo) != 3 {
		t.Fatalf("undo: %v %d", err, len(undo))
	}
	for _, id := range []string{"a", "b", "c"} {
		tk, _ := s.Task(ctx, id)
		if tk.Labels.Excluded || tk.Labels.ExcludeReason != "" {
			t.Fatalf("%s still excluded after undo", id)
		}
	}
}

func TestLabelRejectsBadInput(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	seed(t, s, "a")
	cases := []struct {
		c    pipeline.Change
		want string
	}{
		{pipeline.Change{TaskID: "a", Field: pipeline.FieldDifficulty, New: "impossible"}, "invalid difficulty"},
		{pipeline.Change{TaskID: "a", Field: pipeline.FieldPhase, New: "coding"}, "invalid SDLC phase"},
		{pipeline.Change{TaskID: "nope", Field: pipeline.FieldDifficulty, New: "easy"}, "not found"},
		{pipeline.Change{TaskID: "a", Field: "colour", New: "red"}, "unknown label field"},
		{pipeline.Change{TaskID: "a", Field: pipeline.FieldPinned, New: "yes"}, "true or false"},
	}
	for _, c := range cases {
		// A good change before the bad one must not be written either.
		_, err := s.Label(ctx, "me", []pipeline.Change{{TaskID: "a", Field: pipeline.FieldNote, New: "x"}, c.c})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: got %v, want %q", c.c, err, c.want)
		}
	}
	if h, _ := s.History(ctx, "", 0); len(h) != 0 {
		t.Fatalf("a failed batch wrote %d events", len(h))
	}
}

func TestResolveID(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	seed(t, s, "sgt-001", "sgt-002", "big_code-1", "big%x")
	cases := map[string]string{"sgt-001": "sgt-001", "big_": "big_code-1", "big%": "big%x", "sgt": "!ambiguous", "zzz": "!not found"}
	for in, want := range cases {
		got, err := s.ResolveID(ctx, in)
		if strings.HasPrefix(want, "!") {
			if err == nil || !strings.Contains(err.Error(), want[1:]) {
				t.Errorf("ResolveID(%q) = %q, %v; want error %q", in, got, err, want[1:])
			}
			continue
		}
		if err != nil || got != want {
			t.Errorf("ResolveID(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
}

func TestRunsAndInterrupted(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	seed(t, s, "a")
	reward := 1.0
	runs := []*pipeline.Run{
		{ID: "r1", TaskID: "a", Mode: "oracle", Outcome: pipeline.OutcomeOK, Reward: &reward, Digest: "d1", FailToPass: []string{"t1"}},
		{ID: "r2", TaskID: "a", Mode: "nop", Outcome: pipeline.OutcomeRunning, PID: 111},
		{ID: "r3", TaskID: "a", Mode: "nop", Outcome: pipeline.OutcomeRunning, PID: 222},
	}
	for _, r := range runs {
		if err := s.SaveRun(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	dead, err := s.MarkInterrupted(ctx, func(pid int) bool { return pid == 222 })
	if err != nil || len(dead) != 1 || dead[0].ID != "r2" {
		t.Fatalf("MarkInterrupted: %v %+v", err, dead)
	}
	r1, _ := s.Run(ctx, "r1")
	if *r1.Reward != 1 || r1.FailToPass[0] != "t1" || !r1.Stale("d2") || r1.Stale("d1") {
		t.Fatalf("run round trip: %+v", r1)
	}
	r2, _ := s.Run(ctx, "r2")
	if r2.Outcome != pipeline.OutcomeInterrupted {
		t.Fatalf("r2 outcome %s", r2.Outcome)
	}
	if _, err := s.Run(ctx, "nope"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("missing run: %v", err)
	}
}

func TestSelections(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	sel := &pipeline.Selection{Name: "v1", Source: "solver", Config: map[string]any{"budget": 2.0},
		Tasks: []pipeline.SelectedTask{{TaskID: "b", Rationale: "all", Rank: 2}, {TaskID: "a", Rationale: "top score", Rank: 1}}}
	if err := s.SaveSelection(ctx, sel); err != nil {
		t.Fatal(err)
	}
	got, err := s.Selection(ctx, "v1")
	if err != nil || len(got.Tasks) != 2 || got.Tasks[0].TaskID != "a" || got.Config["budget"] != 2.0 {
		t.Fatalf("selection round trip: %v %+v", err, got)
	}
	sel.Tasks = sel.Tasks[:1]
	s.SaveSelection(ctx, sel) // replace
	got, _ = s.Selection(ctx, "v1")
	if len(got.Tasks) != 1 {
		t.Fatalf("replace kept %d tasks", len(got.Tasks))
	}
	names, _ := s.Selections(ctx)
	if len(names) != 1 {
		t.Fatalf("names %v", names)
	}
}

func TestTasksPartitionedScanIsCompleteAndSorted(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	var tasks []*pipeline.Task
	for i := 0; i < 5003; i++ { // above the partition threshold, not a multiple of the parts
		tasks = append(tasks, &pipeline.Task{ID: fmt.Sprintf("t-%05d", (i*7919)%5003), Benchmark: "b"})
	}
	if err := s.UpsertTasks(ctx, tasks); err != nil {
		t.Fatal(err)
	}
	got, err := s.Tasks(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 5003 {
		t.Fatalf("got %d tasks", len(got))
	}
	for i := range got {
		if want := fmt.Sprintf("t-%05d", i); got[i].ID != want {
			t.Fatalf("position %d: %s, want %s", i, got[i].ID, want)
		}
	}
}
