package validate

import (
	"bytes"
	"fmt"
	"testing"
)

// realTrailer is a trailer as trailerScript prints it.
func realTrailer(files ...string) string {
	body := trailerMarker
	for i := 0; i < len(files); i += 2 {
		body += fmt.Sprintf("@@file %s %d\n%s\n", files[i], len(files[i+1]), files[i+1])
	}
	return body + fmt.Sprintf("%s%d@@\n", trailerFooter, len(body))
}

func TestTrailerTap(t *testing.T) {
	stream := "line one\nno newline" + realTrailer("/logs/verifier/reward.txt", "1\n", "/logs/curate/test-exit", "0\n")
	for chunk := 1; chunk <= len(stream); chunk++ {
		var out bytes.Buffer
		tap := newTrailerTap(&out, 1<<20)
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

// Only the trailer the stream ends with counts; fake ones before it, and
// everything between, are passed on, even past the held-back limit.
func TestTrailerTapKeepsFakesInTheLog(t *testing.T) {
	fake := realTrailer("/logs/verifier/reward.txt", "1\n")
	swallow := trailerMarker + "@@file /logs/verifier/reward.txt 2\n1\n\n@@file /x 100000\n"
	long := bytes.Repeat([]byte("padding line\n"), 1000)
	printed := "start\n" + fake + swallow + string(long) + fake + "end\n"
	var out bytes.Buffer
	tap := newTrailerTap(&out, 4096)
	tap.Write([]byte(printed))
	tap.Write([]byte(realTrailer("/logs/verifier/reward.txt", "0\n")))
	tap.Flush()
	if out.String() != printed {
		t.Fatalf("log is not what the test printed: %d bytes of %d", out.Len(), len(printed))
	}
	files, err := tap.files()
	if err != nil || string(files["/logs/verifier/reward.txt"]) != "0\n" {
		t.Fatalf("files %q, %v", files, err)
	}
}

// A stream that ends without a footer (the script was killed) has no
// trailer, and every byte is passed on.
func TestTrailerTapWithoutFooter(t *testing.T) {
	printed := "x\n" + trailerMarker + "@@file /logs/verifier/reward.txt 2\n1\n\n" + trailerFooter + "9999@@\n"
	var out bytes.Buffer
	tap := newTrailerTap(&out, 1<<20)
	tap.Write([]byte(printed))
	tap.Flush()
	if out.String() != printed || tap.found {
		t.Fatalf("found %v, passed on %q", tap.found, out.String())
	}
}

// Output is passed on at once unless its tail could start the marker.
func TestTrailerTapDoesNotDelayLines(t *testing.T) {
	var out bytes.Buffer
	tap := newTrailerTap(&out, 1<<20)
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
		tap := newTrailerTap(&out, 1<<16)
		tap.Write([]byte(trailerMarker))
		tap.Write(data)
		tap.Write([]byte(fmt.Sprintf("%s%d@@\n", trailerFooter, len(trailerMarker)+len(data))))
		tap.Flush()
		tap.files() // must not panic
	})
}

// A cluster's log stream, followed to the container's end, sent the log
// again from its start and cut it short (campaign on the CI cluster,
// tokio-rs/bytes PR 827: the trailer in the middle of the log, the run
// `reward_missing`). Bytes after the footer that replay the stream's
// start are the transport's: the trailer stands, the replay is dropped
// with a line saying so. Bytes after the footer that are anything else
// still void it.
func TestTrailerTapDropsAReplayedStream(t *testing.T) {
	output := "curate: verifier: bash /tests/test.sh\ntest a ... ok\ncurate: test status 0\n"
	stream := output + realTrailer("/logs/verifier/reward.txt", "1\n")
	for _, cut := range []int{len(output) / 2, len(stream) - 5} {
		var out bytes.Buffer
		tap := newTrailerTap(&out, 1<<20)
		tap.Write([]byte(stream))
		tap.Write([]byte(stream[:cut]))
		tap.Flush()
		files, err := tap.files()
		if err != nil || string(files["/logs/verifier/reward.txt"]) != "1\n" {
			t.Fatalf("replay of %d bytes: files %q, %v", cut, files, err)
		}
		want := output + fmt.Sprintf("curate: the log stream repeated its first %d bytes after the result trailer; not shown again\n", cut)
		if out.String() != want {
			t.Errorf("replay of %d bytes: log %q, want %q", cut, out.String(), want)
		}
	}
	var out bytes.Buffer
	tap := newTrailerTap(&out, 1<<20)
	tap.Write([]byte(stream + "a test's own line printed after the footer\n"))
	tap.Flush()
	if tap.found {
		t.Error("a trailer followed by other output was believed")
	}
}
