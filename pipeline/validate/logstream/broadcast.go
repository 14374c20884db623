// Package logstream turns a run's raw output into clean lines and fans them
// out to any number of subscribers (the CLI's --follow now, the TUI's log
// pane later) and to a log file. A slow subscriber never blocks the run:
// each one has a bounded buffer, and lines that do not fit are dropped and
// counted, so memory stays flat however much a run prints.
package logstream

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"sync"

	"curate/pipeline/sanitize"
)

// DefaultBuffer is how many lines a subscriber may fall behind before lines
// are dropped for it.
const DefaultBuffer = 4096

// MaxLine caps one line; longer lines are split so a run printing one
// endless line cannot grow memory.
const MaxLine = 16 << 10

// Broadcaster receives lines and delivers them to subscribers and a sink.
// It is safe for concurrent use.
type Broadcaster struct {
	mu      sync.Mutex
	subs    map[*Subscription]struct{}
	sink    *bufio.Writer
	lines   int64
	closed  bool
	tail    []string // ring of the last lines, for error messages
	tailPos int
	limit   int64 // output bytes passed on at most (SetOutputLimit)
	output  int64 // output bytes passed on
	dropped int64 // output lines dropped over the limit
}

// New returns a broadcaster writing every line to sink (may be nil).
func New(sink io.Writer) *Broadcaster {
	b := &Broadcaster{subs: map[*Subscription]struct{}{}, tail: make([]string, 20)}
	if sink != nil {
		b.sink = bufio.NewWriterSize(sink, 64<<10)
	}
	return b
}

// Subscription is one reader of a broadcaster. Next returns lines in batches.
type Subscription struct {
	b       *Broadcaster
	max     int
	mu      sync.Mutex
	buf     []string
	dropped int
	done    bool
	notify  chan struct{}
}

// Subscribe adds a reader that may fall up to buffer lines behind
// (DefaultBuffer when buffer <= 0). A subscriber joining late sees lines
// from then on.
func (b *Broadcaster) Subscribe(buffer int) *Subscription {
	if buffer <= 0 {
		buffer = DefaultBuffer
	}
	s := &Subscription{b: b, max: buffer, notify: make(chan struct{}, 1)}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		s.done = true
		close(s.notify)
		return s
	}
	b.subs[s] = struct{}{}
	return s
}

// Unsubscribe stops delivery to s.
func (s *Subscription) Unsubscribe() {
	s.b.mu.Lock()
	delete(s.b.subs, s)
	s.b.mu.Unlock()
	s.finish()
}

func (s *Subscription) finish() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.done {
		s.done = true
		close(s.notify)
	}
}

func (s *Subscription) push(lines []string) {
	s.mu.Lock()
	if s.done {
		s.mu.Unlock()
		return
	}
	room := min(s.max-len(s.buf), len(lines))
	if room < 0 {
		room = 0
	}
	s.buf = append(s.buf, lines[:room]...)
	s.dropped += len(lines) - room
	s.mu.Unlock()
	select {
	case s.notify <- struct{}{}:
	default:
	}
}

// Next blocks until lines are available or the stream ended, then returns
// every buffered line and how many were dropped since the last call. ok is
// false once the stream has ended and everything was read.
func (s *Subscription) Next() (lines []string, dropped int, ok bool) {
	for {
		s.mu.Lock()
		if len(s.buf) > 0 || s.dropped > 0 {
			lines, dropped = s.buf, s.dropped
			s.buf, s.dropped = nil, 0
			s.mu.Unlock()
			return lines, dropped, true
		}
		done := s.done
		s.mu.Unlock()
		if done {
			return nil, 0, false
		}
		<-s.notify
	}
}

// Ready is signalled when lines may be waiting; for select loops (the TUI).
func (s *Subscription) Ready() <-chan struct{} { return s.notify }

// Line publishes one already split line: control sequences are stripped.
func (b *Broadcaster) Line(raw string) { b.publish([]string{raw}, false) }

// clean strips control sequences, skipping the copy for plain ASCII lines
// (the common case, and the hot path of a run printing gigabytes).
func clean(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f {
			return sanitize.Line(s)
		}
	}
	return s
}

// SetOutputLimit caps the bytes of output lines (those of Writer) the
// broadcaster passes on at limit (0 = no cap): the first line over it is
// replaced by one marker line and the rest of the output is dropped, for
// the sink and subscribers alike. Lines of Line (the caller's own) always
// pass, so a capped run's log still ends with its outcome.
func (b *Broadcaster) SetOutputLimit(limit int64) {
	b.mu.Lock()
	b.limit = limit
	b.mu.Unlock()
}

