package logstream

import (
	"bytes"
	"io"
	"testing"
)

// BenchmarkLineWriter measures splitting, sanitizing and fanning out
// 100-byte lines to a file sink, a reader and a stalled subscriber.
func BenchmarkLineWriter(b *testing.B) {
	chunk := bytes.Repeat(append(bytes.Repeat([]byte("x"), 99), '\n'), 320) // 32 KB writes, like a stream copy
	bc := New(io.Discard)
	bc.Subscribe(256)
	fast := bc.Subscribe(0)
	go func() {
		for {
			if _, _, ok := fast.Next(); !ok {
				return
			}
		}
	}()
	w := bc.Writer()
	b.SetBytes(int64(len(chunk)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		w.Write(chunk)
	}
	b.StopTimer()
	bc.Close()
}
