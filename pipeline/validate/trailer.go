package validate

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// The container's script ends by printing a trailer on stdout: a marker
// line with a per-run nonce, then "@@file PATH SIZE\n" + SIZE bytes + "\n"
// for each result file. Reading results this way saves the engine from
// mounting the stopped container's file system (CopyFromContainer), which
// costs about 90 ms a run. The tap passes everything before the marker on
// and keeps the trailer aside.
type trailerTap struct {
	next    io.Writer
	marker  []byte
	carry   []byte // bytes held back that may start the marker
	found   bool
	trailer bytes.Buffer
	limit   int
	over    bool
}

func newTrailerTap(next io.Writer, nonce string, limit int) *trailerTap {
	return &trailerTap{next: next, marker: []byte("@@curate-trailer-" + nonce + "@@\n"), limit: limit}
}

// trailerScript prints the trailer for the given files.
func trailerScript(nonce string, files []string) string {
	return fmt.Sprintf(`printf '@@curate-trailer-%s@@\n'
for f in %s; do
  if [ -f "$f" ]; then printf '@@file %%s %%s\n' "$f" "$(wc -c < "$f")"; cat "$f"; printf '\n'; fi
done
`, nonce, strings.Join(files, " "))
}

func (t *trailerTap) Write(p []byte) (int, error) {
	n := len(p)
	if t.found {
		t.keep(p)
		return n, nil
	}
	data := p
	if len(t.carry) > 0 {
		data = append(t.carry, p...)
	}
	if i := bytes.Index(data, t.marker); i >= 0 {
		t.found = true
		t.next.Write(data[:i])
		t.carry = nil
		t.keep(data[i+len(t.marker):])
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

func (t *trailerTap) keep(p []byte) {
	room := t.limit - t.trailer.Len()
	if len(p) > room {
		p, t.over = p[:max(room, 0)], true
	}
	t.trailer.Write(p)
}

// Flush passes on held-back bytes when the marker never came.
func (t *trailerTap) Flush() {
	if !t.found && len(t.carry) > 0 {
		t.next.Write(t.carry)
		t.carry = nil
	}
}

// files parses the trailer into path -> content.
func (t *trailerTap) files() (map[string][]byte, error) {
	if !t.found {
		return nil, fmt.Errorf("no result trailer in the output")
	}
	out := map[string][]byte{}
	r := bufio.NewReader(bytes.NewReader(t.trailer.Bytes()))
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
			if t.over {
				out[f[1]] = body
				return out, nil
			}
			return out, fmt.Errorf("result trailer: %s is short", f[1])
		}
		out[f[1]] = body
		if b, err := r.ReadByte(); err != nil || b != '\n' {
			return out, fmt.Errorf("result trailer: %s not terminated", f[1])
		}
	}
}
