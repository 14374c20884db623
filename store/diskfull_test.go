package store

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"curate/pipeline"
)

// smallDisk mounts a tmpfs of size bytes at dir (root only: tests run as
// root in CI; elsewhere it is skipped).
func smallDisk(t *testing.T, dir, size string) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("mounting a small file system needs root")
	}
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size="+size, "tmpfs", dir).CombinedOutput(); err != nil {
		t.Fatalf("mount tmpfs: %v %s", err, out)
	}
	t.Cleanup(func() { exec.Command("umount", "-l", dir).Run() })
}

// fill writes to dir until the file system refuses with ENOSPC.
func fill(t *testing.T, dir string) {
	t.Helper()
	f, err := os.Create(filepath.Join(dir, "filler"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	chunk := make([]byte, 4096)
	for {
		if _, err := f.Write(chunk); err != nil {
			if !errors.Is(err, syscall.ENOSPC) {
				t.Fatal(err)
			}
			return
		}
	}
}

// A write to an index on a full disk says "disk full" and the file.
func TestDiskFullIsSaidSo(t *testing.T) {
	ctx := context.Background()
	state := filepath.Join(t.TempDir(), "ws", ".curate")
	os.MkdirAll(state, 0o755)
	smallDisk(t, state, "2m")
	path := filepath.Join(state, "curate.db")
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	fill(t, state)
	big := strings.Repeat("x", 1<<20)
	for i := 0; i < 8 && err == nil; i++ {
		err = s.SaveRun(ctx, &pipeline.Run{ID: "r" + string(rune('a'+i)), TaskID: "t", Mode: pipeline.ModeNop, Outcome: pipeline.OutcomeOK, Detail: big, StartedAt: time.Now()})
	}
	if err == nil {
		t.Fatal("8 MB of runs saved on a full 2 MB disk")
	}
	t.Log(err)
	if !strings.Contains(err.Error(), "disk full") || !strings.Contains(err.Error(), path) {
		t.Fatalf("error %q: want disk full and %s", err, path)
	}
}

// Opening an index on a full disk (SQLite cannot make its WAL index:
// "disk I/O error (4874)") says "disk full" too.
func TestDiskFullAtOpenIsSaidSo(t *testing.T) {
	ctx := context.Background()
	state := filepath.Join(t.TempDir(), "ws", ".curate")
	os.MkdirAll(state, 0o755)
	smallDisk(t, state, "1m")
	path := filepath.Join(state, "curate.db")
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	fill(t, state)
	s, err = Open(ctx, path)
	if err == nil {
		s.Close()
		t.Fatal("opened an index on a full disk")
	}
	t.Log(err)
	if !strings.Contains(err.Error(), "disk full") || !strings.Contains(err.Error(), path) {
		t.Fatalf("error %q: want disk full and %s", err, path)
	}
}
