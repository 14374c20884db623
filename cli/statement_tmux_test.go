package cli

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"curate/internal/testenv"
)

// TestWorkbenchEditInstructionInTmux edits a valid task's statement from
// the Task screen (e runs $EDITOR through the workbench), undoes and
// redoes it, and validates it again from the Runs screen, at 80 and 160
// columns: instruction.md, the screen and the status (back to built,
// then valid again) follow each step.
func TestWorkbenchEditInstructionInTmux(t *testing.T) {
	testenv.RequireCommand(t, "tmux")
	base := testenv.BaseImage(t)
	dir := t.TempDir()
	bin := filepath.Join(dir, "curate")
	if out, err := exec.Command("go", "build", "-o", bin, "..").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	text := "Dividing by a fraction returns the wrong quotient"
	editor := filepath.Join(dir, "ed.sh")
	if err := os.WriteFile(editor, []byte("#!/bin/sh\nprintf '%s, and zero must still raise.\\n' '"+text+"' > \"$1\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, width := range []int{80, 160} {
		t.Run(fmt.Sprint(width), func(t *testing.T) {
			ws := validCalc(t, base, []string{"tests/test_ops.py::test_divide_fraction", "tests/test_ops.py::test_fmt_float", "tests/test_ops.py::test_parse_decimal"})
			md := func() string { return readInstruction(t, ws) }
			generated := md()
			tp := startTmux(t, bin+" --workspace "+ws, "USER=tmux-curator", "EDITOR="+editor, "VISUAL=")
			tp.tm("resize-window", "-t", "0", "-x", fmt.Sprint(width), "-y", "45")
			tp.wait("start", time.Minute, "Candidates")
			tp.keys("/", "C-u")
			tp.text("calc-1")
			tp.keys("Enter")
			tp.wait("filtered", 20*time.Second, "acme__calc-1")
			tp.keys("Enter")
			tp.wait("task screen", 20*time.Second, "Statement", "flags")
			tp.keys("e")
			tp.wait("edited", 30*time.Second, "Dividing by a fraction")
			if !strings.Contains(md(), text) {
				t.Fatalf("instruction.md lacks the edit:\n%s", md())
			}
			if m := showTaskJSON(t, ws, "acme__calc-1"); m["instruction_source"] != "curator" || m["status"] != "built" {
				t.Errorf("after the edit: source %v, status %v (want curator, built)", m["instruction_source"], m["status"])
			}
			tp.keys("u")
			waitFor(t, "undo", func() bool { return md() == generated })
			tp.wait("undo on screen", 20*time.Second, "returns 0 instead of 0.5")
			tp.keys("U")
			waitFor(t, "redo", func() bool { return strings.Contains(md(), text) })
			tp.wait("redo on screen", 20*time.Second, "Dividing by a fraction")
			// Validate again from the Runs screen (Task → Diff → Runs).
			tp.keys("Tab", "Tab")
			tp.wait("runs screen", 10*time.Second, "[F4 Runs]")
			tp.keys("v")
			tp.wait("validate form", 10*time.Second, "Start a validation", "current task (acme__calc-1)")
			tp.keys("Enter")
			tp.wait("validated", 12*time.Minute, "validation done: 3 ok, 0 not ok")
			waitFor(t, "valid", func() bool { return showTaskJSON(t, ws, "acme__calc-1")["status"] == "valid" })
			if m := showTaskJSON(t, ws, "acme__calc-1"); m["instruction_source"] != "curator" {
				t.Errorf("after validation: instruction_source %v, want curator", m["instruction_source"])
			}
			tp.keys("q")
			tp.waitExit(10 * time.Second)
		})
	}
}

// waitFor polls ok until it holds, failing after 20 seconds.
func waitFor(t *testing.T, what string, ok func() bool) {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); !ok(); time.Sleep(100 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not done after 20s", what)
		}
	}
}
