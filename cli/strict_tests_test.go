package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestStrictTestsOnARealPR: cobra's PR 2397 checks the error text
// "duplicate argument … for …" in a helper two of its tests call. The
// generated statement gives it (Requirements); a curator's statement with
// a Requirements section of its own that leaves it out makes the task
// strict_tests, naming both tests; `edit ID requirements` adds it back;
// undo brings the flag back.
func TestStrictTestsOnARealPR(t *testing.T) {
	clone := cloneBundle(t, "spf13+cobra")
	ws := newWorkspace(t)
	if code, _, e := cli(t, "-w", ws, "mine", "git", clone, "--repo", "spf13/cobra", "--preset", "none"); code != 0 {
		t.Fatal(e)
	}
	const id = "spf13__cobra-2397"
	if code, _, e := cli(t, "-w", ws, "build", id); code != 0 {
		t.Fatal(e)
	}
	const value = "duplicate argument … for …"
	tests := []string{"TestNoDuplicateArgs_WithDuplicateArgs", "TestNoDuplicateArgs_WithValid_WithDuplicateArgs"}
	strict := func(step string, want bool) {
		t.Helper()
		m := showTaskJSON(t, ws, id)
		got := jsonText(m["strict_tests"])
		flagged := strings.Contains(jsonText(m["statement_flags"]), "strict_tests")
		if flagged != want || want != strings.Contains(got, value) {
			t.Fatalf("%s: strict_tests %s, flags %s; want strict %v", step, got, jsonText(m["statement_flags"]), want)
		}
		for _, n := range tests {
			if want && !strings.Contains(got, `"`+n+`"`) {
				t.Errorf("%s: strict_tests %s lacks %s", step, got, n)
			}
		}
	}
	m := showTaskJSON(t, ws, id)
	if r := jsonText(m["requirements"]); !strings.Contains(r, value) || !strings.Contains(r, tests[0]) {
		t.Fatalf("requirements %s: want %q checked by %s", r, value, tests[0])
	}
	strict("generated statement", false)

	editor := filepath.Join(t.TempDir(), "ed.sh")
	if err := os.WriteFile(editor, []byte("#!/bin/sh\nprintf 'Refuse repeated arguments.\\n\\n## Requirements\\n\\n- an error names the argument\\n' > \"$1\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("VISUAL", "")
	t.Setenv("EDITOR", editor)
	if code, _, e := cli(t, "-w", ws, "edit", id, "instruction"); code != 0 {
		t.Fatal(e)
	}
	strict("curator's section without the value", true)
	if code, out, _ := cli(t, "-w", ws, "show", id); code != 0 || !strings.Contains(out, "strict test") || !strings.Contains(out, tests[0]) {
		t.Errorf("show does not list the strict test:\n%s", out)
	}

	if code, _, e := cli(t, "-w", ws, "edit", id, "requirements"); code != 0 {
		t.Fatal(e)
	}
	strict("after edit requirements", false)
	md, err := os.ReadFile(filepath.Join(ws, "tasks", id, "instruction.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(md), "- an error names the argument\n- an error message the tests check contains `"+value+"`") {
		t.Errorf("the value is not added to the curator's Requirements:\n%s", md)
	}
	if code, _, e := cli(t, "-w", ws, "undo"); code != 0 {
		t.Fatal(e)
	}
	strict("after undo", true)
	if code, _, e := cli(t, "-w", ws, "edit", id, "requirements"); code != 0 {
		t.Fatal(e)
	}
	if code, _, e := cli(t, "-w", ws, "edit", id, "requirements"); code == 0 || !strings.Contains(e, "no strict_tests") {
		t.Errorf("a second add: exit %d, %q; want a refusal", code, e)
	}
}

// jsonText is v as JSON text, to look for values in.
func jsonText(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
