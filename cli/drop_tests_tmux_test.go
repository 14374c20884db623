package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"curate/internal/fixtures"
	"curate/internal/testenv"
	"curate/pipeline"
	"curate/workspace"
)

// TestWorkbenchDropTestsInTmux drops a FAIL_TO_PASS test from the Task
// screen (D, space, a reason, enter), undoes and redoes it, then
// validates the task again from the Runs screen and undoes the drop, at
// 80 and 160 columns: the list, test.sh and the status follow each step,
// validation finds the task valid with the list the curator left, and the
// undo after it gives the test back.
func TestWorkbenchDropTestsInTmux(t *testing.T) {
	testenv.RequireCommand(t, "tmux")
	base := testenv.BaseImage(t)
	dir := t.TempDir()
	bin := filepath.Join(dir, "curate")
	if out, err := exec.Command("go", "build", "-o", bin, "..").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	const id = "acme__calc-1"
	// The fixture's PR 1 fails these before its fix; the curator finds
	// the formatting test over-specified.
	keep := []string{"tests/test_ops.py::test_divide_fraction", "tests/test_ops.py::test_parse_decimal"}
	drop := "tests/test_ops.py::test_fmt_float"
	for _, width := range []int{80, 160} {
		t.Run(fmt.Sprint(width), func(t *testing.T) {
			ws := validCalc(t, base, append(slices.Clone(keep), drop))
			f2p := func() []string {
				var out []string
				b, _ := json.Marshal(showTaskJSON(t, ws, id)["fail_to_pass"])
				json.Unmarshal(b, &out)
				return out
			}
			status := func() any { return showTaskJSON(t, ws, id)["status"] }
			tp := startTmux(t, bin+" --workspace "+ws, "USER=tmux-curator")
			tp.tm("resize-window", "-t", "0", "-x", fmt.Sprint(width), "-y", "45")
			tp.wait("start", time.Minute, "Candidates")
			tp.keys("/", "C-u")
			tp.text("calc-1")
			tp.keys("Enter")
			tp.wait("filtered", 20*time.Second, id)
			tp.keys("Enter")
			tp.wait("task screen", 20*time.Second, "Statement", "FAIL_TO_PASS (3)")
			tp.keys("D")
			tp.wait("form", 10*time.Second, "Drop FAIL_TO_PASS tests", "[ ] "+keep[0])
			tp.keys("j", "j", "Space")
			tp.wait("marked", 10*time.Second, "[x] "+drop)
			tp.keys("Tab")
			tp.text("over-specified")
			tp.keys("Enter")
			waitFor(t, "drop", func() bool { return slices.Equal(f2p(), keep) })
			tp.wait("dropped on screen", 30*time.Second, "FAIL_TO_PASS (2)", "dropped "+drop+" (over-specified)")
			if s := status(); s != "built" {
				t.Errorf("after the drop: status %v, want built (to validate again)", s)
			}
			tp.keys("u")
			waitFor(t, "undo", func() bool { return len(f2p()) == 3 })
			tp.wait("undo on screen", 30*time.Second, "FAIL_TO_PASS (3)")
			tp.keys("U")
			waitFor(t, "redo", func() bool { return slices.Equal(f2p(), keep) })
			tp.wait("redo on screen", 30*time.Second, "FAIL_TO_PASS (2)")

			// Validate again from the Runs screen (Task → Diff → Runs).
			tp.keys("Tab", "Tab")
			tp.wait("runs screen", 10*time.Second, "[F4 Runs]")
			tp.keys("v")
			tp.wait("validate form", 10*time.Second, "Start a validation", "current task ("+id+")")
			tp.keys("Enter")
			tp.wait("validated", 12*time.Minute, "validation done: 3 ok, 0 not ok")
			waitFor(t, "valid", func() bool { return status() == "valid" })
			if got := f2p(); !slices.Equal(got, keep) {
				t.Errorf("after validation: FAIL_TO_PASS %v, want %v (the drop stands)", got, keep)
			}
			// An undo after the validation still gives the test back:
			// gold reported it and the task kept it as dropped.
			tp.keys("F2")
			tp.wait("task screen again", 10*time.Second, "Statement", "FAIL_TO_PASS (2)")
			tp.keys("u")
			waitFor(t, "undo after validation", func() bool { return len(f2p()) == 3 })
			tp.wait("undo after validation on screen", 30*time.Second, "FAIL_TO_PASS (3)")
			tp.keys("q")
			tp.waitExit(10 * time.Second)
		})
	}
}

// validCalc is the Python fixture's PR 1 built on base and recorded as
// valid with f2p, as a validation leaves it (the loop test validates for
// real: TestCuratorLoopRevalidates).
func validCalc(t *testing.T, base string, f2p []string) string {
	t.Helper()
	ws := newWorkspace(t)
	py, err := fixtures.PythonRepo(filepath.Join(t.TempDir(), "calc"))
	if err != nil {
		t.Fatal(err)
	}
	if code, _, e := cli(t, "-w", ws, "mine", "git", py.Path); code != 0 {
		t.Fatal(e)
	}
	if code, _, e := cli(t, "-w", ws, "build", "acme__calc-1", "--base-image", base); code != 0 {
		t.Fatal(e)
	}
	t.Cleanup(func() { cli(t, "-w", ws, "env", "prune") })
	w, err := workspace.Open(context.Background(), ws)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	task, err := w.Store.Task(context.Background(), "acme__calc-1")
	if err != nil {
		t.Fatal(err)
	}
	task.Status = pipeline.StatusValid
	task.Extra["FAIL_TO_PASS"] = f2p
	if err := w.Store.UpsertTasks(context.Background(), []*pipeline.Task{task}); err != nil {
		t.Fatal(err)
	}
	return ws
}