// Dropped is how many output lines the limit dropped.
func (b *Broadcaster) Dropped() int64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.dropped
}

// capOutput applies the output limit to a batch, under b.mu.
func (b *Broadcaster) capOutput(raw []string) []string {
	if b.limit <= 0 {
		return raw
	}
	if b.dropped > 0 { // over the limit already
		b.dropped += int64(len(raw))
		return nil
	}
	for i, l := range raw {
		if b.output+int64(len(l))+1 > b.limit {
			b.dropped += int64(len(raw) - i)
			return append(raw[:i:i], fmt.Sprintf("curate: log cap: the output passed %d bytes (max_log); the rest is not kept, the run goes on", b.limit))
		}
		b.output += int64(len(l)) + 1
	}
	return raw
}

// publish delivers a batch of raw lines under one lock; output lines
// count against the output limit.
func (b *Broadcaster) publish(raw []string, output bool) {
	for i, l := range raw {
		raw[i] = clean(l)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return
	}
	if output {
		if raw = b.capOutput(raw); len(raw) == 0 {
			return
		}
	}
	b.lines += int64(len(raw))
	if b.sink != nil {
		for _, line := range raw {
			b.sink.WriteString(line)
			b.sink.WriteByte('\n')
		}
	}
	for _, line := range raw {
		b.tail[b.tailPos%len(b.tail)] = line
		b.tailPos++
	}
	for s := range b.subs {
		s.push(raw)
	}
}

// Lines is how many lines were published.
func (b *Broadcaster) Lines() int64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.lines
}

// Tail returns the last lines published (up to 20).
func (b *Broadcaster) Tail() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	n := min(b.tailPos, len(b.tail))
	out := make([]string, 0, n)
	for i := b.tailPos - n; i < b.tailPos; i++ {
		out = append(out, b.tail[i%len(b.tail)])
	}
	return out
}

// Close flushes the sink and ends every subscription.
func (b *Broadcaster) Close() error {
	b.mu.Lock()
	if b.closed {
		b.mu.Unlock()
		return nil
	}
	b.closed = true
	subs := b.subs
	b.subs = nil
	var err error
	if b.sink != nil {
		err = b.sink.Flush()
	}
	b.mu.Unlock()
	for s := range subs {
		s.finish()
	}
	return err
}

// Writer returns an io.Writer that splits raw bytes into lines and
// publishes them. Use one per stream (stdout, stderr) so their partial lines
// never mix. A carriage return not followed by a newline starts the line
// over, so progress bars collapse to their final state. Call Flush at the
// end to publish a last unterminated line.
func (b *Broadcaster) Writer() *LineWriter { return &LineWriter{b: b} }

// LineWriter is the per-stream splitter; see Broadcaster.Writer.
type LineWriter struct {
	b     *Broadcaster
	cur   []byte
	cr    bool // last byte was '\r'
	dirty bool // cur holds a line that has not been published
}

// Write implements io.Writer; it never fails. Lines completed by p are
// published together.
func (w *LineWriter) Write(p []byte) (int, error) {
	n := len(p)
	var batch []string
	for len(p) > 0 {
		if w.cr {
			w.cr = false
			if p[0] != '\n' {
				// "\r" then more text: a progress redraw, drop what came before.
				w.cur = w.cur[:0]
				w.dirty = false
			}
		}
		i := bytes.IndexAny(p, "\r\n")
		if i < 0 {
			i = len(p)
		}
		if room := MaxLine - len(w.cur); i > room {
			// An endless line: publish it in MaxLine pieces.
			w.cur = append(w.cur, p[:room]...)
			batch = append(batch, string(w.cur))
			w.cur, w.dirty, p = w.cur[:0], false, p[room:]
			continue
		}
		if i > 0 {
			w.cur = append(w.cur, p[:i]...)
			w.dirty = true
		}
		if i == len(p) {
			break
		}
		if p[i] == '\n' {
			batch = append(batch, string(w.cur))
			w.cur, w.dirty = w.cur[:0], false
		} else {
			w.cr = true
		}
		p = p[i+1:]
	}
	if len(batch) > 0 {
		w.b.publish(batch, true)
	}
	return n, nil
}

// Flush publishes a final line that had no newline.
func (w *LineWriter) Flush() {
	if w.dirty {
		w.b.publish([]string{string(w.cur)}, true)
		w.cur, w.dirty = w.cur[:0], false
	}
	w.cr = false
}
