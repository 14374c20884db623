package atomicfile

import (
	"os"
	"path/filepath"
	"testing"
)

// Temporaries of a killed writer (a dead pid in the name, or an old-style
// random name) are removed by the next writer; a live writer's are kept.
func TestCreateRemovesDeadWritersTemps(t *testing.T) {
	dir := t.TempDir()
	dest := filepath.Join(dir, "ds")
	dead := filepath.Join(dir, ".ds.tmp-999999999-1")
	legacy := filepath.Join(dir, ".ds.tmp-123456789012")
	live := filepath.Join(dir, ".ds.tmp-1-7") // pid 1 runs
	other := filepath.Join(dir, ".other.tmp-999999999-1")
	for _, p := range []string{dead, legacy, live, other} {
		os.MkdirAll(filepath.Join(p, "x"), 0o755)
	}
	if err := WriteFile(dest, []byte("new"), 0o644); err != nil {
		t.Fatal(err)
	}
	for p, want := range map[string]bool{dead: false, legacy: false, live: true, other: true} {
		if _, err := os.Stat(p); (err == nil) != want {
			t.Errorf("%s: exists %v, want %v", filepath.Base(p), err == nil, want)
		}
	}
}
