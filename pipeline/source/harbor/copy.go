package harbor

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"curate/internal/atomicfile"
	"curate/pipeline/taskdir"
)

// CopyTask copies a task dir (already checked by Read) to dst, replacing
// what was there. It writes beside dst first and renames, so a failed copy
// never leaves half a task behind.
func CopyTask(src, dst string) error {
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return fmt.Errorf("copy %s: %w", src, err)
	}
	tmp := filepath.Join(filepath.Dir(dst), "."+filepath.Base(dst)+".import")
	if _, err := os.Lstat(tmp); err == nil {
		os.RemoveAll(tmp) // left by an interrupted import
	}
	if err := os.Mkdir(tmp, 0o755); err != nil {
		return fmt.Errorf("copy %s: %w", src, err)
	}
	renamed := false
	defer func() {
		if !renamed {
			os.RemoveAll(tmp)
		}
	}()
	err := filepath.WalkDir(src, func(path string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil || rel == "." {
			return err
		}
		out := filepath.Join(tmp, rel)
		switch {
		case e.IsDir():
			return os.Mkdir(out, 0o755)
		case e.Type()&fs.ModeSymlink != 0:
			target, err := os.Readlink(path)
			if err != nil {
				return err
			}
			if filepath.IsAbs(target) {
				// Read allowed it, so it points inside src: keep it
				// pointing inside the copy.
				if target, err = filepath.Rel(filepath.Dir(path), target); err != nil {
					return err
				}
			}
			return os.Symlink(target, out)
		case e.Type().IsRegular():
			return taskdir.CopyFile(path, out)
		}
		return nil // sockets, devices: not task content
	})
	if err != nil {
		return fmt.Errorf("copy %s: %w", src, err)
	}
	if err := atomicfile.ReplaceDir(tmp, dst); err != nil {
		return fmt.Errorf("copy %s: %w", src, err)
	}
	renamed = true
	return nil
}
