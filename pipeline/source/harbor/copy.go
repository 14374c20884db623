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
	tmp := filepath.Join(filepath.Dir(dst), "."+filepath.Base(dst)+".import")
	if err := StageTask(src, tmp); err != nil {
		return err
	}
	if err := atomicfile.ReplaceDir(tmp, dst); err != nil {
		os.RemoveAll(tmp)
		return fmt.Errorf("copy %s: %w", src, err)
	}
	return nil
}

// SwapIn moves an existing dst to old, then staged to dst; on a failed
// second rename the old dir goes back. The caller removes old once the
// change is recorded.
func SwapIn(staged, dst, old string) error {
	if _, err := os.Lstat(dst); err == nil {
		os.RemoveAll(old)
		if err := os.Rename(dst, old); err != nil {
			return err
		}
	}
	if err := os.Rename(staged, dst); err != nil {
		os.Rename(old, dst)
		return err
	}
	return nil
}

// StageTask copies a task dir (already checked by Read) into a new folder
// tmp (a leftover of an interrupted import there is replaced); on failure
// tmp is removed.
func StageTask(src, tmp string) error {
	if err := os.MkdirAll(filepath.Dir(tmp), 0o755); err != nil {
		return fmt.Errorf("copy %s: %w", src, err)
	}
	if _, err := os.Lstat(tmp); err == nil {
		os.RemoveAll(tmp) // left by an interrupted import
	}
	if err := os.Mkdir(tmp, 0o755); err != nil {
		return fmt.Errorf("copy %s: %w", src, err)
	}
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
		os.RemoveAll(tmp)
		return fmt.Errorf("copy %s: %w", src, err)
	}
	return nil
}
