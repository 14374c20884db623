package cli

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"curate/internal/testenv"
)

// bigTestsRSSLimit is the bar for validating a task with 450 MB in
// tests/: the files are streamed into the container, not held in memory
// (which peaked at 1.37 GB).
const bigTestsRSSLimit = 200 << 20

// `validate --mode nop` of a task with ten 45 MB files in tests/ runs in
// a curate process whose peak RSS stays under 200 MB, as the kernel
// counts it for the child process.
func TestBigTestsFolderValidatedInBoundedMemory(t *testing.T) {
	img := testenv.BusyboxImage(t)
	root := newDockerWorkspace(t)
	dir := copyFixture(t, root, "bb-valid", img)
	for i := 0; i < 10; i++ {
		// Sparse: 450 MB to read and send, no disk to write them.
		f, err := os.Create(filepath.Join(dir, "tests", fmt.Sprintf("data-%d.bin", i)))
		if err != nil {
			t.Fatal(err)
		}
		if err := f.Truncate(45 << 20); err != nil {
			t.Fatal(err)
		}
		f.Close()
	}
	start := time.Now()
	cmd := exec.Command(os.Args[0], "-w", root, "validate", dir, "--mode", "nop")
	cmd.Env = append(os.Environ(), "CURATE_TEST_AS_CLI=1")
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "ok reward=0") {
		t.Fatalf("validate: %v\n%s", err, out)
	}
	rss := cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss << 10 // kB on Linux
	t.Logf("validate --mode nop, 450 MB in tests/: peak RSS %d MB, %s", rss>>20, time.Since(start).Round(100*time.Millisecond))
	if rss > bigTestsRSSLimit {
		t.Errorf("peak RSS %d MB, want under %d MB", rss>>20, bigTestsRSSLimit>>20)
	}
}
