// Package workspace finds, creates and opens a curate workspace: a folder
// with curate.toml, tasks/ and .curate/ (database, run logs, caches).
package workspace

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/user"
	"path/filepath"
	"slices"
	"strings"

	"curate/internal/atomicfile"
	"curate/pipeline/profiles"
	"curate/store"
)

// File and folder names inside a workspace.
const (
	ConfigFile = "curate.toml"
	TasksDir   = "tasks"
	StateDir   = ".curate"
	DBFile     = "curate.db"
)

// ErrNoWorkspace means no workspace was named and none encloses the cwd.
var ErrNoWorkspace = errors.New("no curate workspace here: run `curate init DIR` to make one, `curate demo` to try the demo, or pass --workspace / set $CURATE_WORKSPACE")

// Workspace is an open workspace.
type Workspace struct {
	Root   string
	Config *Config
	Store  *store.Store
}

// Find resolves the workspace root: the flag, else $CURATE_WORKSPACE, else
// the nearest parent of the working directory holding curate.toml.
func Find(flag string) (string, error) {
	for _, named := range []string{flag, os.Getenv("CURATE_WORKSPACE")} {
		if named == "" {
			continue
		}
		abs, err := filepath.Abs(named)
		if err != nil {
			return "", err
		}
		if _, err := os.Stat(filepath.Join(abs, ConfigFile)); err != nil {
			return "", fmt.Errorf("%s is not a curate workspace (no %s): run `curate init %s`", abs, ConfigFile, named)
		}
		return abs, nil
	}
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, ConfigFile)); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", ErrNoWorkspace
		}
		dir = parent
	}
}

// Init creates a workspace in dir (made if missing) on the default profile.
// It refuses a folder that already holds curate.toml.
func Init(dir string) (string, error) { return InitProfile(dir, profiles.Default) }

// InitProfile creates a workspace whose curate.toml names profile.
func InitProfile(dir, profile string) (string, error) {
	if !slices.Contains(profiles.Names(), profile) {
		return "", fmt.Errorf("init workspace: profile %q: want one of %s", profile, strings.Join(profiles.Names(), ", "))
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	cfgPath := filepath.Join(abs, ConfigFile)
	if _, err := os.Stat(cfgPath); err == nil {
		return "", fmt.Errorf("%s already exists: %s is a workspace", cfgPath, abs)
	}
	for _, d := range []string{abs, filepath.Join(abs, TasksDir), filepath.Join(abs, StateDir, "runs"), filepath.Join(abs, StateDir, "cache")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return "", fmt.Errorf("init workspace: %w", err)
		}
	}
	text := fmt.Sprintf(DefaultConfigText, filepath.Base(abs), profile)
	if err := atomicfile.WriteFile(cfgPath, []byte(text), 0o644); err != nil {
		return "", fmt.Errorf("init workspace: %w", err)
	}
	ws, err := Open(context.Background(), abs)
	if err != nil {
		return "", err
	}
	return abs, ws.Close()
}

// Open loads the config and opens the database of the workspace at root.
// The root is resolved once here (absolute, symbolic links followed), so
// every label, stored path and comparison uses the one real path whether
// the workspace was reached through a link or not.
func Open(ctx context.Context, root string) (*Workspace, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("open workspace %s: %w", root, err)
	}
	if root, err = filepath.EvalSymlinks(abs); err != nil {
		return nil, fmt.Errorf("open workspace %s: %w", abs, err)
	}
	cfg, err := LoadConfig(filepath.Join(root, ConfigFile))
	if err != nil {
		return nil, err
	}
	state := filepath.Join(root, StateDir)
	if err := os.MkdirAll(state, 0o755); err != nil {
		return nil, fmt.Errorf("open workspace %s: %w", root, err)
	}
	st, err := store.Open(ctx, filepath.Join(state, DBFile))
	if err != nil {
		return nil, err
	}
	return &Workspace{Root: root, Config: cfg, Store: st}, nil
}

// Close closes the database.
func (w *Workspace) Close() error { return w.Store.Close() }

// TasksPath is the folder of task dirs.
func (w *Workspace) TasksPath() string { return filepath.Join(w.Root, TasksDir) }

// RunsPath is the folder of run logs.
func (w *Workspace) RunsPath() string { return filepath.Join(w.Root, StateDir, "runs") }

// CachePath is the folder of clones and build contexts.
func (w *Workspace) CachePath() string { return filepath.Join(w.Root, StateDir, "cache") }

// LogPath is the workbench's log file.
func (w *Workspace) LogPath() string { return filepath.Join(w.Root, StateDir, "curate.log") }

// ConfigPath is curate.toml.
func (w *Workspace) ConfigPath() string { return filepath.Join(w.Root, ConfigFile) }

// Actor names who makes a change: $USER, else the OS user, else "unknown".
func Actor() string {
	if u := os.Getenv("USER"); u != "" {
		return u
	}
	if u, err := user.Current(); err == nil && u.Username != "" {
		return u.Username
	}
	return "unknown"
}

// TmpPath is the folder of scratch folders (builds, mirrors, exports),
// swept of dead owners' leftovers when a command opens the workspace.
func (w *Workspace) TmpPath() string { return filepath.Join(w.Root, StateDir, "tmp") }
