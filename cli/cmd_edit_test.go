package cli

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"curate/internal/fixtures"
	"curate/internal/fixtures/fakegithub"
	"curate/pipeline"
	"curate/pipeline/taskdir"
	"curate/workspace"
)

// builtCalc mines and builds the fixture Python project and marks
// acme__calc-1 valid with two FAIL_TO_PASS tests, as validation leaves it.
func builtCalc(t *testing.T) string {
	t.Helper()
	ws := newWorkspace(t)
	py, err := fixtures.PythonRepo(filepath.Join(t.TempDir(), "calc"))
	if err != nil {
		t.Fatal(err)
	}
	if code, _, e := cli(t, "-w", ws, "mine", "git", py.Path); code != 0 {
		t.Fatal(e)
	}
	if code, _, e := cli(t, "-w", ws, "build", "acme__calc-1", "--base-image", "curate/base:bookworm"); code != 0 {
		t.Fatal(e)
	}
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
	task.Extra["FAIL_TO_PASS"] = []string{"tests/test_ops.py::test_divide", "tests/test_ops.py::test_dns_lookup"}
	if err := w.Store.UpsertTasks(context.Background(), []*pipeline.Task{task}); err != nil {
		t.Fatal(err)
	}
	return ws
}

func showTaskJSON(t *testing.T, ws, id string) map[string]any {
	t.Helper()
	code, out, e := cli(t, "-w", ws, "show", id, "--json")
	if code != 0 {
		t.Fatal(e)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatalf("show --json: %v", err)
	}
	if task, ok := m["task"].(map[string]any); ok {
		return task
	}
	return m
}

