package validate

import (
	"bytes"
	"strconv"
)

// headLimit is how much of a stream's start the tap keeps to recognise a
// replay of it.
const headLimit = 64 << 10

// locateReplayed finds a trailer whose footer is followed not by the end
// of the stream but by a replay of the stream's own start: a cluster's
// log stream, followed to the container's end, sent the whole log again,
// cut short (a campaign on the CI cluster: a Rust task's NOP run
// `reward_missing` with the trailer in the middle of its log). Nothing of the container's can follow its
// footer (the script killed every other process and exits right after
// it), so bytes after it that repeat the stream's first bytes are the
// transport's, and the trailer before them stands. after is where the
// replay starts. locate, the trailer at the very end, is tried first.
func (t *trailerTap) locateReplayed() (start, end, after int, ok bool) {
	h := t.held
	footer := []byte(trailerFooter)
	for i := bytes.LastIndex(h, footer); i > 0; i = bytes.LastIndex(h[:i], footer) {
		if h[i-1] != '\n' {
			continue
		}
		nl := bytes.IndexByte(h[i:], '\n')
		if nl < 0 {
			continue
		}
		line := h[i : i+nl]
		after = i + nl + 1
		if !bytes.HasSuffix(line, []byte("@@")) || !t.replays(h[after:]) {
			continue
		}
		size, err := strconv.Atoi(string(line[len(footer) : len(line)-2]))
		if err != nil || size < len(t.marker) || size > i {
			continue
		}
		start = i - size
		if bytes.HasPrefix(h[start:], t.marker) {
			return start, i, after, true
		}
	}
	return 0, 0, 0, false
}

// replays says whether rest repeats the start of the stream (as much of
// it as the tap kept), at least a line of it.
func (t *trailerTap) replays(rest []byte) bool {
	n := min(len(rest), len(t.head))
	return n >= 16 && bytes.Equal(rest[:n], t.head[:n])
}
