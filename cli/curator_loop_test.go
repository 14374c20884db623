package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"curate/internal/fixtures"
	"curate/internal/testenv"
)

// TestCuratorLoopRevalidates runs the curator's loop on a task validated
// in Docker: hints with the NOP run's failure messages, an instruction
// edit, a dropped FAIL_TO_PASS test, undo and redo; after each change the
// task waits for validation and `curate validate` finds it valid again,
// with the list the curator left.
func TestCuratorLoopRevalidates(t *testing.T) {
	base := testenv.BaseImage(t)
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
	const id = "acme__calc-1"
	validate := func(step string) map[string]any {
		t.Helper()
		code, out, e := cli(t, "-w", ws, "validate", id, "--mode", "nop,oracle,gold", "--concurrency", "1")
		m := showTaskJSON(t, ws, id)
		if code != 0 || m["status"] != "valid" {
			t.Fatalf("%s: validate exit %d, status %v\n%s\n%s", step, code, m["status"], out, e)
		}
		return m
	}
	status := func(step, want string) {
		t.Helper()
		if got := showTaskJSON(t, ws, id)["status"]; got != want {
			t.Errorf("%s: status %v, want %s", step, got, want)
		}
	}
	f2p := func(m map[string]any) []string {
		var out []string
		b, _ := json.Marshal(m["fail_to_pass"])
		json.Unmarshal(b, &out)
		slices.Sort(out)
		return out
	}
	first := f2p(validate("first validation"))
	if len(first) < 2 {
		t.Fatalf("FAIL_TO_PASS %v: the loop needs two tests", first)
	}

	// Hints with the NOP run's messages: pytest's "assert 0 == 0.5".
	if code, _, e := cli(t, "-w", ws, "edit", id, "hints", "failures"); code != 0 {
		t.Fatal(e)
	}
	md := readInstruction(t, ws)
	if !strings.Contains(md, "## Hints") || !strings.Contains(md, "test_divide_fraction`: assert 0 == 0.5") {
		t.Errorf("hints failures: no message from the NOP run:\n%s", md)
	}
	status("hints", "built")
	validate("after hints")

	// An instruction edit, undone and redone, validated again.
	editor := filepath.Join(t.TempDir(), "ed.sh")
	os.WriteFile(editor, []byte("#!/bin/sh\nprintf 'divide(1, 2) must return 0.5; parse_number accepts \" 2.5 \".\\n' > \"$1\"\n"), 0o755)
	t.Setenv("VISUAL", "")
	t.Setenv("EDITOR", editor)
	if code, _, e := cli(t, "-w", ws, "edit", id, "instruction"); code != 0 {
		t.Fatal(e)
	}
	if m := showTaskJSON(t, ws, id); m["instruction_source"] != "curator" || m["status"] != "built" {
		t.Errorf("after the edit: source %v, status %v", m["instruction_source"], m["status"])
	}
	validate("after the edit")
	if code, _, e := cli(t, "-w", ws, "undo"); code != 0 {
		t.Fatal(e)
	}
	// Undo brings back the files validated after the hints: their runs
	// settle the task again (the next command judges it, #57).
	status("undo", "valid")
	if code, _, e := cli(t, "-w", ws, "redo"); code != 0 {
		t.Fatal(e)
	}
	if !strings.Contains(readInstruction(t, ws), "must return 0.5") {
		t.Errorf("redo lost the edit:\n%s", readInstruction(t, ws))
	}
	validate("after undo and redo")

	// A dropped FAIL_TO_PASS test: test.sh no longer counts it, and
	// validation keeps it out of the list.
	drop := first[0]
	if code, _, e := cli(t, "-w", ws, "edit", id, "tests", "--drop", drop, "--reason", "over-specified"); code != 0 {
		t.Fatal(e)
	}
	status("drop", "built")
	if got := f2p(validate("after the drop")); slices.Contains(got, drop) || len(got) != len(first)-1 {
		t.Errorf("after the drop and validation: FAIL_TO_PASS %v (dropped %s)", got, drop)
	}
	if code, _, e := cli(t, "-w", ws, "undo"); code != 0 {
		t.Fatal(e)
	}
	status("undo of the drop", "built")
	if got := f2p(validate("after the undo of the drop")); !slices.Equal(got, first) {
		t.Errorf("undo of the drop: FAIL_TO_PASS %v, want %v", got, first)
	}
}
