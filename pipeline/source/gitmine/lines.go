package gitmine

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	gitcmd "curate/internal/git"
	"curate/pipeline/source"
)

// MeasureLines sets Lines on every file of prs (head version, base when
// deleted) with one `git cat-file --batch` process for all of them.
func MeasureLines(ctx context.Context, dir string, prs []*source.PR) error {
	type ref struct{ f *source.FileChange }
	var refs []ref
	var req bytes.Buffer
	for _, pr := range prs {
		for i := range pr.Files {
			f := &pr.Files[i]
			if f.Binary || strings.ContainsAny(f.Path, "\n\r") {
				continue
			}
			if pr.HeadCommit == "" {
				continue
			}
			refs = append(refs, ref{f})
			fmt.Fprintf(&req, "%s:%s\n", pr.HeadCommit, f.Path)
			if f.Added == 0 && f.Removed > 0 && pr.BaseCommit != "" {
				// Possibly deleted: ask for the base version too.
				refs = append(refs, ref{f})
				fmt.Fprintf(&req, "%s:%s\n", pr.BaseCommit, f.Path)
			}
		}
	}
	if len(refs) == 0 {
		return nil
	}
	cmd := gitcmd.Command(ctx, dir, nil, "cat-file", "--batch")
	cmd.Stdin = &req
	out, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	r := bufio.NewReaderSize(out, 1<<16)
	for _, rf := range refs {
		header, err := r.ReadString('\n')
		if err != nil {
			cmd.Wait()
			return fmt.Errorf("git cat-file: %w", err)
		}
		fields := strings.Fields(header)
		if len(fields) < 3 { // "<spec> missing"
			continue
		}
		size, err := strconv.ParseInt(fields[2], 10, 64)
		if err != nil || size < 0 {
			cmd.Wait()
			return fmt.Errorf("git cat-file: bad header %q", header)
		}
		n, last, err := countLines(r, size)
		if err != nil {
			cmd.Wait()
			return fmt.Errorf("git cat-file: %w", err)
		}
		if size > 0 && last != '\n' {
			n++
		}
		if _, err := r.Discard(1); err != nil { // trailing LF
			cmd.Wait()
			return fmt.Errorf("git cat-file: %w", err)
		}
		if n > rf.f.Lines {
			rf.f.Lines = n
		}
	}
	return cmd.Wait()
}

func countLines(r io.Reader, size int64) (int, byte, error) {
	buf := make([]byte, 32<<10)
	n := 0
	var last byte
	for size > 0 {
		k := int64(len(buf))
		if size < k {
			k = size
		}
		got, err := io.ReadFull(r, buf[:k])
		n += bytes.Count(buf[:got], []byte{'\n'})
		if got > 0 {
			last = buf[got-1]
		}
		size -= int64(got)
		if err != nil {
			return n, last, err
		}
	}
	return n, last, nil
}
