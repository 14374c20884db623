package validate

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// The container's script ends with a result trailer on stdout: a marker
// line, "@@file PATH SIZE\n" + SIZE bytes + "\n" for each result file,
// then a footer line giving the length of all that. Reading results this
// way saves the engine from mounting the stopped container's file system
// (CopyFromContainer), which costs about 90 ms a run.
//
// The trailer cannot be forged by the test: the script kills every other
// process of the container before it writes the trailer, so the footer is
// the last line of the stream and only the script's own; the tap reads
// the trailer back from that footer, and everything before it (a fake
// trailer a test printed included) is passed on to the log. No secret is
// involved: a test can read the script from /proc/1/cmdline.
const (
	trailerMarker = "@@curate-trailer@@\n"
	trailerFooter = "@@curate-trailer-end "
	// trailerLimit bounds the trailer: MaxTestLog bytes of files and
	// their header lines.
	trailerLimit = MaxTestLog + 1<<20
)

// trailerScript kills what the test left running, then prints the
// trailer for the given files, at most MaxTestLog bytes of them. The
// script ends there with exit 0: a trailer is only believed from a run
// whose script reached its end.
func trailerScript(files []string) string {
	return fmt.Sprintf(`kill -9 -1 2>/dev/null
_ct=/logs/curate/trailer.$$
printf '@@curate-trailer@@\n' > $_ct
for f in %s; do
  _left=$((%d - $(wc -c < $_ct)))
  if [ -f "$f" ] && [ $_left -gt 0 ]; then
    head -c $_left "$f" > $_ct.f; printf '@@file %%s %%s\n' "$f" "$(wc -c < $_ct.f)" >> $_ct; cat $_ct.f >> $_ct; printf '\n' >> $_ct
  fi
done
cat $_ct; printf '%s%%s@@\n' "$(wc -c < $_ct)"; rm -f $_ct $_ct.f
exit 0
`, strings.Join(files, " "), MaxTestLog, trailerFooter)
}

// trailerTap passes a run's output on to next, live, until something that
// may be the trailer's marker; from there it holds back the last limit
// bytes, and at the end (Flush) keeps the trailer and passes on the rest.
type trailerTap struct {
	next    io.Writer
	marker  []byte
	carry   []byte // a tail that may begin the marker
	held    []byte // output from a marker on, at most limit bytes
	holding bool
	limit   int
	found   bool
	trailer []byte
	head    []byte // the stream's first headLimit bytes (see locateReplayed)
}

func newTrailerTap(next io.Writer, limit int) *trailerTap {
	return &trailerTap{next: next, marker: []byte(trailerMarker), limit: limit}
}

func (t *trailerTap) Write(p []byte) (int, error) {
	n := len(p)
	if k := min(headLimit-len(t.head), len(p)); k > 0 {
		t.head = append(t.head, p[:k]...)
	}
	if t.holding {
		t.hold(p)
		return n, nil
	}
	data := p
	if len(t.carry) > 0 {
		data = append(t.carry, p...)
	}
	if i := bytes.Index(data, t.marker); i >= 0 {
		t.next.Write(data[:i])
		t.carry, t.holding = nil, true
		t.hold(data[i:])
		return n, nil
	}
	// Hold back only a tail that could begin the marker, so live output
	// is never delayed.
	hold := 0
	for k := min(len(t.marker)-1, len(data)); k > 0; k-- {
		if bytes.HasPrefix(t.marker, data[len(data)-k:]) {
			hold = k
			break
		}
	}
	t.next.Write(data[:len(data)-hold])
	t.carry = append(t.carry[:0:0], data[len(data)-hold:]...)
	return n, nil
}

// hold keeps p, passing on what falls out of the last limit bytes: the
// real trailer is never longer.
func (t *trailerTap) hold(p []byte) {
	t.held = append(t.held, p...)
	// Moved down only once a quarter of limit is over, so endless
	// output after a fake marker costs no more than four copies a byte.
	if over := len(t.held) - t.limit; over > t.limit/4 {
		t.next.Write(t.held[:over])
		t.held = append(t.held[:0], t.held[over:]...)
	}
}

// Flush ends the stream: the trailer, when the held output ends with a
// footer that measures one, is kept; every other byte is passed on.
func (t *trailerTap) Flush() {
	if !t.holding {
		if len(t.carry) > 0 {
			t.next.Write(t.carry)
			t.carry = nil
		}
		return
	}
	if over := len(t.held) - t.limit; over > 0 {
		t.next.Write(t.held[:over])
		t.held = t.held[over:]
	}
	if start, end, ok := t.locate(); ok {
		t.next.Write(t.held[:start])
		t.trailer = t.held[start+len(t.marker) : end]
		t.found = true
	} else if start, end, after, ok := t.locateReplayed(); ok {
		t.next.Write(t.held[:start])
		fmt.Fprintf(t.next, "curate: the log stream repeated its first %d bytes after the result trailer; not shown again\n", len(t.held)-after)
		t.trailer = t.held[start+len(t.marker) : end]
		t.found = true
	} else {
		t.next.Write(t.held)
	}
	t.held, t.holding = nil, false
}

// locate finds the trailer from the footer on the last line of the held
// output: where its marker starts and its files end.
func (t *trailerTap) locate() (start, end int, ok bool) {
	h := t.held
	if !bytes.HasSuffix(h, []byte("@@\n")) {
		return 0, 0, false
	}
	end = bytes.LastIndexByte(h[:len(h)-1], '\n') + 1
	line := string(h[end : len(h)-3])
	if !strings.HasPrefix(line, trailerFooter) {
		return 0, 0, false
	}
	size, err := strconv.Atoi(strings.TrimSpace(strings.TrimPrefix(line, trailerFooter)))
	if err != nil || size < len(t.marker) || size > end {
		return 0, 0, false
	}
	start = end - size
	return start, end, bytes.HasPrefix(h[start:], t.marker)
}

// files parses the trailer into path -> content.
func (t *trailerTap) files() (map[string][]byte, error) {
	if !t.found {
		return nil, fmt.Errorf("no result trailer at the end of the output")
	}
	out := map[string][]byte{}
	r := bufio.NewReader(bytes.NewReader(t.trailer))
	for {
		head, err := r.ReadString('\n')
		if err == io.EOF && head == "" {
			return out, nil
		}
		f := strings.Fields(head)
		if len(f) != 3 || f[0] != "@@file" {
			return out, fmt.Errorf("bad result trailer line %q", head)
		}
		size, err := strconv.Atoi(f[2])
		if err != nil || size < 0 {
			return out, fmt.Errorf("bad result trailer size %q", head)
		}
		body, _ := io.ReadAll(io.LimitReader(r, int64(size)))
		if len(body) != size {
			return out, fmt.Errorf("result trailer: %s is short", f[1])
		}
		out[f[1]] = body
		if b, err := r.ReadByte(); err != nil || b != '\n' {
			return out, fmt.Errorf("result trailer: %s not terminated", f[1])
		}
	}
}
