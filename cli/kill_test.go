package cli

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"math/rand"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"curate/pipeline/taskdir"
	"curate/workspace"
)

// TestMain lets the test binary act as the curate command line (for the
// kill tests' child processes and the README examples): with
// CURATE_TEST_AS_CLI=1 it runs the arguments as curate would.
func TestMain(m *testing.M) {
	if os.Getenv("CURATE_TEST_AS_CLI") == "1" {
		os.Exit(Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// killRounds is the bar: 50 kills of each command.
const killRounds = 50

// writeBench writes n small Harbor task dirs under dir; version changes
// their content so a re-import replaces every dir.
func writeBench(t *testing.T, dir string, n, version int) {
	t.Helper()
	for i := 0; i < n; i++ {
		td := filepath.Join(dir, fmt.Sprintf("task-%03d", i))
		files := map[string]string{
			"task.toml":              fmt.Sprintf("version = \"1.0\"\n[metadata]\ndifficulty = \"hard\"\ncategory = \"bug_fix\"\nfiles_count = %d\n", version+i),
			"instruction.md":         fmt.Sprintf("# Fix bug %d (v%d)\n\n%s\n", i, version, strings.Repeat("Some context. ", 50)),
			"environment/Dockerfile": "FROM scratch\n",
			"tests/test.sh":          "#!/bin/bash\necho 1 > /logs/verifier/reward.txt\n",
			"solution/solve.sh":      fmt.Sprintf("#!/bin/bash\necho v%d\n", version),
			"tests/data.txt":         strings.Repeat(fmt.Sprintf("line %d v%d\n", i, version), 300),
		}
		for rel, body := range files {
			p := filepath.Join(td, rel)
			os.MkdirAll(filepath.Dir(p), 0o755)
			if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// startCLI starts the test binary as `curate ARGS...` in its own process.
func startCLI(t *testing.T, args ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "CURATE_TEST_AS_CLI=1")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd
}

// killAfter runs curate ARGS and SIGKILLs it after delay (it may finish first).
func killAfter(t *testing.T, delay time.Duration, args ...string) {
	t.Helper()
	cmd := startCLI(t, args...)
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(delay):
		cmd.Process.Signal(syscall.SIGKILL)
		<-done
	}
}

// timeCLI runs curate ARGS to the end and returns how long it took.
func timeCLI(t *testing.T, args ...string) time.Duration {
	t.Helper()
	start := time.Now()
	cmd := startCLI(t, args...)
	if err := cmd.Wait(); err != nil {
		t.Fatalf("curate %v: %v", args, err)
	}
	return time.Since(start)
}

// checkConsistent opens the workspace the way every command does (which
// recovers what a kill left) and checks: the database's integrity, every
// task dir has its row with the dir's digest, every row's dir exists, and
// no staging dir or journal is left.
func checkConsistent(t *testing.T, root string) {
	t.Helper()
	if code, _, errs := cli(t, "-w", root, "list", "--json"); code != 0 {
		t.Fatalf("list after a kill: %s", errs)
	}
	db := openIntact(t, root)
	defer db.Close()
	rows := map[string][2]string{}
	q, err := db.Query("SELECT id, task_dir, digest FROM tasks")
	if err != nil {
		t.Fatal(err)
	}
	for q.Next() {
		var id, dir, digest string
		q.Scan(&id, &dir, &digest)
		rows[id] = [2]string{dir, digest}
	}
	q.Close()
	tasks := filepath.Join(root, workspace.TasksDir)
	entries, _ := os.ReadDir(tasks)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") {
			t.Fatalf("leftover %s in tasks/", e.Name())
		}
		row, ok := rows[e.Name()]
		if !ok {
			t.Fatalf("task dir %s has no row", e.Name())
		}
		digest, err := taskdir.Digest(filepath.Join(tasks, e.Name()))
		if err != nil || digest != row[1] {
			t.Fatalf("task dir %s holds other files than its row says (digest %s, row %s, %v)", e.Name(), digest, row[1], err)
		}
	}
	for id, row := range rows {
		if strings.HasPrefix(row[0], tasks) {
			if _, err := os.Stat(row[0]); err != nil {
				t.Fatalf("row %s names a missing dir: %v", id, err)
			}
		}
	}
	if left, _ := filepath.Glob(filepath.Join(root, ".curate", "journal", "*")); len(left) > 0 {
		t.Fatalf("journal left: %v", left)
	}
}

// openIntact opens the workspace's database and fails the test unless
// SQLite's integrity_check passes.
func openIntact(t *testing.T, root string) *sql.DB {
	t.Helper()
	// A process that is still recording (a workbench stopping on SIGHUP)
	// may hold the write lock: wait for it as the product does, instead of
	// failing on SQLITE_BUSY ("database is locked").
	db, err := sql.Open("sqlite", "file:"+(&url.URL{Path: filepath.Join(root, ".curate", "curate.db")}).EscapedPath()+"?_pragma=busy_timeout(10000)")
	if err != nil {
		t.Fatal(err)
	}
	var integrity string
	if err := db.QueryRow("PRAGMA integrity_check").Scan(&integrity); err != nil || integrity != "ok" {
		db.Close()
		t.Fatalf("integrity_check: %q %v", integrity, err)
	}
	return db
}

// Kills at random moments of a first import, a re-import of changed files
// and a Harbor export; after each, the next command leaves dirs and rows
// agreeing, the database intact and no temp dirs behind.
func TestKillsLeaveWorkspaceConsistent(t *testing.T) {
	if testing.Short() {
		t.Skip("kills 150 processes")
	}
	rng := rand.New(rand.NewSource(time.Now().UnixNano()))
	src := t.TempDir()
	a, b := filepath.Join(src, "a", "bench"), filepath.Join(src, "b", "bench")
	writeBench(t, a, 20, 1)
	writeBench(t, b, 20, 2)

	t.Run("first import", func(t *testing.T) {
		full := timeCLI(t, "-w", newWorkspace(t), "import", "harbor", a)
		t.Logf("a whole import takes %v", full)
		for i := 0; i < killRounds; i++ {
			ws := newWorkspace(t)
			killAfter(t, time.Duration(rng.Int63n(int64(full))), "-w", ws, "import", "harbor", a)
			checkConsistent(t, ws)
		}
	})
	ws := newWorkspace(t)
	t.Run("re-import", func(t *testing.T) {
		full := timeCLI(t, "-w", ws, "import", "harbor", a)
		full = max(full, timeCLI(t, "-w", ws, "import", "harbor", b))
		for i := 0; i < killRounds; i++ {
			from := []string{a, b}[i%2]
			killAfter(t, time.Duration(rng.Int63n(int64(full))), "-w", ws, "import", "harbor", from)
			checkConsistent(t, ws)
		}
	})
	t.Run("export", func(t *testing.T) {
		if code, _, errs := cli(t, "-w", ws, "select", "--name", "all", "--budget", "8", "--allow-infeasible"); code != 0 {
			t.Fatal(errs)
		}
		out := filepath.Join(t.TempDir(), "ds")
		full := timeCLI(t, "-w", ws, "export", "--format", "harbor", "--org", "acme", "--out", out, "--allow-unvalidated")
		t.Logf("a whole export takes %v", full)
		for i := 0; i < killRounds; i++ {
			killAfter(t, time.Duration(rng.Int63n(int64(full))), "-w", ws, "export", "--format", "harbor", "--org", "acme", "--out", out, "--allow-unvalidated")
			if code, _, errs := cli(t, "-w", ws, "export", "--format", "harbor", "--org", "acme", "--out", out, "--allow-unvalidated"); code != 0 {
				t.Fatalf("round %d: export after a kill: %s", i, errs)
			}
			left, _ := filepath.Glob(filepath.Join(filepath.Dir(out), ".ds*"))
			scratch, _ := filepath.Glob(filepath.Join(ws, ".curate", "tmp", "*"))
			left = append(left, scratch...)
			if len(left) > 0 {
				t.Fatalf("round %d: leftovers %v", i, left)
			}
			var reg []struct{ Tasks []struct{ Path string } }
			data, _ := os.ReadFile(filepath.Join(out, "registry.json"))
			if err := json.Unmarshal(data, &reg); err != nil || len(reg) != 1 || len(reg[0].Tasks) != 8 {
				t.Fatalf("round %d: registry %s (%v)", i, data, err)
			}
			for _, tk := range reg[0].Tasks {
				if _, err := os.Stat(filepath.Join(out, tk.Path, "task.toml")); err != nil {
					t.Fatalf("round %d: dataset incomplete: %v", i, err)
				}
			}
		}
		checkConsistent(t, ws)
	})
}
