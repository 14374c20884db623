// Package taskdir reads Harbor task directories safely: their digest, and
// paths that cannot escape the task's root.
package taskdir

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// digestRoots are the files and folders the Harbor digest covers.
// Harbor's publisher covers trajectory.json and steps/ (multi-step tasks)
// too, so a dataset.toml digest matches the registry's.
var digestFiles = []string{"task.toml", "instruction.md", "README.md", "trajectory.json"}
var digestDirs = []string{"environment", "tests", "solution", "steps"}

// Digest is sha256 over the sorted lines "relpath \0 sha256(file) \n" of
// task.toml, instruction.md, README.md, trajectory.json and every file
// under environment/, tests/, solution/ and steps/ (formats.md section 1). Symlinks are hashed by their
// target text, never followed, so a link cannot pull outside files in.
func Digest(dir string) (string, error) {
	var lines []string
	add := func(rel string) error {
		full := filepath.Join(dir, rel)
		fi, err := os.Lstat(full)
		if err != nil {
			return err
		}
		var sum string
		switch {
		case fi.Mode()&os.ModeSymlink != 0:
			target, err := os.Readlink(full)
			if err != nil {
				return err
			}
			raw := sha256.Sum256([]byte("symlink:" + target))
			sum = hex.EncodeToString(raw[:])
		case fi.Mode().IsRegular():
			if sum, err = HashFile(full); err != nil {
				return err
			}
		default:
			return nil
		}
		lines = append(lines, filepath.ToSlash(rel)+"\x00"+sum+"\n")
		return nil
	}
	for _, f := range digestFiles {
		if _, err := os.Lstat(filepath.Join(dir, f)); err == nil {
			if err := add(f); err != nil {
				return "", fmt.Errorf("digest %s: %w", dir, err)
			}
		}
	}
	for _, d := range digestDirs {
		root := filepath.Join(dir, d)
		if _, err := os.Lstat(root); err != nil {
			continue
		}
		err := filepath.WalkDir(root, func(path string, e fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if e.IsDir() {
				return nil
			}
			rel, err := filepath.Rel(dir, path)
			if err != nil {
				return err
			}
			return add(rel)
		})
		if err != nil {
			return "", fmt.Errorf("digest %s: %w", dir, err)
		}
	}
	return HashLines(lines), nil
}

// HashLines is the hex sha256 of the lines in sorted order, so a digest
// does not depend on the order a walk found the files in. It sorts lines.
func HashLines(lines []string) string {
	sort.Strings(lines)
	h := sha256.New()
	for _, l := range lines {
		io.WriteString(h, l)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// HashFile is the hex sha256 of a file's content.
func HashFile(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// SafeJoin joins rel to root and refuses any result outside root (".."
// components, absolute paths). It does not resolve symlinks; callers that
// open files must also refuse links (see Lstat).
func SafeJoin(root, rel string) (string, error) {
	if rel == "" || filepath.IsAbs(rel) || strings.HasPrefix(rel, "/") || strings.ContainsRune(rel, 0) {
		return "", fmt.Errorf("path %q is not a relative path inside %s", rel, root)
	}
	clean := filepath.Clean(filepath.FromSlash(rel))
	if clean == ".." || strings.HasPrefix(clean, ".."+string(filepath.Separator)) {
		return "", fmt.Errorf("path %q escapes %s", rel, root)
	}
	return filepath.Join(root, clean), nil
}