func readInstruction(t *testing.T, ws string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(ws, "tasks", "acme__calc-1", "instruction.md"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestEditInstructionUndoRedo edits a statement through $EDITOR, then
// undoes and redoes it: instruction.md, the digest, instruction_source
// and the status (a valid task must be validated again) follow.
func TestEditInstructionUndoRedo(t *testing.T) {
	ws := builtCalc(t)
	generated := readInstruction(t, ws)
	if src := showTaskJSON(t, ws, "acme__calc-1")["instruction_source"]; src == "" || src == nil || src == "curator" {
		t.Fatalf("instruction_source after build: %v", src)
	}
	editor := filepath.Join(t.TempDir(), "ed.sh")
	text := "Dividing by a fraction returns the wrong quotient; the division must be exact for fractional divisors and still raise on zero."
	if err := os.WriteFile(editor, []byte("#!/bin/sh\nprintf '%s\\n' '"+text+"' > \"$1\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("VISUAL", "")
	t.Setenv("EDITOR", editor)
	if code, out, e := cli(t, "-w", ws, "edit", "acme__calc-1", "instruction"); code != 0 || !strings.Contains(out, "saved") {
		t.Fatalf("edit: %s %s", out, e)
	}
	check := func(step string, wantCurator bool) {
		t.Helper()
		md := readInstruction(t, ws)
		if strings.Contains(md, text) != wantCurator {
			t.Errorf("%s: instruction.md holds the curator's text: %v, want %v\n%s", step, !wantCurator, wantCurator, md)
		}
		m := showTaskJSON(t, ws, "acme__calc-1")
		if (m["instruction_source"] == "curator") != wantCurator {
			t.Errorf("%s: instruction_source %v", step, m["instruction_source"])
		}
		if m["status"] != "built" {
			t.Errorf("%s: status %v, want built (to validate again)", step, m["status"])
		}
		d, err := taskdir.Digest(filepath.Join(ws, "tasks", "acme__calc-1"))
		if err != nil || d != m["digest"] {
			t.Errorf("%s: stored digest %v, task dir %s (%v)", step, m["digest"], d, err)
		}
	}
	check("edit", true)
	if gen, _ := showTaskJSON(t, ws, "acme__calc-1")["instruction_generated"].(string); gen != generated {
		t.Errorf("show --json instruction_generated is not the generated instruction.md:\n%s", gen)
	}
	if code, _, e := cli(t, "-w", ws, "undo"); code != 0 {
		t.Fatal(e)
	}
	check("undo", false)
	if readInstruction(t, ws) != generated {
		t.Errorf("undo did not give back the generated instruction")
	}
	if code, _, e := cli(t, "-w", ws, "redo"); code != 0 {
		t.Fatal(e)
	}
	check("redo", true)
	_, hist, _ := cli(t, "-w", ws, "history", "acme__calc-1")
	if strings.Count(hist, "instruction:") != 3 {
		t.Errorf("history lacks the edit, undo and redo:\n%s", hist)
	}
	// Bulk regeneration keeps the curator's statement without --force.
	if code, out, e := cli(t, "-w", ws, "instructions", "--regenerate", "--filter", "id=acme__calc-1"); code != 0 || !strings.Contains(out, "kept") {
		t.Fatalf("regenerate: %s %s", out, e)
	}
	check("regenerate", true)
	if code, out, e := cli(t, "-w", ws, "instructions", "--regenerate", "--filter", "id=acme__calc-1", "--force"); code != 0 || !strings.Contains(out, "written") {
		t.Fatalf("regenerate --force: %s %s", out, e)
	}
	check("regenerate --force", false)
}

// TestEditTestsDropUndo drops a FAIL_TO_PASS test with a reason: the list
// loses it, test.sh no longer counts it, the task waits for validation;
// undo gives it back.
func TestEditTestsDropUndo(t *testing.T) {
	ws := builtCalc(t)
	drop := "tests/test_ops.py::test_dns_lookup"
	if code, _, e := cli(t, "-w", ws, "edit", "acme__calc-1", "tests", "--drop", drop); code == 0 || !strings.Contains(e, "reason") {
		t.Fatalf("a drop without a reason was accepted: %s", e)
	}
	if code, _, e := cli(t, "-w", ws, "edit", "acme__calc-1", "tests", "--drop", "no_such_test", "--reason", "x"); code == 0 || !strings.Contains(e, "not in its FAIL_TO_PASS") {
		t.Fatalf("an unknown test was accepted: %s", e)
	}
	if code, out, e := cli(t, "-w", ws, "edit", "acme__calc-1", "tests", "--drop", drop, "--reason", "environment-dependent"); code != 0 {
		t.Fatalf("drop: %s %s", out, e)
	}
	state := func() (f2p []string, status string) {
		w, err := workspace.Open(context.Background(), ws)
		if err != nil {
			t.Fatal(err)
		}
		defer w.Close()
		task, err := w.Store.Task(context.Background(), "acme__calc-1")
		if err != nil {
			t.Fatal(err)
		}
		return pipeline.ExtraStrings(task, "FAIL_TO_PASS"), string(task.Status)
	}
	f2p, status := state()
	if strings.Join(f2p, ",") != "tests/test_ops.py::test_divide" || status != "built" {
		t.Errorf("after the drop: FAIL_TO_PASS %v, status %s", f2p, status)
	}
	known, err := os.ReadFile(filepath.Join(ws, "tasks", "acme__calc-1", "tests", "known_failures.txt"))
	if err != nil || !strings.Contains(string(known), drop) {
		t.Errorf("test.sh still counts the dropped test: %q %v", known, err)
	}
	if code, _, e := cli(t, "-w", ws, "undo"); code != 0 {
		t.Fatal(e)
	}
	f2p, _ = state()
	if len(f2p) != 2 {
		t.Errorf("undo: FAIL_TO_PASS %v, want both tests back", f2p)
	}
	if _, err := os.Stat(filepath.Join(ws, "tasks", "acme__calc-1", "tests", "known_failures.txt")); !os.IsNotExist(err) {
		t.Errorf("undo left the dropped test out of the reward (%v)", err)
	}
}

// TestMineGitIssuesFromGitHub mines local history and fetches the linked
// issues' text from a local server in GitHub's shapes: the statement
// comes from the issue, and a second mine asks the API nothing.
func TestMineGitIssuesFromGitHub(t *testing.T) {
	f := fakegithub.New(t)
	t.Setenv("GITHUB_TOKEN", "test-token")
	ws := newWorkspace(t)
	mine := func() string {
		code, _, e := cli(t, "-w", ws, "mine", "git", f.Project.Path, "--repo", "acme/calc", "--issues", "github", "--api-url", f.URL)
		if code != 0 {
			t.Fatalf("mine: %s", e)
		}
		return e
	}
	if e := mine(); !strings.Contains(e, "1 fetched") || !strings.Contains(e, "1 missing") {
		t.Errorf("first mine: %s", e)
	}
	if e := mine(); !strings.Contains(e, "0 fetched, 2 from the cache") || f.Count("issue 11") != 1 {
		t.Errorf("second mine asked again (%d requests for #11): %s", f.Count("issue 11"), e)
	}
	if code, _, e := cli(t, "-w", ws, "build", "acme__calc-1", "--base-image", "curate/base:bookworm"); code != 0 {
		t.Fatal(e)
	}
	if src := showTaskJSON(t, ws, "acme__calc-1")["instruction_source"]; src != "issue" {
		t.Errorf("instruction_source %v, want issue", src)
	}
	if md := readInstruction(t, ws); !strings.Contains(md, "Expected 0.5 from divide(1, 2).") {
		t.Errorf("instruction.md lacks the issue's text:\n%s", md)
	}
}

// TestEditHintsPerTask: hints tests lists the FAIL_TO_PASS tests in the
// task's instruction.md; back to the workspace's (none), they go.
func TestEditHintsPerTask(t *testing.T) {
	ws := builtCalc(t)
	if code, _, e := cli(t, "-w", ws, "edit", "acme__calc-1", "hints", "tests"); code != 0 {
		t.Fatal(e)
	}
	if md := readInstruction(t, ws); !strings.Contains(md, "## Hints") || !strings.Contains(md, "tests/test_ops.py::test_divide") {
		t.Errorf("hints tests: no Hints section:\n%s", md)
	}
	if code, _, e := cli(t, "-w", ws, "edit", "acme__calc-1", "hints", "everything"); code == 0 || !strings.Contains(e, "want none or tests") {
		t.Errorf("a bad hints value was accepted: %s", e)
	}
	if code, _, e := cli(t, "-w", ws, "edit", "acme__calc-1", "hints"); code != 0 {
		t.Fatal(e)
	}
	if md := readInstruction(t, ws); strings.Contains(md, "## Hints") {
		t.Errorf("the workspace's hints (none) still list the tests:\n%s", md)
	}
}

// TestBuildWritesInterfaceSection: a feature PR whose tests call new
// functions gets an Interface section with their signatures, in
// instruction.md and in the SWE-bench record's interface field; a
// curator's Requirements section goes to requirements.
func TestBuildWritesInterfaceSection(t *testing.T) {
	ws := newWorkspace(t)
	gp, err := fixtures.GoRepo(filepath.Join(t.TempDir(), "mathx"))
	if err != nil {
		t.Fatal(err)
	}
	if code, _, e := cli(t, "-w", ws, "mine", "git", gp.Path); code != 0 {
		t.Fatal(e)
	}
	if code, _, e := cli(t, "-w", ws, "build", "acme__mathx-2", "--base-image", "curate/base:bookworm"); code != 0 {
		t.Fatal(e)
	}
	dir := filepath.Join(ws, "tasks", "acme__mathx-2")
	md, _ := os.ReadFile(filepath.Join(dir, "instruction.md"))
	for _, sig := range []string{"## Interface", "func Mean(xs []int) float64", "func Spread(xs []int) int", "func AbsAll(xs []int) []int"} {
		if !strings.Contains(string(md), sig) {
			t.Errorf("instruction.md lacks %q:\n%s", sig, md)
		}
	}
	if strings.Contains(string(md), "min2") {
		t.Errorf("an unexported helper is in the Interface section:\n%s", md)
	}
	m := showTaskJSON(t, ws, "acme__mathx-2")
	if ds, _ := m["interface"].([]any); len(ds) != 3 {
		t.Errorf("show --json interface: %v", m["interface"])
	}
	editor := filepath.Join(t.TempDir(), "ed.sh")
	if err := os.WriteFile(editor, []byte("#!/bin/sh\nprintf 'Callers need the mean and spread of a sample.\\n\\n## Requirements\\n\\n- Mean of no numbers is 0.\\n' > \"$1\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("VISUAL", "")
	t.Setenv("EDITOR", editor)
	if code, _, e := cli(t, "-w", ws, "edit", "acme__mathx-2", "instruction"); code != 0 {
		t.Fatal(e)
	}
	var rec map[string]any
	data, _ := os.ReadFile(filepath.Join(dir, "swebench.json"))
	if err := json.Unmarshal(data, &rec); err != nil {
		t.Fatal(err)
	}
	if iface, _ := rec["interface"].(string); !strings.Contains(iface, "func Mean(xs []int) float64") {
		t.Errorf("swebench.json interface %q", rec["interface"])
	}
	if req, _ := rec["requirements"].(string); req != "- Mean of no numbers is 0." {
		t.Errorf("swebench.json requirements %q", rec["requirements"])
	}
	if ps, _ := rec["problem_statement"].(string); !strings.HasPrefix(ps, "Add Mean, Spread and AbsAll\n\nCallers need") || strings.Contains(ps, "Requirements") {
		t.Errorf("swebench.json problem_statement %q", ps)
	}
}
