package cli

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"curate/internal/fixtures"
	"curate/pipeline"
	"curate/workspace"
)

var (
	bigOnce sync.Once
	bigRoot string
	bigErr  error
)

// bigWorkspace builds a workspace of 100,000 tasks once per test binary.
func bigWorkspace(b *testing.B) string {
	bigOnce.Do(func() {
		dir, err := os.MkdirTemp("", "curate-bench-")
		if err != nil {
			bigErr = err
			return
		}
		root, err := workspace.InitProfile(filepath.Join(dir, "big"), "ccb")
		if err != nil {
			bigErr = err
			return
		}
		ws, err := workspace.Open(context.Background(), root)
		if err != nil {
			bigErr = err
			return
		}
		defer ws.Close()
		bigErr = ws.Store.UpsertTasks(context.Background(), fixtures.Large(100000))
		bigRoot = root
	})
	if bigErr != nil {
		b.Fatal(bigErr)
	}
	return bigRoot
}

// BenchmarkOpenWorkspace100k: find and open a 100,000-task workspace and
// count its tasks (target < 300 ms).
func BenchmarkOpenWorkspace100k(b *testing.B) {
	root := bigWorkspace(b)
	ctx := context.Background()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		ws, err := workspace.Open(ctx, root)
		if err != nil {
			b.Fatal(err)
		}
		if n, err := ws.Store.CountTasks(ctx); err != nil || n != 100000 {
			b.Fatal(n, err)
		}
		ws.Close()
	}
}

// BenchmarkListJSON100k: `curate list --json` over 100,000 tasks, end to
// end through the CLI (target < 1 s).
func BenchmarkListJSON100k(b *testing.B) {
	root := bigWorkspace(b)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		code := Run(context.Background(), []string{"-w", root, "list", "--json"}, nil, io.Discard, io.Discard)
		if code != 0 {
			b.Fatal("list failed")
		}
	}
}

// BenchmarkLabelWrites: 10,000 single-task label writes, each its own
// transaction and event (target > 2,000 per second).
func BenchmarkLabelWrites(b *testing.B) {
	ctx := context.Background()
	root, err := workspace.InitProfile(b.TempDir(), "ccb")
	if err != nil {
		b.Fatal(err)
	}
	ws, err := workspace.Open(ctx, root)
	if err != nil {
		b.Fatal(err)
	}
	defer ws.Close()
	tasks := fixtures.Catalog(fixtures.DemoSpec, 1)
	ws.Store.UpsertTasks(ctx, tasks)
	diffs := []string{"easy", "medium", "hard", "very_hard"}
	b.ResetTimer()
	const writes = 10000
	for i := 0; i < b.N; i++ {
		for j := 0; j < writes; j++ {
			c := pipeline.Change{TaskID: tasks[j%len(tasks)].ID, Field: pipeline.FieldDifficulty, New: diffs[(i+j)%4]}
			if _, err := ws.Store.Label(ctx, "bench", []pipeline.Change{c}); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(writes*b.N)/b.Elapsed().Seconds(), "writes/s")
}

// BenchmarkScoreCLI100k: `curate score` over 100,000 tasks end to end
// (load, score, compare; nothing changed after the first run).
func BenchmarkScoreCLI100k(b *testing.B) {
	root := bigWorkspace(b)
	if code := Run(context.Background(), []string{"-w", root, "score"}, nil, io.Discard, io.Discard); code != 0 {
		b.Fatal("score failed")
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if code := Run(context.Background(), []string{"-w", root, "score"}, nil, io.Discard, io.Discard); code != 0 {
			b.Fatal("score failed")
		}
	}
}
