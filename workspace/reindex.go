package workspace

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"curate/store"
)

// SetAsideIndex moves the database of the workspace at root out of the
// way when curate cannot read it as its index (empty, not SQLite, another
// program's file), so a new index can be built from tasks/; it returns
// where the old file went. An index that opens is never moved: rebuilding
// it would drop labels, runs and selections that tasks/ does not hold.
func SetAsideIndex(ctx context.Context, root string) (string, error) {
	root, err := Find(root)
	if err != nil {
		return "", err
	}
	db := filepath.Join(root, StateDir, DBFile)
	st, err := store.Open(ctx, db)
	if err == nil {
		st.Close()
		return "", fmt.Errorf("%s opens as curate's index: --reindex only replaces an index curate cannot read", db)
	}
	if !errors.Is(err, store.ErrNotIndex) {
		return "", err
	}
	aside := db + ".unreadable-" + time.Now().UTC().Format("20060102T150405Z")
	for _, suffix := range []string{"", "-wal", "-shm"} {
		if err := os.Rename(db+suffix, aside+suffix); err != nil && !errors.Is(err, os.ErrNotExist) {
			return "", fmt.Errorf("set the unreadable index aside: %w", err)
		}
	}
	return aside, nil
}
