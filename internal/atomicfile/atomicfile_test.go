package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
)

func TestWriteFileReplacesAndLeavesNoTemp(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "a.toml")
	if err := os.WriteFile(p, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(p, []byte("new"), 0o644); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(p)
	fi, _ := os.Stat(p)
	if string(data) != "new" || fi.Mode().Perm() != 0o644 {
		t.Fatalf("got %q %v", data, fi.Mode())
	}
	// A failed fill leaves the old content and no temporary file.
	boom := errors.New("boom")
	if err := Write(p, 0o644, func(w io.Writer) error { w.Write([]byte("half")); return boom }); !errors.Is(err, boom) {
		t.Fatalf("err %v", err)
	}
	data, _ = os.ReadFile(p)
	entries, _ := os.ReadDir(dir)
	if string(data) != "new" || len(entries) != 1 {
		t.Fatalf("after a failed write: %q, %d entries", data, len(entries))
	}
}

func TestReplaceDir(t *testing.T) {
	dir := t.TempDir()
	dst := filepath.Join(dir, "out")
	for i, content := range []string{"first", "second"} {
		src, err := os.MkdirTemp(dir, ".out.tmp-")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(src, "f"), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := ReplaceDir(src, dst); err != nil {
			t.Fatalf("replace %d: %v", i, err)
		}
		data, _ := os.ReadFile(filepath.Join(dst, "f"))
		if string(data) != content {
			t.Fatalf("replace %d: %q", i, data)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Fatalf("leftovers: %v", entries)
	}
}
