package validate_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	. "curate/pipeline/validate"
)

// validate reads task.toml again: a file nested past the depth allowed is
// refused there too, with its file and line, before anything decodes it.
func TestDeepTaskConfigRefused(t *testing.T) {
	dir := t.TempDir()
	doc := "[environment]\ncpus = 1\n[" + strings.Repeat("a.", 50000) + "b]\nc = 1\n"
	os.WriteFile(filepath.Join(dir, "task.toml"), []byte(doc), 0o644)
	_, err := ReadTaskConfig(dir)
	want := filepath.Join(dir, "task.toml") + ":3:2: a.a."
	if err == nil || !strings.HasPrefix(err.Error(), want) || !strings.Contains(err.Error(), "nests more than 64 levels") {
		t.Fatalf("err = %.300v, want it to start %q and name the depth", err, want)
	}
}
