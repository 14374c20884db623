// Package patch makes a PR's fix, bug and test patches from git, checks
// they reverse cleanly, and refuses patches that would write outside the
// repository.
package patch

import (
	"bufio"
	"bytes"
	"fmt"
	"strconv"
	"strings"
)

// Paths returns every file path a git or unified diff names (diff --git,
// ---/+++, rename/copy headers), and refuses any that is absolute, has a
// ".." component, or points into .git. name is used in messages.
func Paths(name string, diff []byte) ([]string, error) {
	var out []string
	seen := map[string]bool{}
	add := func(line int, p string) error {
		if p == "/dev/null" {
			return nil
		}
		if err := CheckPath(p); err != nil {
			return fmt.Errorf("%s:%d: %w", name, line, err)
		}
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
		return nil
	}
	sc := bufio.NewScanner(bytes.NewReader(diff))
	sc.Buffer(make([]byte, 0, 64<<10), 64<<20)
	n := 0
	inHunk := false
	for sc.Scan() {
		n++
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "diff --git "):
			inHunk = false
			a, b, err := splitGitHeader(line[len("diff --git "):])
			if err != nil {
				return nil, fmt.Errorf("%s:%d: %w", name, n, err)
			}
			for _, p := range []string{a, b} {
				if err := add(n, stripPrefix(p)); err != nil {
					return nil, err
				}
			}
		case strings.HasPrefix(line, "@@"):
			inHunk = true
		case inHunk:
			// hunk body: "--- x" here is a removed line, not a header
		case strings.HasPrefix(line, "--- "), strings.HasPrefix(line, "+++ "):
			p, err := headerPath(line[4:])
			if err != nil {
				return nil, fmt.Errorf("%s:%d: %w", name, n, err)
			}
			if err := add(n, stripPrefix(p)); err != nil {
				return nil, err
			}
		case strings.HasPrefix(line, "rename from "), strings.HasPrefix(line, "rename to "),
			strings.HasPrefix(line, "copy from "), strings.HasPrefix(line, "copy to "):
			_, rest, _ := strings.Cut(line, " ")
			_, rest, _ = strings.Cut(rest, " ")
			p, err := unquote(rest)
			if err != nil {
				return nil, fmt.Errorf("%s:%d: %w", name, n, err)
			}
			if err := add(n, p); err != nil {
				return nil, err
			}
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return out, nil
}

// CheckPath refuses a repository-relative path that could escape the
// repository or touch git's own files.
func CheckPath(p string) error {
	switch {
	case p == "":
		return fmt.Errorf("empty path")
	case strings.ContainsRune(p, 0):
		return fmt.Errorf("path %q contains NUL", p)
	case strings.HasPrefix(p, "/") || strings.HasPrefix(p, `\`) || (len(p) > 1 && p[1] == ':'):
		return fmt.Errorf("path %q is absolute: it would write outside the repository", p)
	}
	for _, part := range strings.FieldsFunc(p, func(r rune) bool { return r == '/' || r == '\\' }) {
		switch {
		case part == "..":
			return fmt.Errorf("path %q has a \"..\" component: it would write outside the repository", p)
		case strings.EqualFold(part, ".git"):
			return fmt.Errorf("path %q writes into .git", p)
		}
	}
	return nil
}

// stripPrefix drops git's a/ or b/ prefix.
func stripPrefix(p string) string {
	if strings.HasPrefix(p, "a/") || strings.HasPrefix(p, "b/") {
		return p[2:]
	}
	return p
}

// headerPath reads the path of a ---/+++ line (quoted or not; a tab
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
		return "", "", fmt.Errorf("bad diff --git header %q", s)
	}
	return s[:i], s[i+1:], nil
}

// quotedPrefix reads a C-quoted string at the start of s.
func quotedPrefix(s string) (string, string, error) {
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '"':
			p, err := strconv.Unquote(octalToGo(s[:i+1]))
			if err != nil {
				return "", "", fmt.Errorf("bad quoted path %s", s[:i+1])
			}
			return p, s[i+1:], nil
		}
	}
	return "", "", fmt.Errorf("unterminated quoted path %q", s)
}

func unquote(s string) (string, error) {
	if !strings.HasPrefix(s, `"`) {
		return s, nil
	}
	p, rest, err := quotedPrefix(s)
	if err == nil && rest != "" {
		return "", fmt.Errorf("text after quoted path %q", s)
	}
	return p, err
}

// octalToGo keeps git's C quoting Go-compatible: git writes \351 (octal,
// three digits) which strconv accepts; nothing to change but a guard for
// the escapes Go lacks.
func octalToGo(s string) string { return s }
