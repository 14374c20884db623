// Package unidiff reads unified diffs (git diff output, bug.patch,
// fix.patch, SWE-bench test_patch) into files, hunks and lines for display.
// Patches come from strangers: malformed input is an error naming the
// patch and line, and nothing here touches the file system.
package unidiff

import (
	"fmt"
	"strconv"
	"strings"
)

// MaxBytes caps the patch size we read, so a hostile patch cannot exhaust
// memory.
const MaxBytes = 64 << 20

// Kind of a diff line.
const (
	Context = ' '
	Added   = '+'
	Removed = '-'
)

// Line is one line of a hunk with its numbers in the old and new file
// (0 when the line is not on that side).
type Line struct {
	Kind         byte
	Text         string
	OldNo, NewNo int
}

// Hunk is one @@ section.
type Hunk struct {
	Header             string // the text after the second @@ (a function name, often)
	OldStart, NewStart int
	OldLines, NewLines int
	Lines              []Line
}

// File is one file's changes.
type File struct {
	OldName, NewName string
	Hunks            []Hunk
	Added, Removed   int
	Binary           bool
	minus            bool // a --- line was read for this file
}

// Name is the file's path as the curator thinks of it.
func (f *File) Name() string {
	if f.NewName != "" && f.NewName != "/dev/null" {
		return f.NewName
	}
	return f.OldName
}

// Parse reads a unified diff. name is the patch's name for messages.
func Parse(name, text string) ([]File, error) {
	if len(text) > MaxBytes {
		return nil, fmt.Errorf("%s: patch is %d bytes, over the %d byte limit", name, len(text), MaxBytes)
	}
	var files []File
	var cur *File
	var hunk *Hunk
	oldLeft, newLeft := 0, 0
	oldNo, newNo := 0, 0
	lineNo := 0
	newFile := func() {
		files = append(files, File{})
		cur = &files[len(files)-1]
		hunk = nil
	}
	for len(text) > 0 {
		var line string
		if i := strings.IndexByte(text, '\n'); i >= 0 {
			line, text = text[:i], text[i+1:]
		} else {
			line, text = text, ""
		}
		lineNo++
		line = strings.TrimSuffix(line, "\r")
		inHunk := hunk != nil && (oldLeft > 0 || newLeft > 0)
		if inHunk {
			if line == "" { // some tools drop the space of empty context lines
				line = " "
			}
			k := line[0]
			switch k {
			case ' ', '+', '-':
				if k != '+' && oldLeft == 0 || k != '-' && newLeft == 0 {
					return nil, fmt.Errorf("%s:%d: hunk has more lines than its header says", name, lineNo)
				}
				l := Line{Kind: k, Text: line[1:]}
				if k != '+' {
					oldNo++
					oldLeft--
					l.OldNo = oldNo
				}
				if k != '-' {
					newNo++
					newLeft--
					l.NewNo = newNo
				}
				switch k {
				case '+':
					cur.Added++
				case '-':
					cur.Removed++
				}
				hunk.Lines = append(hunk.Lines, l)
				continue
			case '\\': // "\ No newline at end of file"
				continue
			default:
				return nil, fmt.Errorf("%s:%d: hunk ends early (%d old and %d new lines missing)", name, lineNo, oldLeft, newLeft)
			}
		}
		switch {
		case strings.HasPrefix(line, "diff --git "):
			newFile()
			a, b := splitGitNames(line[len("diff --git "):])
			cur.OldName, cur.NewName = a, b
		case strings.HasPrefix(line, "--- "):
			if cur == nil || len(cur.Hunks) > 0 || cur.minus {
				newFile()
			}
			cur.OldName = stripPrefix(line[4:])
			cur.minus = true
		case strings.HasPrefix(line, "+++ "):
			if cur == nil {
				return nil, fmt.Errorf("%s:%d: +++ without a --- line before it", name, lineNo)
			}
			cur.NewName = stripPrefix(line[4:])
		case strings.HasPrefix(line, "@@"):
			if cur == nil {
				return nil, fmt.Errorf("%s:%d: hunk before any file header", name, lineNo)
			}
			h, ol, nl, err := parseHunkHeader(line)
			if err != nil {
				return nil, fmt.Errorf("%s:%d: %w", name, lineNo, err)
			}
			cur.Hunks = append(cur.Hunks, h)
			hunk = &cur.Hunks[len(cur.Hunks)-1]
			oldLeft, newLeft = ol, nl
			oldNo, newNo = max(h.OldStart-1, 0), max(h.NewStart-1, 0)
			if ol == 0 {
				oldNo = h.OldStart
			}
			if nl == 0 {
				newNo = h.NewStart
			}
		case strings.HasPrefix(line, "Binary files "):
			if cur == nil {
				newFile()
			}
			cur.Binary = true
		}
		// Anything else (index, mode lines, commit text) is ignored.
	}
	if hunk != nil && (oldLeft > 0 || newLeft > 0) {
		return nil, fmt.Errorf("%s:%d: patch ends inside a hunk (%d old and %d new lines missing)", name, lineNo, oldLeft, newLeft)
	}
	out := files[:0]
	for _, f := range files {
		if len(f.Hunks) > 0 || f.Binary || f.OldName != "" || f.NewName != "" {
			out = append(out, f)
		}
	}
	return out, nil
}

