// Package gitmine finds merged pull requests in a local clone's
// first-parent history with a single `git log` pass.
package gitmine

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"

	"curate/pipeline/source"
)

// Commit is one record of the log: header fields and its numstat against
// the first parent.
type Commit struct {
	Hash    string
	Parents []string
	Time    int64 // committer time, Unix seconds
	Author  string
	Subject string
	Body    string
	Files   []source.FileChange
}

// logFormat returns the --format for ParseLog: a marker (random per run,
// so no commit message can forge a record boundary), then NUL-separated
// fields. With -z git ends the body with NUL and NUL-terminates numstat
// entries.
func logFormat(marker string) string {
	return "%x1e" + marker + "%x00%H%x00%P%x00%ct%x00%an%x00%s%x00%b"
}

// ParseLog reads `git log -z --numstat --format=logFormat(marker)` output
// and calls fn for each commit, in order. Malformed records are errors
// naming the record; fn's error stops the parse.
func ParseLog(r io.Reader, marker string, fn func(*Commit) error) error {
	sep := []byte("\x1e" + marker + "\x00")
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 1<<16), 256<<20)
	sc.Split(func(data []byte, atEOF bool) (int, []byte, error) {
		if len(data) == 0 {
			if atEOF {
				return 0, nil, nil
			}
			return 0, nil, nil
		}
		if !bytes.HasPrefix(data, sep) {
			if len(data) < len(sep) && !atEOF && bytes.HasPrefix(sep, data) {
				return 0, nil, nil
			}
			return 0, nil, fmt.Errorf("git log output: record does not start with the marker (got %q)", head(data))
		}
		if i := bytes.Index(data[len(sep):], sep); i >= 0 {
			return len(sep) + i, data[len(sep) : len(sep)+i], nil
		}
		if atEOF {
			return len(data), data[len(sep):], nil
		}
		return 0, nil, nil
	})
	n := 0
	for sc.Scan() {
		n++
		c, err := parseRecord(sc.Bytes())
		if err != nil {
			return fmt.Errorf("git log output, record %d: %w", n, err)
		}
		if err := fn(c); err != nil {
			return err
		}
	}
	return sc.Err()
}

func head(b []byte) []byte {
	if len(b) > 40 {
		return b[:40]
	}
	return b
}

func parseRecord(rec []byte) (*Commit, error) {
	fields := make([]string, 0, 6)
	for len(fields) < 6 {
		i := bytes.IndexByte(rec, 0)
		if i < 0 {
			if len(fields) == 5 { // body is last; the final NUL may be missing at EOF
				fields = append(fields, string(rec))
				rec = nil
				break
			}
			return nil, fmt.Errorf("truncated header (%d of 6 fields)", len(fields))
		}
		fields = append(fields, string(rec[:i]))
		rec = rec[i+1:]
	}
	c := &Commit{Hash: fields[0], Author: fields[3], Subject: fields[4], Body: strings.TrimRight(fields[5], "\n")}
	if !isHex(c.Hash) {
		return nil, fmt.Errorf("bad commit id %q", head([]byte(c.Hash)))
	}
	if fields[1] != "" {
		c.Parents = strings.Split(fields[1], " ")
		for _, p := range c.Parents {
			if !isHex(p) {
				return nil, fmt.Errorf("commit %s: bad parent id %q", c.Hash, head([]byte(p)))
			}
		}
	}
	t, err := strconv.ParseInt(fields[2], 10, 64)
	if err != nil {
		return nil, fmt.Errorf("commit %s: bad time %q", c.Hash, fields[2])
	}
	c.Time = t
	files, err := parseNumstat(rec)
	if err != nil {
		return nil, fmt.Errorf("commit %s: %w", c.Hash, err)
	}
	c.Files = files
	return c, nil
}

// parseNumstat reads -z numstat entries: "A\tD\tpath\0", or for a rename
// "A\tD\t\0old\0new\0"; binary files have "-" counts.
func parseNumstat(b []byte) ([]source.FileChange, error) {
	b = bytes.TrimLeft(b, "\n")
	var files []source.FileChange
	for len(b) > 0 {
		i := bytes.IndexByte(b, 0)
		if i < 0 {
			i = len(b)
		}
		entry := b[:i]
		b = b[min(i+1, len(b)):]
		if len(entry) == 0 {
			continue
		}
		parts := bytes.SplitN(entry, []byte("\t"), 3)
		if len(parts) != 3 {
			return nil, fmt.Errorf("bad numstat entry %q", head(entry))
		}
		f := source.FileChange{}
		if string(parts[0]) == "-" && string(parts[1]) == "-" {
			f.Binary = true
		} else {
			a, err1 := strconv.Atoi(string(parts[0]))
			d, err2 := strconv.Atoi(string(parts[1]))
			if err1 != nil || err2 != nil || a < 0 || d < 0 {
				return nil, fmt.Errorf("bad numstat counts %q", head(entry))
			}
			f.Added, f.Removed = a, d
		}
		if len(parts[2]) > 0 {
			f.Path = string(parts[2])
		} else {
			var old, nu []byte
			old, b = cut(b)
			nu, b = cut(b)
			if len(old) == 0 || len(nu) == 0 {
				return nil, fmt.Errorf("truncated rename entry")
			}
			f.OldPath, f.Path = string(old), string(nu)
		}
		files = append(files, f)
	}
	return files, nil
}

func cut(b []byte) (field, rest []byte) {
	if i := bytes.IndexByte(b, 0); i >= 0 {
		return b[:i], b[i+1:]
	}
	return b, nil
}

func isHex(s string) bool {
	if len(s) < 7 || len(s) > 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}
