package export

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
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
	removeDeadTemps(filepath.Dir(dest), "."+filepath.Base(dest)+".tmp-")
	tmp, err := os.MkdirTemp(filepath.Dir(dest), fmt.Sprintf(".%s.tmp-%d-", filepath.Base(dest), os.Getpid()))
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
	return swapInto(tmp, dest)
}

// swapInto renames tmp to dest. An existing dest is swapped atomically
// where the system can (Linux), else moved aside first and put back if
// the second rename fails.
func swapInto(tmp, dest string) error {
	if _, err := os.Lstat(dest); errors.Is(err, fs.ErrNotExist) {
		if err := os.Rename(tmp, dest); err != nil {
			return fmt.Errorf("export: %w", err)
		}
		return nil
	}
	if exchange(tmp, dest) == nil {
		return os.RemoveAll(tmp) // tmp now holds the old export
	}
	old := tmp + ".old"
	if err := os.Rename(dest, old); err != nil {
		return fmt.Errorf("export: replace %s: %w", dest, unwrapPath(err))
	}
	if err := os.Rename(tmp, dest); err != nil {
		_ = os.Rename(old, dest)
		return fmt.Errorf("export: replace %s: %w", dest, err)
	}
	return os.RemoveAll(old)
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
	tmps := map[string]string{}
	cleanup := func() {
		for _, t := range tmps {
			os.Remove(t)
		}
	}
	for _, name := range names {
		removeDeadTemps(dir, "."+name+".tmp-")
		f, err := os.CreateTemp(dir, fmt.Sprintf(".%s.tmp-%d-", name, os.Getpid()))
		if err != nil {
			cleanup()
			return fmt.Errorf("export: cannot write to %s: %w", dir, unwrapPath(err))
		}
		tmps[name] = f.Name()
		werr := files[name](f)
		if werr == nil {
			werr = f.Sync()
		}
		if cerr := f.Close(); werr == nil {
			werr = cerr
		}
		if werr == nil {
			werr = os.Chmod(f.Name(), 0o644)
		}
		if werr != nil {
			cleanup()
			return fmt.Errorf("export %s: %w", filepath.Join(dir, name), werr)
		}
	}
	for _, name := range names {
		if err := os.Rename(tmps[name], filepath.Join(dir, name)); err != nil {
			cleanup()
			return fmt.Errorf("export %s: %w", filepath.Join(dir, name), err)
		}
		delete(tmps, name)
	}
	return nil
}

// removeDeadTemps removes what an export killed part way left in dir: the
// entries named prefix<pid>-... whose process is gone (temp names carry
// the writer's pid so a running export's are never touched), and those of
// older versions, named prefix<random digits>.
func removeDeadTemps(dir, prefix string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		rest, ok := strings.CutPrefix(e.Name(), prefix)
		if !ok {
			continue
		}
		pidText, _, _ := strings.Cut(rest, "-")
		pidText = strings.TrimSuffix(pidText, ".old")
		pid, err := strconv.Atoi(pidText)
		if err != nil || pid == os.Getpid() || processRuns(pid) {
			continue
		}
		os.RemoveAll(filepath.Join(dir, e.Name()))
	}
}

// unwrapPath drops the *PathError wrapper whose temp name would only confuse.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
