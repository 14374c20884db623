package cli

import (
	"context"
	"io"
	"testing"

	"curate/workspace"
)

// BenchmarkLoadTasks100k: store.Tasks alone, the load half of list --json.
func BenchmarkLoadTasks100k(b *testing.B) {
	root := bigWorkspace(b)
	ws, _ := workspace.Open(context.Background(), root)
	defer ws.Close()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		ws.Store.Tasks(context.Background())
	}
}

// BenchmarkEncodeListJSON100k: the JSON half of list --json.
func BenchmarkEncodeListJSON100k(b *testing.B) {
	root := bigWorkspace(b)
	ws, _ := workspace.Open(context.Background(), root)
	defer ws.Close()
	tasks, _ := ws.Store.Tasks(context.Background())
	env := &Env{Out: io.Discard}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		writeTaskArray(env, tasks)
	}
}
