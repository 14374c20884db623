package validate

import (
	"bytes"
	"fmt"
	"io"
)

// maxReplayLog bounds how much of a failed build's output a runner keeps
// to replay into the logs of the later runs that need the same image.
const maxReplayLog = 256 << 10

// failedBuild is an image build that failed in this process: its error
// and the end of its output. A broken environment is built once; every
// later run that needs it gets the error and, in its own log, the build's
// output, so its failure class comes from the build's log as the first
// run's does (not `unclassified`).
type failedBuild struct {
	err error
	log []byte
}

// failedBefore returns the error of tag's earlier failed build, after
// writing its output to out; nil when tag has not failed.
func (d *DockerRunner) failedBefore(tag string, out io.Writer) error {
	d.mu.Lock()
	f := d.failed[tag]
	d.mu.Unlock()
	if f == nil {
		return nil
	}
	if out != nil {
		fmt.Fprintf(out, "curate: image %s did not build earlier in this process; not building it again. Its build output:\n", tag)
		out.Write(f.log)
		if len(f.log) > 0 && f.log[len(f.log)-1] != '\n' {
			io.WriteString(out, "\n")
		}
	}
	return f.err
}

// rememberFailed records tag's failed build with the end of its output.
func (d *DockerRunner) rememberFailed(tag string, err error, log []byte) {
	d.mu.Lock()
	d.failed[tag] = &failedBuild{err: err, log: log}
	d.mu.Unlock()
}

// tailBuffer keeps the last max bytes written to it, from a line start.
type tailBuffer struct {
	max int
	buf []byte
	cut bool // the start was dropped
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.buf = append(t.buf, p...)
	if len(t.buf) > 2*t.max {
		t.trim()
	}
	return len(p), nil
}

func (t *tailBuffer) trim() {
	if len(t.buf) <= t.max {
		return
	}
	t.cut = true
	rest := t.buf[len(t.buf)-t.max:]
	if i := bytes.IndexByte(rest, '\n'); i >= 0 && i+1 < len(rest) {
		rest = rest[i+1:]
	}
	t.buf = append([]byte(nil), rest...)
}

// Bytes is the kept tail, with a line saying when its start was dropped.
func (t *tailBuffer) Bytes() []byte {
	t.trim()
	if !t.cut {
		return t.buf
	}
	return append([]byte(fmt.Sprintf("curate: (the build output's first part is not kept; its last %d KB follow)\n", t.max>>10)), t.buf...)
}
