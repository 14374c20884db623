package logstream

import (
	"bytes"
	"strings"
	"sync"
	"testing"
)

func TestLineWriter(t *testing.T) {
	cases := []struct {
		name string
		in   []string // written in these chunks
		want []string
	}{
		{"plain", []string{"a\nb\n"}, []string{"a", "b"}},
		{"split chunks", []string{"he", "llo\nwor", "ld"}, []string{"hello", "world"}},
		{"crlf", []string{"a\r\nb\r", "\n"}, []string{"a", "b"}},
		{"progress collapsed", []string{"10%\r20%\r", "100%\ndone\n"}, []string{"100%", "done"}},
		{"trailing cr flushed", []string{"x\r"}, []string{"x"}},
		{"escapes stripped", []string{"\x1b[31mred\x1b[0m\n"}, []string{"red"}},
		{"empty lines kept", []string{"\n\n"}, []string{"", ""}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var sink bytes.Buffer
			b := New(&sink)
			s := b.Subscribe(0)
			w := b.Writer()
			for _, c := range tc.in {
				w.Write([]byte(c))
			}
			w.Flush()
			b.Close()
			var got []string
			for {
				lines, _, ok := s.Next()
				if !ok {
					break
				}
				got = append(got, lines...)
			}
			if strings.Join(got, "|") != strings.Join(tc.want, "|") {
				t.Fatalf("lines = %q, want %q", got, tc.want)
			}
			if sink.String() != strings.Join(tc.want, "\n")+"\n" {
				t.Fatalf("sink = %q", sink.String())
			}
		})
	}
}

func TestLongLineSplit(t *testing.T) {
	b := New(nil)
	s := b.Subscribe(0)
	w := b.Writer()
	w.Write(bytes.Repeat([]byte("x"), MaxLine*2+5))
	w.Flush()
	b.Close()
	lines, _, _ := s.Next()
	if len(lines) != 3 || len(lines[0]) != MaxLine || len(lines[2]) != 5 {
		t.Fatalf("got %d lines", len(lines))
	}
}

// A subscriber that never reads must not block the writer nor hold more
// than its buffer; it learns how many lines it missed.
func TestSlowSubscriberDropsAndCounts(t *testing.T) {
	b := New(nil)
	slow := b.Subscribe(10)
	fast := b.Subscribe(1 << 20)
	var wg sync.WaitGroup
	wg.Add(1)
	total := 0
	go func() {
		defer wg.Done()
		for {
			lines, dropped, ok := fast.Next()
			if !ok {
				return
			}
			total += len(lines) + dropped
		}
	}()
	for i := 0; i < 1000; i++ {
		b.Line("line")
	}
	b.Close()
	wg.Wait()
	if total != 1000 {
		t.Fatalf("fast subscriber saw %d lines, want 1000", total)
	}
	lines, dropped, ok := slow.Next()
	if !ok || len(lines) != 10 || dropped != 990 {
		t.Fatalf("slow: %d lines, %d dropped, ok=%v", len(lines), dropped, ok)
	}
	if _, _, ok := slow.Next(); ok {
		t.Fatal("stream should be over")
	}
	if b.Lines() != 1000 || len(b.Tail()) != 20 {
		t.Fatalf("lines=%d tail=%d", b.Lines(), len(b.Tail()))
	}
}

func TestSubscribeAfterCloseEnds(t *testing.T) {
	b := New(nil)
	b.Close()
	if _, _, ok := b.Subscribe(1).Next(); ok {
		t.Fatal("want ended subscription")
	}
	s := New(nil).Subscribe(1)
	s.Unsubscribe()
	if _, _, ok := s.Next(); ok {
		t.Fatal("want ended after unsubscribe")
	}
}

func FuzzLineWriter(f *testing.F) {
	f.Add([]byte("a\r\nb\rc\n\x1b[2Kd"), 3)
	f.Fuzz(func(t *testing.T, data []byte, chunk int) {
		if chunk <= 0 {
			chunk = 1
		}
		b := New(nil)
		s := b.Subscribe(1 << 20)
		w := b.Writer()
		for i := 0; i < len(data); i += chunk {
			end := min(i+chunk, len(data))
			w.Write(data[i:end])
		}
		w.Flush()
		b.Close()
		lines, _, _ := s.Next()
		for _, l := range lines {
			if strings.ContainsAny(l, "\n\r\x1b") || len(l) > MaxLine*4 {
				t.Fatalf("bad line %q", l)
			}
		}
	})
}

// Output over the limit is dropped after one marker line; the caller's
// own lines still pass, so the log ends with what the caller says last.
func TestOutputLimit(t *testing.T) {
	var sink bytes.Buffer
	b := New(&sink)
	b.SetOutputLimit(100)
	w := b.Writer()
	for i := 0; i < 50; i++ {
		w.Write([]byte("0123456789\n")) // 11 bytes a line: 9 fit
	}
	w.Write([]byte("x\n"))
	b.Line("curate: outcome ok")
	b.Close()
	got := sink.String()
	if strings.Count(got, "0123456789\n") != 9 || strings.Count(got, "curate: log cap:") != 1 ||
		strings.Contains(got, "x\n") || !strings.HasSuffix(got, "curate: outcome ok\n") || b.Dropped() != 42 {
		t.Fatalf("dropped %d, log:\n%s", b.Dropped(), got)
	}
}
