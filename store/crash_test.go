package store

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"curate/pipeline"
)

// TestMain lets the test binary act as the writer child of the crash test.
func TestMain(m *testing.M) {
	if path := os.Getenv("CURATE_CRASH_CHILD_DB"); path != "" {
		crashChild(path)
		return
	}
	os.Exit(m.Run())
}

// crashChild writes label events as fast as it can, printing the sequence
// number of each committed event, until it is killed.
func crashChild(path string) {
	ctx := context.Background()
	s, err := Open(ctx, path)
	if err != nil {
		fmt.Println("ERR", err)
		os.Exit(2)
	}
	w := bufio.NewWriter(os.Stdout)
	diffs := []string{"easy", "medium", "hard"}
	for i := 0; ; i++ {
		ev, err := s.Label(ctx, "child", []pipeline.Change{{TaskID: "t", Field: pipeline.FieldDifficulty, New: diffs[i%3]}})
		if err != nil {
			fmt.Println("ERR", err)
			os.Exit(2)
		}
		fmt.Fprintln(w, ev[0].Seq)
		w.Flush()
	}
}

func TestSIGKILLDuringLabelBurst(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "curate.db")
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	seed(t, s, "t")
	s.Close()

	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "CURATE_CRASH_CHILD_DB="+path)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var committed []int64
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "ERR") {
			t.Fatalf("child: %s", line)
		}
		n, _ := strconv.ParseInt(line, 10, 64)
		committed = append(committed, n)
		if len(committed) == 300 {
			cmd.Process.Signal(syscall.SIGKILL)
			break
		}
	}
	cmd.Wait()
	if len(committed) < 300 {
		t.Fatalf("child wrote only %d events", len(committed))
	}

	s2, err := Open(ctx, path)
	if err != nil {
		t.Fatalf("reopen after SIGKILL: %v", err)
	}
	defer s2.Close()
	if res, err := s2.IntegrityCheck(ctx); err != nil || res != "ok" {
		t.Fatalf("integrity_check: %q %v", res, err)
	}
	events, err := s2.History(ctx, "t", 0)
	if err != nil {
		t.Fatal(err)
	}
	have := map[int64]bool{}
	for _, e := range events {
		have[e.Seq] = true
	}
	for _, seq := range committed {
		if !have[seq] {
			t.Fatalf("committed event %d lost (have %d events)", seq, len(events))
		}
	}
	// The task's label equals the newest surviving event's value.
	tk, _ := s2.Task(ctx, "t")
	if string(tk.Labels.Difficulty) != events[0].New {
		t.Fatalf("label %q but newest event says %q", tk.Labels.Difficulty, events[0].New)
	}
}

func TestReadersDoNotBlockWriter(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "curate.db")
	w, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	seed(t, w, "a", "b")
	r, err := Open(ctx, path) // a second process's view of the same workspace
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	// Hold a read transaction open for the whole write burst.
	tx, err := r.db.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var n int
	tx.QueryRow("SELECT count(*) FROM tasks").Scan(&n)
	var wg sync.WaitGroup
	errs := make(chan error, 1)
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; i < 50; i++ {
			v := []string{"easy", "hard"}[i%2]
			if _, err := w.Label(ctx, "w", []pipeline.Change{{TaskID: "a", Field: pipeline.FieldDifficulty, New: v}}); err != nil {
				errs <- err
				return
			}
		}
	}()
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("writer blocked by an open reader")
	}
	tx.Rollback()
	select {
	case err := <-errs:
		t.Fatal(err)
	default:
	}
	if h, _ := r.History(ctx, "a", 0); len(h) != 50 {
		t.Fatalf("reader sees %d events, want 50", len(h))
	}
}
