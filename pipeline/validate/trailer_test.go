package validate

import (
	"bytes"
	"testing"
)

func TestTrailerTap(t *testing.T) {
	nonce := "abc123"
	stream := "line one\nno newline" + "@@curate-trailer-abc123@@\n" +
		"@@file /logs/verifier/reward.txt 2\n1\n\n" + "@@file /logs/curate/test-exit 2\n0\n\n"
	for chunk := 1; chunk <= len(stream); chunk++ {
		var out bytes.Buffer
		tap := newTrailerTap(&out, nonce, 1<<20)
		for i := 0; i < len(stream); i += chunk {
			tap.Write([]byte(stream[i:min(i+chunk, len(stream))]))
		}
		tap.Flush()
		if out.String() != "line one\nno newline" {
			t.Fatalf("chunk %d: passed on %q", chunk, out.String())
		}
		files, err := tap.files()
		if err != nil || string(files["/logs/verifier/reward.txt"]) != "1\n" || string(files["/logs/curate/test-exit"]) != "0\n" {
			t.Fatalf("chunk %d: files %q, %v", chunk, files, err)
		}
	}
}

// Output is passed on at once unless its tail could start the marker.
func TestTrailerTapDoesNotDelayLines(t *testing.T) {
	var out bytes.Buffer
	tap := newTrailerTap(&out, "n", 1<<20)
	tap.Write([]byte("running a long suite\n"))
	if out.String() != "running a long suite\n" {
		t.Fatalf("held back: %q", out.String())
	}
	tap.Write([]byte("x@@cur"))
	tap.Flush()
	if out.String() != "running a long suite\nx@@cur" {
		t.Fatalf("got %q", out.String())
	}
	if _, err := tap.files(); err == nil {
		t.Fatal("no trailer should be an error")
	}
}

func FuzzTrailerFiles(f *testing.F) {
	f.Add([]byte("@@file /a 1\nx\n@@file /b 0\n\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		var out bytes.Buffer
		tap := newTrailerTap(&out, "n", 1<<16)
		tap.Write([]byte("@@curate-trailer-n@@\n"))
		tap.Write(data)
		tap.files() // must not panic
	})
}
