// Package scratch makes the temporary folders curate works in, all under
// one root (the workspace's .curate/tmp), each with an owner file its
// process keeps locked. A process killed part way leaves its folder, but
// its lock dies with it, so the next command's Sweep tells a dead owner's
// folder from a running one's and removes it (after a recovery step the
// folder's kind may need, such as an export finishing its moves).
package scratch

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// OwnerFile is the locked file in every scratch folder: "pid start-time".
const OwnerFile = "owner"

// Dir is a scratch folder held by this process.
type Dir struct {
	Path string
	lock *os.File
}

// New makes a folder root/KIND-*, writes and locks its owner file.
func New(root, kind string) (*Dir, error) {
	var err error
	for try := 0; try < 5; try++ {
		var d *Dir
		if d, err = create(root, kind); err == nil {
			return d, nil
		}
		// Another command's Sweep may take the folder in the instant
		// before its owner file exists; make another.
		if !errors.Is(err, fs.ErrNotExist) {
			break
		}
	}
	return nil, fmt.Errorf("scratch folder: %w", err)
}

func create(root, kind string) (*Dir, error) {
	if err := os.MkdirAll(root, 0o755); err != nil {
		return nil, err
	}
	p, err := os.MkdirTemp(root, kind+"-")
	if err != nil {
		return nil, err
	}
	f, err := os.OpenFile(filepath.Join(p, OwnerFile), os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o644)
	if err == nil {
		if err = lock(f, false); err == nil {
			_, err = fmt.Fprintf(f, "%d %s\n", os.Getpid(), startTime(os.Getpid()))
		}
		if err != nil {
			f.Close()
		}
	}
	if err != nil {
		os.RemoveAll(p)
		return nil, err
	}
	return &Dir{Path: p, lock: f}, nil
}

// Join is a path inside the folder.
func (d *Dir) Join(name string) string { return filepath.Join(d.Path, name) }

// Remove deletes the folder and drops its lock.
func (d *Dir) Remove() error {
	err := os.RemoveAll(d.Path)
	d.lock.Close()
	return err
}

// Recoverer finishes what a dead owner's folder of one kind was doing,
// before Sweep removes the folder.
type Recoverer func(path string) error

// Sweep removes the folders root/KIND-* of the kinds in recover whose
// owner is gone (its lock is free, or it died before writing the owner
// file), after running the kind's recoverer (nil: nothing to finish).
// Folders of live owners, and everything else in root, stay. It returns
// how many it removed.
func Sweep(root string, recover map[string]Recoverer) (int, error) {
	entries, err := os.ReadDir(root)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("scratch folders: %w", err)
	}
	n := 0
	for _, e := range entries {
		p := filepath.Join(root, e.Name())
		kind, known := "", false
		for k := range recover {
			if strings.HasPrefix(e.Name(), k+"-") {
				kind, known = k, true
			}
		}
		if !e.IsDir() || !known {
			continue
		}
		f, err := os.OpenFile(filepath.Join(p, OwnerFile), os.O_RDWR, 0)
		if err == nil {
			if lock(f, true) != nil {
				f.Close()
				continue // its owner runs
			}
		} else if !errors.Is(err, fs.ErrNotExist) {
			continue
		}
		var rerr error
		if r := recover[kind]; r != nil {
			rerr = r(p)
		}
		if rerr == nil {
			rerr = os.RemoveAll(p)
		}
		if f != nil {
			f.Close()
		}
		if rerr != nil {
			return n, fmt.Errorf("leftover %s: %w", p, rerr)
		}
		n++
	}
	return n, nil
}

// Release drops the lock without removing the folder, as a killed owner
// does; for tests of Sweep.
func (d *Dir) Release() { d.lock.Close() }
