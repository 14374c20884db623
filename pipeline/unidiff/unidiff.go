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

// File is one file's changes. Names are unquoted, without git's a/ and b/
// prefixes; a side that does not exist is "/dev/null".
type File struct {
	OldName, NewName string
	Hunks            []Hunk
	Added, Removed   int
	Binary           bool
	// Paths is every path the file's headers name (diff --git, ---/+++,
	// rename/copy from/to), /dev/null aside, with the patch line naming it.
	Paths []PathRef
	minus bool // a --- line was read for this file
}

// PathRef is a path named by a header line.
type PathRef struct {
	Line int
	Path string
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
	files, err := parse(name, text, true)
	if err != nil {
		return nil, err
	}
	return files, nil
}

// Stat reads a unified diff's files, names and line counts without
// keeping the lines. It forgives hunks whose header miscounts their lines
// (hand-edited patches); on other malformed input it returns the files
// read before the error along with it.
func Stat(name, text string) ([]File, error) {
	return parse(name, text, false)
}

func parse(name, text string, keepLines bool) ([]File, error) {
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
					if !keepLines {
						oldLeft, newLeft = 0, 0 // Stat: the hunk ended; read on
						break
					}
					return done(files), fmt.Errorf("%s:%d: hunk has more lines than its header says", name, lineNo)
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
				if keepLines {
					hunk.Lines = append(hunk.Lines, l)
				}
				continue
			case '\\': // "\ No newline at end of file"
				continue
			default:
				if keepLines {
					return done(files), fmt.Errorf("%s:%d: hunk ends early (%d old and %d new lines missing)", name, lineNo, oldLeft, newLeft)
				}
				oldLeft, newLeft = 0, 0 // Stat: a short hunk; the line may be a header
			}
		}
		fail := func(err error) ([]File, error) {
			return done(files), fmt.Errorf("%s:%d: %w", name, lineNo, err)
		}
		switch {
		case strings.HasPrefix(line, "diff --git "):
			newFile()
			a, b, err := splitGitHeader(line[len("diff --git "):])
			if err != nil {
				return fail(err)
			}
			cur.OldName, cur.NewName = stripPrefix(a), stripPrefix(b)
			cur.addPath(lineNo, cur.OldName)
			cur.addPath(lineNo, cur.NewName)
		case strings.HasPrefix(line, "--- "):
			if cur == nil || len(cur.Hunks) > 0 || cur.minus {
				newFile()
			}
			p, err := headerPath(line[4:])
			if err != nil {
				return fail(err)
			}
			cur.OldName = stripPrefix(p)
			cur.addPath(lineNo, cur.OldName)
			cur.minus = true
		case strings.HasPrefix(line, "+++ "):
			if cur == nil {
				return fail(fmt.Errorf("+++ without a --- line before it"))
			}
			p, err := headerPath(line[4:])
			if err != nil {
				return fail(err)
			}
			cur.NewName = stripPrefix(p)
			cur.addPath(lineNo, cur.NewName)
		case cur != nil && (strings.HasPrefix(line, "rename from ") || strings.HasPrefix(line, "rename to ") ||
			strings.HasPrefix(line, "copy from ") || strings.HasPrefix(line, "copy to ")):
			_, rest, _ := strings.Cut(line, " ")
			_, rest, _ = strings.Cut(rest, " ")
			p, err := unquote(rest)
			if err != nil {
				return fail(err)
			}
			cur.addPath(lineNo, p)
		case strings.HasPrefix(line, "@@"):
			if cur == nil {
				return fail(fmt.Errorf("hunk before any file header"))
			}
			h, ol, nl, err := parseHunkHeader(line)
			if err != nil {
				return fail(err)
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
	if hunk != nil && (oldLeft > 0 || newLeft > 0) && keepLines {
		return done(files), fmt.Errorf("%s:%d: patch ends inside a hunk (%d old and %d new lines missing)", name, lineNo, oldLeft, newLeft)
	}
	return done(files), nil
}

// done drops files that hold nothing (no names, hunks or binary note).
func done(files []File) []File {
	out := files[:0]
	for _, f := range files {
		if len(f.Hunks) > 0 || f.Binary || f.OldName != "" || f.NewName != "" {
			out = append(out, f)
		}
	}
	return out
}

func (f *File) addPath(line int, p string) {
	if p != "" && p != "/dev/null" {
		f.Paths = append(f.Paths, PathRef{line, p})
	}
}

// stripPrefix drops git's a/ or b/ prefix.
func stripPrefix(p string) string {
	if strings.HasPrefix(p, "a/") || strings.HasPrefix(p, "b/") {
		return p[2:]
	}
	return p
}

// headerPath reads the path of a ---/+++ line (C-quoted or not; a tab
// separates a trailing timestamp).
func headerPath(s string) (string, error) {
	if strings.HasPrefix(s, `"`) {
		p, _, err := quotedPrefix(s)
		return p, err
	}
	if i := strings.IndexByte(s, '\t'); i >= 0 {
		s = s[:i]
	}
	return strings.TrimRight(s, " "), nil
}

// splitGitHeader splits "a/x b/y" where either may be C-quoted. Unquoted
// names with spaces are split at " b/".
func splitGitHeader(s string) (string, string, error) {
	if strings.HasPrefix(s, `"`) {
		a, rest, err := quotedPrefix(s)
		if err != nil {
			return "", "", err
		}
		b, err := unquote(strings.TrimPrefix(rest, " "))
		return a, b, err
	}
	if i := strings.Index(s, ` "`); i >= 0 && strings.HasSuffix(s, `"`) {
		b, err := unquote(s[i+1:])
		return s[:i], b, err
	}
	i := strings.LastIndex(s, " b/")
	if i < 0 {
		return "", "", fmt.Errorf("bad diff --git header %q", clip(s))
	}
	return s[:i], s[i+1:], nil
}

// quotedPrefix reads a C-quoted string (git's quoting of unusual names:
// \t, \", \\ and octal bytes such as \351) at the start of s.
func quotedPrefix(s string) (string, string, error) {
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '"':
			p, err := strconv.Unquote(s[:i+1])
			if err != nil {
				return "", "", fmt.Errorf("bad quoted path %s", clip(s[:i+1]))
			}
			return p, s[i+1:], nil
		}
	}
	return "", "", fmt.Errorf("unterminated quoted path %q", clip(s))
}

func unquote(s string) (string, error) {
	if !strings.HasPrefix(s, `"`) {
		return s, nil
	}
	p, rest, err := quotedPrefix(s)
	if err == nil && rest != "" {
		return "", fmt.Errorf("text after quoted path %q", clip(s))
	}
	return p, err
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
