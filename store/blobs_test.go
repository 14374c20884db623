package store

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"curate/pipeline"
	"curate/pipeline/query"
)

func TestLargeExtraValuesStayOutOfListings(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	patch := strings.Repeat("+x\n", 20000)
	tk := &pipeline.Task{ID: "a__b-1", Benchmark: "swebench", Status: pipeline.StatusImported,
		Extra: map[string]any{"patch": patch, "version": "1.0"}}
	if err := s.UpsertTasks(ctx, []*pipeline.Task{tk}); err != nil {
		t.Fatal(err)
	}
	if tk.Extra["patch"] != patch {
		t.Fatal("UpsertTasks changed the caller's task")
	}
	listed, err := s.Tasks(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := listed[0].Extra["patch"]; ok || listed[0].Extra["version"] != "1.0" {
		t.Fatalf("listing extra = %v", listed[0].Extra)
	}
	// Writing the listed task back (a re-score, a status change) keeps the blob.
	if err := s.UpsertTasks(ctx, listed); err != nil {
		t.Fatal(err)
	}
	if err := s.UpdateComputed(ctx, listed); err != nil {
		t.Fatal(err)
	}
	full, err := s.Task(ctx, "a__b-1")
	if err != nil {
		t.Fatal(err)
	}
	if full.Extra["patch"] != patch {
		t.Fatal("Task lost the patch")
	}
	// A full task written back (UpdateComputed of a re-score by id) keeps
	// the blob out of the listed columns.
	if err := s.UpdateComputed(ctx, []*pipeline.Task{full}); err != nil {
		t.Fatal(err)
	}
	var extraLen int
	if err := s.db.QueryRowContext(ctx, "SELECT length(extra) + length(packed) FROM tasks").Scan(&extraLen); err != nil || extraLen > BlobMin {
		t.Fatalf("listed columns hold %d bytes (%v)", extraLen, err)
	}
	byID, err := s.TasksByID(ctx, []string{"a__b-1"})
	if err != nil || byID["a__b-1"].Extra["patch"] != patch {
		t.Fatalf("TasksByID lost the patch: %v", err)
	}
	// A small value replaces the blob.
	full.Extra["patch"] = "short"
	if err := s.UpsertTasks(ctx, []*pipeline.Task{full}); err != nil {
		t.Fatal(err)
	}
	again, _ := s.Task(ctx, "a__b-1")
	if again.Extra["patch"] != "short" {
		t.Fatalf("patch = %.20q", again.Extra["patch"])
	}
}

// A database written before task_blobs keeps its patches, moved apart by
// the migration's backfill.
func TestBlobBackfill(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "curate.db")
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	if err := migrateTo(ctx, db, 4, ""); err != nil {
		t.Fatal(err)
	}
	patch := strings.Repeat("-y\n", 1000)
	tk := &pipeline.Task{ID: "old-1", Benchmark: "b", Extra: map[string]any{"patch": patch}}
	packed, err := packTask(tk, "2025-01-01T00:00:00Z", "2025-01-01T00:00:00Z")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.ExecContext(ctx, "INSERT INTO tasks (id, benchmark, extra, created_at, updated_at, packed) VALUES (?,?,?,?,?,?)",
		"old-1", "b", `{"patch":"`+strings.ReplaceAll(patch, "\n", `\n`)+`"}`, "2025-01-01T00:00:00Z", "2025-01-01T00:00:00Z", packed); err != nil {
		t.Fatal(err)
	}
	db.Close()
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	listed, err := s.Tasks(ctx)
	if err != nil || len(listed) != 1 || listed[0].Extra["patch"] != nil {
		t.Fatalf("listing after backfill: %v %v", listed, err)
	}
	full, err := s.Task(ctx, "old-1")
	if err != nil || full.Extra["patch"] != patch {
		t.Fatalf("patch after backfill: %v", err)
	}
}

// Listing and filtering 100,000 imported SWE-bench instances whose patches
// are 30 KB (and test patches 5 KB): the patches stay in task_blobs, so the
// workbench's load and every filter keystroke never touch them. The setup
// writes about 3.5 GB once.
func BenchmarkListFilter100kImported30KBPatches(b *testing.B) {
	ctx := context.Background()
	s := openTemp(b)
	patch := "diff --git a/x.py b/x.py\n" + strings.Repeat("+    value = compute(value)  # a typical added line\n", 600)
	testPatch := strings.Repeat("+    assert f() == 1\n", 250)
	const n = 100_000
	for start := 0; start < n; start += 5000 {
		tasks := make([]*pipeline.Task, 0, 5000)
		for i := start; i < start+5000; i++ {
			tasks = append(tasks, &pipeline.Task{ID: fmt.Sprintf("django__django-%06d", i), Benchmark: "swebench_verified",
				Repo: "django/django", Language: "python", Status: pipeline.StatusImported, Source: "swebench",
				Extra: map[string]any{"patch": patch, "test_patch": testPatch, "version": "4.2"}})
		}
		if err := s.UpsertTasks(ctx, tasks); err != nil {
			b.Fatal(err)
		}
	}
	q, err := query.Parse("language=python repo=django/django score<0.5")
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	b.Run("list", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			tasks, err := s.Tasks(ctx)
			if err != nil || len(tasks) != n {
				b.Fatal(len(tasks), err)
			}
		}
	})
	tasks, _ := s.Tasks(ctx)
	b.Run("filter", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			hits := 0
			for _, t := range tasks {
				if q.Match(t) {
					hits++
				}
			}
			if hits != n {
				b.Fatal(hits)
			}
		}
	})
}
