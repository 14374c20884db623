package workspace

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// A journal lists the task dirs an import is about to replace, before it
// touches any, so a kill at any moment can be undone: the import writes
// each new dir beside its place (Staging), moves the current one aside
// (Old), renames the new one in, writes the rows in one transaction, and
// only then drops the old dirs and the journal. The next command that
// opens the workspace finds a journal whose owner died (its lock is free)
// and makes dirs and rows agree again: rows written → keep the new dirs;
// rows not written → put the old dirs back and remove the new ones.

// JournalEntry is one task dir an import replaces.
type JournalEntry struct {
	ID      string `json:"id"`
	Dir     string `json:"dir"`
	Staging string `json:"staging"`
	Old     string `json:"old"`
	HadDir  bool   `json:"had_dir"`
	Digest  string `json:"digest"` // of the new files; the row has it once written
}

// Journal is an open journal; its lock is held until Done.
type Journal struct {
	path string
	lock *os.File
}

func (w *Workspace) journalDir() string { return filepath.Join(w.Root, StateDir, "journal") }

// StagingPaths are where an import writes task id's new dir and moves its
// current one: hidden folders beside tasks/<id>.
func (w *Workspace) StagingPaths(id string) (staging, old string) {
	return filepath.Join(w.TasksPath(), "."+id+".import"), filepath.Join(w.TasksPath(), "."+id+".old")
}

// BeginJournal writes (and syncs) the journal of entries and locks it.
func (w *Workspace) BeginJournal(entries []JournalEntry) (*Journal, error) {
	if err := os.MkdirAll(w.journalDir(), 0o755); err != nil {
		return nil, fmt.Errorf("journal: %w", err)
	}
	f, err := os.CreateTemp(w.journalDir(), "import-*.json")
	if err != nil {
		return nil, fmt.Errorf("journal: %w", err)
	}
	if err := lockFile(f, false); err != nil {
		f.Close()
		os.Remove(f.Name())
		return nil, fmt.Errorf("journal: %w", err)
	}
	werr := json.NewEncoder(f).Encode(entries)
	if werr == nil {
		werr = f.Sync()
	}
	if werr != nil {
		f.Close()
		os.Remove(f.Name())
		return nil, fmt.Errorf("journal: %w", werr)
	}
	return &Journal{path: f.Name(), lock: f}, nil
}

// Done removes the journal: the rows are written and the old dirs gone.
func (j *Journal) Done() error {
	err := os.Remove(j.path)
	j.lock.Close()
	return err
}

// RecoverReport says what recovery on open did.
type RecoverReport struct {
	RolledBack, Kept, Leftovers int
}

// RecoverImports finishes or undoes the imports whose process died; after
// replaying one it also sweeps any other staging dir left in tasks/
// (.<id>.import, .<id>.old) when no import is running. Without a journal
// it touches nothing, so opening a workspace stays cheap.
func (w *Workspace) RecoverImports(ctx context.Context) (RecoverReport, error) {
	var rep RecoverReport
	files, err := filepath.Glob(filepath.Join(w.journalDir(), "import-*.json"))
	if err != nil {
		return rep, err
	}
	busy := false
	for _, path := range files {
		f, err := os.OpenFile(path, os.O_RDWR, 0)
		if err != nil {
			continue // finished meanwhile
		}
		if lockFile(f, true) != nil {
			f.Close()
			busy = true // its import is still running
			continue
		}
		err = w.replay(ctx, f, &rep)
		if err == nil {
			err = os.Remove(path)
		}
		f.Close()
		if err != nil {
			return rep, fmt.Errorf("recover interrupted import (%s): %w", path, err)
		}
	}
	if busy || len(files) == 0 {
		return rep, nil
	}
	entries, err := os.ReadDir(w.TasksPath())
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return rep, nil
		}
		return rep, err
	}
	for _, e := range entries {
		n := e.Name()
		if strings.HasPrefix(n, ".") && (strings.HasSuffix(n, ".import") || strings.HasSuffix(n, ".old")) {
			if err := os.RemoveAll(filepath.Join(w.TasksPath(), n)); err != nil {
				return rep, err
			}
			rep.Leftovers++
		}
	}
	return rep, nil
}

func (w *Workspace) replay(ctx context.Context, f *os.File, rep *RecoverReport) error {
	var entries []JournalEntry
	if err := json.NewDecoder(f).Decode(&entries); err != nil {
		return nil // killed while writing the journal: nothing was touched yet
	}
	ids := make([]string, len(entries))
	for i, e := range entries {
		ids[i] = e.ID
	}
	rows, err := w.Store.TasksByID(ctx, ids)
	if err != nil {
		return err
	}
	inside := func(p string) bool { return p != "" && filepath.Dir(p) == w.TasksPath() }
	for _, e := range entries {
		if !inside(e.Dir) || !inside(e.Staging) || !inside(e.Old) {
			return fmt.Errorf("journal entry %q names a path outside %s", e.ID, w.TasksPath())
		}
		row := rows[e.ID]
		if row != nil && row.Digest == e.Digest && row.TaskDir == e.Dir {
			rep.Kept++ // the rows were written: the new dir stays
		} else if exists(e.Old) {
			if err := os.RemoveAll(e.Dir); err != nil {
				return err
			}
			if err := os.Rename(e.Old, e.Dir); err != nil {
				return err
			}
			rep.RolledBack++
		} else if !e.HadDir && exists(e.Dir) {
			if err := os.RemoveAll(e.Dir); err != nil {
				return err
			}
			rep.RolledBack++
		}
		if err := os.RemoveAll(e.Staging); err != nil {
			return err
		}
		if err := os.RemoveAll(e.Old); err != nil {
			return err
		}
	}
	return nil
}

func exists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}
