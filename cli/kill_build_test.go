package cli

import (
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// buildKillRounds is the bar for build and rebuild: 20 kills each.
const buildKillRounds = 20

// killGroupAfter runs curate ARGS in its own process group with TMPDIR
// set to tmp and SIGKILLs the group (curate and its git children) after
// delay, as closing a terminal would; it may finish first.
func killGroupAfter(t *testing.T, delay time.Duration, tmp string, args ...string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "CURATE_TEST_AS_CLI=1", "TMPDIR="+tmp)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(delay):
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		<-done
	}
	// The group's other processes (git writing a mirror clone) die with
	// it, but one in the middle of a file-system call finishes it first
	// and can make a folder again after the next command swept it: the
	// "next command" comes after the whole group is gone, as it would for
	// a user.
	for i := 0; i < 500 && syscall.Kill(-cmd.Process.Pid, 0) == nil; i++ {
		time.Sleep(10 * time.Millisecond)
	}
}

// Kills at random moments of `build --at snapshot` (a mirror clone and a
// build dir) and `rebuild --repo`: after the next command (any: list)
// nothing is left in .curate/tmp, tasks/ or the system's temporary
// folder, and no committed label event is lost.
func TestKillsOfBuildsLeaveNoDebris(t *testing.T) {
	if testing.Short() {
		t.Skip("kills 40 processes")
	}
	rng := rand.New(rand.NewSource(time.Now().UnixNano()))
	ws := demoWorkspace(t)
	if code, _, errs := cli(t, "-w", ws, "label", "acme__calc-2", "--note", "kept through the kills"); code != 0 {
		t.Fatal(errs)
	}
	events := func() int {
		db := openIntact(t, ws)
		defer db.Close()
		var n int
		if err := db.QueryRow("SELECT count(*) FROM events").Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	committed := events()
	tmp := t.TempDir()
	for _, args := range [][]string{
		{"build", "--at", "snapshot", "acme__calc-1"},
		{"rebuild", "--repo", "acme/calc"},
	} {
		t.Run(args[0], func(t *testing.T) {
			full := timeCLI(t, append([]string{"-w", ws}, args...)...)
			t.Logf("a whole %s takes %v", args[0], full)
			for i := 0; i < buildKillRounds; i++ {
				killGroupAfter(t, time.Duration(rng.Int63n(int64(full))), tmp, append([]string{"-w", ws}, args...)...)
				if code, _, errs := cli(t, "-w", ws, "list"); code != 0 {
					t.Fatalf("round %d: list after a kill: %s", i, errs)
				}
				var left []string
				for _, pattern := range []string{filepath.Join(ws, ".curate", "tmp", "*"), filepath.Join(ws, "tasks", ".*"), filepath.Join(tmp, "*")} {
					m, _ := filepath.Glob(pattern)
					// (curate asks `go env` for named keys only: a bare one
					// makes a go-build* work folder a kill would leave.)
					left = append(left, m...)
				}
				if len(left) > 0 {
					t.Fatalf("round %d: debris after the next command: %s", i, strings.Join(left, ", "))
				}
				if n := events(); n < committed {
					t.Fatalf("round %d: %d events, %d were committed", i, n, committed)
				}
			}
		})
	}
	checkConsistent(t, ws)
}
