package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"curate/internal/testenv"
	"curate/pipeline"
)

// slowCopy copies the bb-valid fixture as a task whose suite sleeps
// seconds before it runs: a task that settles late in a batch.
func slowCopy(t *testing.T, root, image, name string, seconds int) string {
	t.Helper()
	dir := copyFixture(t, t.TempDir(), "bb-valid", image) // not root: bb-valid itself may be there
	slow := filepath.Join(root, "tasks", name)
	if err := os.Rename(dir, slow); err != nil {
		t.Fatal(err)
	}
	toml := strings.Replace(readFile(t, filepath.Join(slow, "task.toml")), "fixtures/bb-valid", "fixtures/"+name, 1)
	writeFile(t, filepath.Join(slow, "task.toml"), toml)
	sh := strings.Replace(readFile(t, filepath.Join(slow, "tests", "test.sh")), "#!/bin/bash\n", "#!/bin/bash\nsleep "+itoa(seconds)+"\n", 1)
	writeFile(t, filepath.Join(slow, "tests", "test.sh"), sh)
	return slow
}

// startCLIStderr is startCLI with curate's stderr kept for failure messages.
func startCLIStderr(t *testing.T, args ...string) (*exec.Cmd, *syncBuffer) {
	t.Helper()
	var stderr syncBuffer
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "CURATE_TEST_AS_CLI=1")
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd, &stderr
}

// syncBuffer is a bytes.Buffer safe to write from the process's copier
// while the test reads it.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func readFile(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func writeFile(t *testing.T, p, s string) {
	t.Helper()
	if err := os.WriteFile(p, []byte(s), 0o755); err != nil {
		t.Fatal(err)
	}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// statusOf reads a task's status as `curate list --json` prints it.
func statusOf(t *testing.T, root, id string) pipeline.Status {
	t.Helper()
	code, out, errs := cli(t, "-w", root, "list", "--json")
	if code != 0 {
		t.Fatalf("list --json: exit %d: %s", code, errs)
	}
	var tasks []struct {
		ID     string          `json:"id"`
		Status pipeline.Status `json:"status"`
	}
	if err := json.Unmarshal([]byte(out), &tasks); err != nil {
		t.Fatalf("list --json: %v\n%s", err, out)
	}
	for _, task := range tasks {
		if task.ID == id {
			return task.Status
		}
	}
	return ""
}

// The first task of a batch is valid for `list --json` in another process
// as soon as its runs settle it, while the batch goes on with the others.
func TestStatusFollowsRunsDuringBatch(t *testing.T) {
	img := testenv.BusyboxImage(t)
	root := newDockerWorkspace(t)
	first := copyFixture(t, root, "bb-valid", img)
	second := slowCopy(t, root, img, "bb-late-1", 8)
	third := slowCopy(t, root, img, "bb-late-2", 8)
	cmd, stderr := startCLIStderr(t, "-w", root, "validate", first, second, third, "--mode", "nop,oracle", "--concurrency", "1")
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	deadline := time.After(3 * time.Minute)
	for {
		select {
		case err := <-done:
			t.Fatalf("the batch ended (%v) before list showed bb-valid valid\n%s", err, stderr)
		case <-deadline:
			cmd.Process.Kill()
			t.Fatal("bb-valid not valid after 3 minutes")
		case <-time.After(200 * time.Millisecond):
		}
		if statusOf(t, root, "bb-valid") == pipeline.StatusValid {
			break
		}
	}
	if s := statusOf(t, root, "bb-late-2"); s == pipeline.StatusValid {
		t.Fatalf("bb-late-2 already %s: the batch was not still going", s)
	}
	code, out, _ := cli(t, "-w", root, "funnel")
	if code != 0 || strings.Contains(out, "curate validate --mode") && !strings.Contains(out, "validating") {
		t.Errorf("funnel during the batch advises validating again:\n%s", out)
	}
	if err := <-done; err != nil {
		t.Fatalf("validate: %v\n%s", err, stderr)
	}
	for _, id := range []string{"bb-valid", "bb-late-1", "bb-late-2"} {
		if s := statusOf(t, root, id); s != pipeline.StatusValid {
			t.Errorf("%s: status %s after the batch, want valid", id, s)
		}
	}
}

// A batch killed with SIGKILL after its first task settled leaves that
// task valid for the next command.
func TestKilledBatchKeepsSettledTasksJudged(t *testing.T) {
	img := testenv.BusyboxImage(t)
	root := newDockerWorkspace(t)
	first := copyFixture(t, root, "bb-valid", img)
	second := slowCopy(t, root, img, "bb-late-1", 60)
	cmd, stderr := startCLIStderr(t, "-w", root, "validate", first, second, "--mode", "nop,oracle", "--concurrency", "1")
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	start := time.Now()
	for finishedRuns(t, root, "bb-valid") < 2 {
		select {
		case err := <-done:
			t.Fatalf("validate ended early: %v\n%s", err, stderr)
		default:
		}
		if time.Since(start) > 3*time.Minute {
			cmd.Process.Kill()
			t.Fatal("bb-valid's runs did not finish in 3 minutes")
		}
		time.Sleep(20 * time.Millisecond)
	}
	cmd.Process.Signal(syscall.SIGKILL)
	<-done
	if s := statusOf(t, root, "bb-valid"); s != pipeline.StatusValid {
		t.Fatalf("bb-valid: status %s after the kill, want valid", s)
	}
	if s := statusOf(t, root, "bb-late-1"); s != pipeline.StatusBuilt {
		t.Fatalf("bb-late-1: status %s after the kill, want built (its runs were cut)", s)
	}

	// A curate killed between storing a run and its verdict (or an older
	// one that judged only at a batch's end) left the task built: the next
	// command judges it.
	db := openIntact(t, root)
	if _, err := db.Exec("UPDATE tasks SET status = 'built' WHERE id = 'bb-valid'"); err != nil {
		t.Fatal(err)
	}
	db.Close()
	code, _, errs := cli(t, "-w", root, "list")
	if code != 0 || !strings.Contains(errs, "note: 1 task(s) judged from runs a stopped curate stored") {
		t.Errorf("list after an unjudged run: exit %d, stderr:\n%s", code, errs)
	}
	db = openIntact(t, root)
	defer db.Close()
	var status string
	if err := db.QueryRow("SELECT status FROM tasks WHERE id = 'bb-valid'").Scan(&status); err != nil || status != "valid" {
		t.Errorf("bb-valid after recovery: %q %v, want valid", status, err)
	}
}

// finishedRuns counts a task's finished runs straight from the database,
// as another process sees them.
func finishedRuns(t *testing.T, root, id string) int {
	t.Helper()
	db := openIntact(t, root)
	defer db.Close()
	var n int
	if err := db.QueryRow("SELECT count(*) FROM runs WHERE task_id = ? AND outcome NOT IN ('pending', 'running')", id).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}
