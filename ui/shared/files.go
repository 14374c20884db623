package shared

import (
	"os"
	"path/filepath"
	"strings"

	"curate/pipeline"
)

// TaskDirPath is a task's dir as a path ("" when it has none).
func TaskDirPath(root string, t *pipeline.Task) string {
	if t.TaskDir == "" {
		return ""
	}
	if filepath.IsAbs(t.TaskDir) {
		return t.TaskDir
	}
	return filepath.Join(root, t.TaskDir)
}

// ShownTaskDir is a task dir as screens show it: relative to the
// workspace root when inside it (the store hands out absolute paths),
// else as stored.
func ShownTaskDir(root string, t *pipeline.Task) string {
	if root != "" && filepath.IsAbs(t.TaskDir) {
		if rel, err := filepath.Rel(root, t.TaskDir); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return rel
		}
	}
	return t.TaskDir
}

// ReadCapped reads at most limit bytes of a file.
func ReadCapped(path string, limit int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	buf := make([]byte, limit)
	n, err := f.Read(buf)
	if n == 0 && err != nil {
		return nil, err
	}
	for n < len(buf) && err == nil {
		var k int
		k, err = f.Read(buf[n:])
		n += k
	}
	return buf[:n], nil
}
