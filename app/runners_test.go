package app

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

func TestProcessAlive(t *testing.T) {
	// A process whose command line names curate, as a real curate's does.
	bin := filepath.Join(t.TempDir(), "curate")
	sleep, err := exec.LookPath("sleep")
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(sleep)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bin, data, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "30")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	// Asked at once: its cmdline may still be empty (1 run in 40 failed
	// in CI before the exe link was read by name too).
	if !ProcessAlive(cmd.Process.Pid) {
		t.Error("a live curate process is not alive")
	}
	if ProcessAlive(0) || ProcessAlive(0x7ffffff0) {
		t.Error("no such process")
	}
	if ProcessAlive(1) { // init is alive but is not curate
		t.Error("pid 1 is not a curate process")
	}
	if !ProcessAlive(os.Getpid()) { // app.test: the same executable
		t.Error("this process is not alive")
	}
}
