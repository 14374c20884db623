// Package store is the workspace database: a SQLite file in WAL mode holding
// the task index, the append-only label event log, validation runs and
// selections. Every write is one transaction; readers never block the writer.
package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	_ "modernc.org/sqlite" // pure-Go SQLite driver, registered as "sqlite"
)

// ErrNotFound is returned (wrapped) when a task, run or selection is unknown.
var ErrNotFound = errors.New("not found")

// Store is an open workspace database.
type Store struct {
	db   *sql.DB // readers: deferred transactions, several connections
	wdb  *sql.DB // the writer: one connection, BEGIN IMMEDIATE
	path string
	// root is the workspace folder (the parent of the database's .curate
	// folder): task dirs inside it are stored relative to it, so a moved
	// workspace keeps its tasks. "" for a database outside a workspace.
	root string
	// upgradedFrom is the schema version Open found when it migrated an
	// existing database (0: new, or already current).
	upgradedFrom int
}

// UpgradedFrom is the schema version this Open migrated the database from
// (0 when it was new or already current): an older curate cannot open it
// now, which the CLI says once.
func (s *Store) UpgradedFrom() int { return s.upgradedFrom }

// Path is the database file.
func (s *Store) Path() string { return s.path }

// DB exposes the handle for tests and benchmarks in other packages.
func (s *Store) DB() *sql.DB { return s.db }

// Open opens (creating if needed) the database at path and migrates it to
// the current schema. A file that is not a SQLite database is an error that
// names the file; nothing is written to it.
func Open(ctx context.Context, path string) (*Store, error) {
	if err := checkHeader(path); err != nil {
		return nil, err
	}
	dsn := "file:" + (&url.URL{Path: path}).EscapedPath() + "?" + strings.Join([]string{
		"_pragma=busy_timeout(10000)",
		"_pragma=journal_mode(WAL)",
		// NORMAL in WAL mode: a process crash never loses a committed
		// transaction; only a power loss can drop the last few.
		"_pragma=synchronous(NORMAL)",
		"_pragma=foreign_keys(1)",
	}, "&")
	// One writer at a time is SQLite's model. Write transactions take the
	// lock up front (IMMEDIATE) so two writers queue instead of failing on
	// a lock upgrade; readers use their own pool and, in WAL mode, never
	// wait for the writer nor block it.
	wdb, err := sql.Open("sqlite", dsn+"&_txlock=immediate")
	if err != nil {
		return nil, fmt.Errorf("open workspace database %s: %w", path, err)
	}
	wdb.SetMaxOpenConns(1)
	s := &Store{wdb: wdb, path: path, root: workspaceRoot(path)}
	if err := checkForeign(ctx, wdb, path); err != nil {
		wdb.Close()
		if errors.Is(err, ErrNotIndex) {
			return nil, err
		}
		return nil, fmt.Errorf("open workspace database %s: %w", path, s.describe(err))
	}
	if err := s.migrate(ctx); err != nil {
		wdb.Close()
		return nil, fmt.Errorf("open workspace database %s: %w", path, s.describe(err))
	}
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		wdb.Close()
		return nil, fmt.Errorf("open workspace database %s: %w", path, err)
	}
	db.SetMaxOpenConns(4)
	s.db = db
	return s, nil
}

// Close releases the database.
func (s *Store) Close() error {
	err := s.db.Close()
	if werr := s.wdb.Close(); err == nil {
		err = werr
	}
	return err
}

// checkHeader refuses a file that exists but is not SQLite before the driver
// gets a chance to touch it.
func checkHeader(path string) error {
	// SQLite in WAL mode must create -wal and -shm files beside the
	// database, so a read-only folder fails late and cryptically; say so now.
	if err := syscall.Access(filepath.Dir(path), 2 /* W_OK */); err != nil {
		return fmt.Errorf("open workspace database %s: the folder is read-only (%v); curate needs write access to .curate/", path, err)
	}
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		dir := filepath.Dir(path)
		if _, err := os.Stat(dir); err != nil {
			return fmt.Errorf("open workspace database %s: %w", path, err)
		}
		return nil
	}
	if err != nil {
		return fmt.Errorf("open workspace database %s: %w", path, err)
	}
	defer f.Close()
	head := make([]byte, 16)
	n, _ := f.Read(head)
	if n == 0 {
		// Not a new database: curate writes the schema the moment it
		// makes one, so an empty file is an index that was lost.
		return fmt.Errorf("open workspace database %s: %w: the file is empty; %s", path, ErrNotIndex, reindexHint(path))
	}
	if n < 16 || string(head) != "SQLite format 3\x00" {
		return fmt.Errorf("open workspace database %s: %w: not a SQLite database (corrupt or overwritten); %s", path, ErrNotIndex, reindexHint(path))
	}
	return nil
}