func splitGitNames(s string) (string, string) {
	// "a/x b/x": split in the middle when both halves name the same path.
	if i := strings.Index(s, " b/"); i >= 0 {
		return stripPrefix(s[:i]), stripPrefix(s[i+1:])
	}
	return stripPrefix(s), stripPrefix(s)
}

func stripPrefix(s string) string {
	if i := strings.IndexByte(s, '\t'); i >= 0 { // "--- a/x\t2024-01-01"
		s = s[:i]
	}
	s = strings.TrimSpace(s)
	if strings.HasPrefix(s, "a/") || strings.HasPrefix(s, "b/") {
		return s[2:]
	}
	return s
}

// parseHunkHeader reads "@@ -a,b +c,d @@ header".
func parseHunkHeader(line string) (Hunk, int, int, error) {
	rest := strings.TrimPrefix(line, "@@")
	end := strings.Index(rest, "@@")
	if end < 0 {
		return Hunk{}, 0, 0, fmt.Errorf("bad hunk header %q", clip(line))
	}
	fields := strings.Fields(rest[:end])
	if len(fields) != 2 || !strings.HasPrefix(fields[0], "-") || !strings.HasPrefix(fields[1], "+") {
		return Hunk{}, 0, 0, fmt.Errorf("bad hunk header %q", clip(line))
	}
	os, ol, err1 := rangeOf(fields[0][1:])
	ns, nl, err2 := rangeOf(fields[1][1:])
	if err1 != nil || err2 != nil {
		return Hunk{}, 0, 0, fmt.Errorf("bad hunk header %q", clip(line))
	}
	if ol > 10_000_000 || nl > 10_000_000 {
		return Hunk{}, 0, 0, fmt.Errorf("hunk header %q claims too many lines", clip(line))
	}
	return Hunk{Header: strings.TrimSpace(rest[end+2:]), OldStart: os, NewStart: ns, OldLines: ol, NewLines: nl}, ol, nl, nil
}

func rangeOf(s string) (start, n int, err error) {
	n = 1
	if i := strings.IndexByte(s, ','); i >= 0 {
		if n, err = strconv.Atoi(s[i+1:]); err != nil || n < 0 {
			return 0, 0, fmt.Errorf("bad count")
		}
		s = s[:i]
	}
	start, err = strconv.Atoi(s)
	if err != nil || start < 0 {
		return 0, 0, fmt.Errorf("bad start")
	}
	return start, n, nil
}

func clip(s string) string {
	if len(s) > 60 {
		return s[:60] + "…"
	}
	return s
}
