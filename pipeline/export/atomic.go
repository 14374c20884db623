package export

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"curate/internal/atomicfile"
)

// checkDest refuses a destination that is an existing file, and makes sure
// its parent exists and is a folder.
func checkDest(dest string) error {
	if dest == "" {
		return fmt.Errorf("export: no output folder given (--out DIR)")
	}
	if fi, err := os.Lstat(dest); err == nil {
		if fi.Mode()&fs.ModeSymlink != 0 {
			return fmt.Errorf("export: %s is a symbolic link; give a real folder", dest)
		}
		if !fi.IsDir() {
			return fmt.Errorf("export: %s is a file, not a folder; give a folder for --out", dest)
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("export: %w", err)
	}
	parent := filepath.Dir(filepath.Clean(dest))
	if err := os.MkdirAll(parent, 0o755); err != nil { // --out's help promises it is created
		return fmt.Errorf("export: parent folder of %s: %w", dest, unwrapPath(err))
	}
	fi, err := os.Stat(parent)
	if err != nil {
		return fmt.Errorf("export: parent folder of %s: %w", dest, err)
	}
	if !fi.IsDir() {
		return fmt.Errorf("export: %s is a file, not a folder", parent)
	}
	return nil
}

// WriteDir builds a whole folder in a temporary folder beside dest, then
// renames it into place; an interrupted or failed export leaves any old
// dest as it was.
func WriteDir(dest string, fill func(tmp string) error) (err error) {
	if err := checkDest(dest); err != nil {
		return err
	}
	dest = filepath.Clean(dest)
	atomicfile.RemoveDeadTemps(dest) // of an export killed part way
	tmp, err := os.MkdirTemp(filepath.Dir(dest), atomicfile.TempPattern(dest))
	if err != nil {
		return fmt.Errorf("export: cannot write beside %s: %w", dest, unwrapPath(err))
	}
	defer func() {
		if err != nil {
			os.RemoveAll(tmp)
		}
	}()
	if err := os.Chmod(tmp, 0o755); err != nil {
		return fmt.Errorf("export: %w", err)
	}
	if err := fill(tmp); err != nil {
		return err
	}
	if err := atomicfile.ReplaceDir(tmp, dest); err != nil {
		return fmt.Errorf("export: %w", unwrapPath(err))
	}
	return nil
}

// WriteFiles writes files into dir (created when missing), each through a
// temporary file renamed into place; other files in dir are left alone.
// Every file is written before any is renamed, so a failure changes nothing.
func WriteFiles(dir string, files map[string]func(io.Writer) error, names []string) error {
	if err := checkDest(dir); err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("export: cannot create %s: %w", dir, unwrapPath(err))
	}
	var pending []*atomicfile.File
	cleanup := func() {
		for _, f := range pending {
			f.Abort()
		}
	}
	for _, name := range names {
		f, err := atomicfile.Create(filepath.Join(dir, name), 0o644)
		if err != nil {
			cleanup()
			return fmt.Errorf("export: cannot write to %s: %w", dir, unwrapPath(err))
		}
		pending = append(pending, f)
		werr := files[name](f)
		if werr == nil {
			werr = f.Close()
		}
		if werr != nil {
			cleanup()
			return fmt.Errorf("export %s: %w", filepath.Join(dir, name), werr)
		}
	}
	for i, f := range pending {
		if err := f.Rename(); err != nil {
			cleanup()
			return fmt.Errorf("export %s: %w", filepath.Join(dir, names[i]), err)
		}
	}
	pending = nil
	return nil
}

// unwrapPath drops the *PathError wrapper whose temp name would only confuse.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
