// Package atomicfile writes files and folders so that a crash at any
// moment leaves either the old content or the new, never a mix: content
// goes to a temporary name beside the destination, is flushed to disk, and
// is renamed into place; the folder is flushed too, so the rename itself
// survives a power loss.
package atomicfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// WriteFile writes data to path atomically with permissions perm.
func WriteFile(path string, data []byte, perm os.FileMode) error {
	return Write(path, perm, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// Write is WriteFile with the content streamed by fill.
func Write(path string, perm os.FileMode, fill func(io.Writer) error) error {
	f, err := Create(path, perm)
	if err != nil {
		return err
	}
	if err := fill(f); err != nil {
		f.Abort()
		return err
	}
	return f.Commit()
}

// File is a file being written under a temporary name beside its
// destination. Close flushes it; Rename puts it in place; Commit does both.
type File struct {
	*os.File
	path   string
	perm   os.FileMode
	closed bool
}

// Create starts a file that will replace path. Temporary files a killed
// writer left beside path are removed first (RemoveDeadTemps).
func Create(path string, perm os.FileMode) (*File, error) {
	RemoveDeadTemps(path)
	tmp, err := os.CreateTemp(filepath.Dir(path), TempPattern(path))
	if err != nil {
		return nil, err
	}
	return &File{File: tmp, path: path, perm: perm}, nil
}

// Close flushes the content to disk and closes the temporary file; the
// destination is not touched yet.
func (f *File) Close() error {
	if f.closed {
		return nil
	}
	f.closed = true
	err := f.File.Sync()
	if cerr := f.File.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(f.File.Name(), f.perm)
	}
	if err != nil {
		os.Remove(f.File.Name())
	}
	return err
}

// Rename moves the closed file into place and flushes the folder.
func (f *File) Rename() error {
	if err := os.Rename(f.File.Name(), f.path); err != nil {
		os.Remove(f.File.Name())
		return err
	}
	return syncDir(filepath.Dir(f.path))
}

// Commit is Close then Rename.
func (f *File) Commit() error {
	if err := f.Close(); err != nil {
		return err
	}
	return f.Rename()
}

// Abort drops the temporary file; the destination is not touched.
func (f *File) Abort() {
	if !f.closed {
		f.closed = true
		f.File.Close()
	}
	os.Remove(f.File.Name())
}

// ReplaceDir moves the complete folder src to dst (both in the same
// folder). An existing dst is swapped atomically where the system can
// (Linux), else moved aside first and put back if the second rename fails;
// the old content is removed.
func ReplaceDir(src, dst string) error {
	if _, err := os.Lstat(dst); errors.Is(err, fs.ErrNotExist) {
		if err := os.Rename(src, dst); err != nil {
			return err
		}
		return syncDir(filepath.Dir(dst))
	}
	if exchange(src, dst) == nil {
		if err := syncDir(filepath.Dir(dst)); err != nil {
			return err
		}
		return os.RemoveAll(src) // src now holds the old content
	}
	old := src + ".old"
	os.RemoveAll(old)
	if err := os.Rename(dst, old); err != nil {
		return fmt.Errorf("replace %s: %w", dst, err)
	}
	if err := os.Rename(src, dst); err != nil {
		_ = os.Rename(old, dst)
		return fmt.Errorf("replace %s: %w", dst, err)
	}
	if err := syncDir(filepath.Dir(dst)); err != nil {
		return err
	}
	return os.RemoveAll(old)
}

// syncDir flushes a folder's entries (a rename in it) to disk.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	return err
}
