package cli

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"curate/internal/testenv"
	"curate/pipeline"
	"curate/pipeline/taskdir"
	"curate/workspace"
)

// TestWorkbenchInTmux drives the real binary in a tmux pane on the demo
// workspace, as a curator would: filter, open a task, label it, undo, open
// its diff and switch views. It skips only when tmux is not installed.
func TestWorkbenchInTmux(t *testing.T) {
	testenv.RequireCommand(t, "tmux")
	bin, demo := buildDemo(t)
	id, seeded := builtDemoTask(t, bin, demo)
	tp := startTmux(t, bin+" --workspace "+demo, "USER=tmux-curator")
	keys, text := tp.keys, tp.text
	wait := func(what string, texts ...string) string {
		t.Helper()
		return tp.wait(what, 15*time.Second, texts...)
	}

	wait("start", "[F1 Candidates]", "tasks · marked 0", "ID↑")
	if log, err := os.ReadFile(filepath.Join(demo, ".curate", "curate.log")); err != nil || !strings.Contains(string(log), "workbench opened on "+demo) {
		t.Fatalf("workbench log: %v\n%s", err, log)
	}
	// Filter.
	keys("/")
	wait("filter opened", "/ ")
	text(id)
	p := wait("filter typed", "1/", id)
	if !strings.Contains(p, "> "+id) {
		t.Fatalf("the filtered task is not under the cursor:\n%s", p)
	}
	keys("Enter")
	// Open the task.
	keys("Enter")
	wait("task screen", "[F2 Task]", "Statement", "Difficulty", "Score")
	keys("G") // runs and history are below the statement and the metadata
	wait("task screen's end", "Runs", "History")
	// Label it: 3 = hard.
	keys("3")
	wait("labelled", "label: "+id+" difficulty", "→ hard · u undoes")
	if got := showLabel(t, bin, demo, id); got != "hard" {
		t.Fatalf("after 3 the store has difficulty %q", got)
	}
	// Undo.
	keys("u")
	wait("undone", "undo: "+id+" difficulty hard → ∅")
	if got := showLabel(t, bin, demo, id); got != "" {
		t.Fatalf("after u the store has difficulty %q", got)
	}
	// Its diff, unified then side by side, then the bug patch.
	keys("d")
	wait("diff", "[F3 Diff]", "fix.patch +", "unified", "@@ -")
	keys("S")
	wait("side by side", "side by side", "│")
	keys("b")
	p = wait("bug patch", "bug.patch +")
	if seeded && !strings.Contains(p, "amount = sum(int(i.price) for i in items)") {
		t.Errorf("bug.patch lines not shown:\n%s", p)
	}
	keys("t")
	wait("tests", "tests +")
	keys("q")
	tp.waitExit(5 * time.Second)
}

// builtDemoTask returns a demo task with patches. Until the demo ships
// built tasks, it adds the workbench's fixture task to the demo workspace.
func builtDemoTask(t *testing.T, bin, demo string) (id string, seeded bool) {
	out, err := exec.Command(bin, "--workspace", demo, "list", "--filter", "status=built", "--json").Output()
	if err != nil {
		t.Fatalf("curate list: %v", err)
	}
	var tasks []struct {
		ID      string `json:"id"`
		TaskDir string `json:"task_dir"`
	}
	if err := json.Unmarshal(out, &tasks); err != nil {
		t.Fatalf("curate list --json: %v", err)
	}
	for _, tk := range tasks {
		if tk.TaskDir != "" {
			if _, err := os.Stat(filepath.Join(demo, tk.TaskDir, "solution", "fix.patch")); err == nil {
				return tk.ID, false
			}
			if _, err := os.Stat(filepath.Join(tk.TaskDir, "solution", "fix.patch")); err == nil {
				return tk.ID, false
			}
		}
	}
	src := filepath.Join("ui", "testdata", "tasks", "fixture-calc")
	dst := filepath.Join(demo, "tasks", "fixture-calc")
	if out, err := exec.Command("cp", "-r", src, dst).CombinedOutput(); err != nil {
		t.Fatalf("copy fixture: %v %s", err, out)
	}
	digest, err := taskdir.Digest(dst)
	if err != nil {
		t.Fatal(err)
	}
	ws, err := workspace.Open(context.Background(), demo)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	task := &pipeline.Task{ID: "fixture-calc", Benchmark: "ccb_mined", Source: "git", Repo: "acme/calc", Title: "Keep cents when a discount applies",
		Language: "python", Status: pipeline.StatusBuilt, TaskDir: "tasks/fixture-calc", Digest: digest}
	if err := ws.Store.UpsertTasks(context.Background(), []*pipeline.Task{task}); err != nil {
		t.Fatal(err)
	}
	return task.ID, true
}

func showLabel(t *testing.T, bin, demo, id string) string {
	t.Helper()
	out, err := exec.Command(bin, "--workspace", demo, "show", id, "--json").Output()
	if err != nil {
		t.Fatalf("curate show: %v", err)
	}
	var v struct {
		Label string `json:"difficulty_label"`
	}
	if err := json.Unmarshal(out, &v); err != nil {
		t.Fatal(err)
	}
	return v.Label
}
