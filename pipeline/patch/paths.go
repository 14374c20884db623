// Package patch makes a PR's fix, bug and test patches from git, checks
// they reverse cleanly, and refuses patches that would write outside the
// repository.
package patch

import (
	"fmt"
	"strings"

	"curate/pipeline/unidiff"
)

// Paths returns every file path a git or unified diff names (diff --git,
// ---/+++, rename/copy headers), and refuses any that is absolute, has a
// ".." component, or points into .git. name is used in messages.
func Paths(name string, diff []byte) ([]string, error) {
	files, err := unidiff.Stat(name, string(diff))
	if err != nil {
		return nil, err
	}
	var out []string
	seen := map[string]bool{}
	for _, f := range files {
		for _, ref := range f.Paths {
			if err := CheckPath(ref.Path); err != nil {
				return nil, fmt.Errorf("%s:%d: %w", name, ref.Line, err)
			}
			if !seen[ref.Path] {
				seen[ref.Path] = true
				out = append(out, ref.Path)
			}
		}
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
