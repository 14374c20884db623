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
}

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
	if err := s.migrate(ctx); err != nil {
		wdb.Close()
		return nil, fmt.Errorf("open workspace database %s: %w", path, describe(err))
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
		return nil // an empty file becomes a new database
	}
	if n < 16 || string(head) != "SQLite format 3\x00" {
		return fmt.Errorf("open workspace database %s: not a SQLite database (corrupt or overwritten); move it aside to start a new index", path)
	}
	return nil
}

// describe turns driver errors into advice a curator can act on.
func describe(err error) error {
	msg := err.Error()
	switch {
	case strings.Contains(msg, "readonly") || strings.Contains(msg, "read-only") || strings.Contains(msg, "READONLY"):
		return fmt.Errorf("the workspace is read-only (%w); curate needs write access to .curate/", err)
	case strings.Contains(msg, "unable to open"), strings.Contains(msg, "CANTOPEN"):
		return fmt.Errorf("cannot open the file (%w); check that .curate/ is writable", err)
	case strings.Contains(msg, "not a database"), strings.Contains(msg, "malformed"), strings.Contains(msg, "NOTADB"), strings.Contains(msg, "CORRUPT"):
		return fmt.Errorf("the database is corrupt (%w); move it aside to start a new index", err)
	}
	return err
}

// tx runs fn in one write transaction.
func (s *Store) tx(ctx context.Context, fn func(*sql.Tx) error) error {
	tx, err := s.wdb.BeginTx(ctx, nil)
	if err != nil {
		return describe(err)
	}
	if err := fn(tx); err != nil {
		tx.Rollback()
		return err
	}
	if err := tx.Commit(); err != nil {
		return describe(err)
	}
	return nil
}

// IntegrityCheck runs SQLite's integrity_check and returns its verdict.
func (s *Store) IntegrityCheck(ctx context.Context) (string, error) {
	var res string
	err := s.db.QueryRowContext(ctx, "PRAGMA integrity_check").Scan(&res)
	return res, err
}