// ErrNotIndex is (wrapped) the error of a database file that is not a
// curate index: empty, not SQLite, or another program's SQLite file.
var ErrNotIndex = errors.New("not curate's index")

// reindexHint says how to rebuild the index of the workspace holding the
// database at path.
func reindexHint(path string) string {
	root := workspaceRoot(path)
	if root == "" {
		return "move it aside to start a new index"
	}
	return "rebuild the index from tasks/ with `curate init --reindex " + root + "` (the file is kept aside)"
}

// checkForeign refuses a SQLite file that holds tables but was never
// migrated by curate: another program's database.
func checkForeign(ctx context.Context, db *sql.DB, path string) error {
	var version, tables int
	if err := db.QueryRowContext(ctx, "PRAGMA user_version").Scan(&version); err != nil {
		return err
	}
	if err := db.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_master").Scan(&tables); err != nil {
		return err
	}
	if version == 0 && tables > 0 {
		return fmt.Errorf("open workspace database %s: %w: a SQLite database of another program (%d tables, no curate schema); %s", path, ErrNotIndex, tables, reindexHint(path))
	}
	return nil
}

// describe turns driver errors into advice a curator can act on, once:
// an error it already described passes through.
func (s *Store) describe(err error) error {
	if err == nil || errors.As(err, new(*advice)) {
		return err
	}
	msg := err.Error()
	switch {
	case strings.Contains(msg, "readonly") || strings.Contains(msg, "read-only") || strings.Contains(msg, "READONLY"):
		return &advice{"the workspace is read-only (%w); curate needs write access to .curate/", err}
	case strings.Contains(msg, "unable to open"), strings.Contains(msg, "CANTOPEN"):
		return &advice{"cannot open the file (%w); check that .curate/ is writable", err}
	case strings.Contains(msg, "not a database"), strings.Contains(msg, "malformed"), strings.Contains(msg, "NOTADB"), strings.Contains(msg, "CORRUPT"):
		return &advice{"the database is corrupt (%w); " + reindexHint(s.path), err}
	case strings.Contains(msg, "disk is full"), strings.Contains(msg, "disk I/O error") && noSpaceLeft(s.path):
		// SQLite says ENOSPC as SQLITE_FULL or, when the WAL index cannot
		// grow, as an I/O error (4874): the free space tells them apart.
		return &advice{"disk full: no space left for " + s.path + " (%w); free space on that disk and run the command again", err}
	}
	return err
}

// advice is a driver error with what to do about it.
type advice struct {
	format string // with one %w for err
	err    error
}

func (a *advice) Error() string { return fmt.Errorf(a.format, a.err).Error() }
func (a *advice) Unwrap() error { return a.err }

// noSpaceLeft reports whether the file system holding path has (almost)
// no room left for an unprivileged write.
func noSpaceLeft(path string) bool {
	var st syscall.Statfs_t
	if err := syscall.Statfs(filepath.Dir(path), &st); err != nil {
		return false
	}
	return st.Bavail*uint64(st.Bsize) < 64<<10
}

// tx runs fn in one write transaction.
func (s *Store) tx(ctx context.Context, fn func(*sql.Tx) error) error {
	tx, err := s.wdb.BeginTx(ctx, nil)
	if err != nil {
		return s.describe(err)
	}
	if err := fn(tx); err != nil {
		tx.Rollback()
		return s.describe(err)
	}
	if err := tx.Commit(); err != nil {
		return s.describe(err)
	}
	return nil
}

// IntegrityCheck runs SQLite's integrity_check and returns its verdict.
func (s *Store) IntegrityCheck(ctx context.Context) (string, error) {
	var res string
	err := s.db.QueryRowContext(ctx, "PRAGMA integrity_check").Scan(&res)
	return res, err
}
