package cli

import (
	"path/filepath"
	"strings"
	"testing"

	"curate/internal/fixtures"
	"curate/internal/testenv"
)

// TestEnvCheckFitsItsBudget: the check runs only the test files the mined
// PRs change (a failing file no PR touches is not run), and a suite that
// outlasts [env_check] budget keeps the results it has: the file that gave
// none is named, its PR builds at the merge commit, and the PR whose file
// did give results mirrors onto the snapshot. Before, the check ran every
// test file for a fixed 20 minutes and a check cut short recorded "the
// suite did not run" and nothing else (a Java library's check did not
// finish in 20 minutes; every PR then built at its merge commit).
func TestEnvCheckFitsItsBudget(t *testing.T) {
	base := testenv.BaseImage(t)
	py, err := fixtures.PythonRepo(filepath.Join(t.TempDir(), "calc"))
	if err != nil {
		t.Fatal(err)
	}
	addOnMain(t, py.Path, map[string]string{
		"tests/test_untouched.py": "def test_fails():\n    assert False, 'no PR changes this file'\n",
		"tests/test_ops.py": readFile(t, filepath.Join(py.Path, "tests/test_ops.py")) +
			"\n\ndef test_zz_slow():\n    import time\n    time.sleep(600)\n",
	})
	ws := checkWorkspace(t, base, "budget = \"30s\"\n")
	code, out, errs := mineAndCheck(t, ws, py.Path)
	if code != 0 {
		t.Fatalf("env check: exit %d, want 0 (the results it has pass)\n%s%s", code, out, errs)
	}
	if !strings.Contains(out, "ok 4/4") || !strings.Contains(out, "stopped at its 30s budget with 1 of 2 test files left out") {
		t.Errorf("env check output:\n%s", out)
	}
	_, show, _ := cli(t, "-w", ws, "repo", "show", "acme/calc", "--json")
	for _, want := range []string{`"scope": "touched"`, `"files": 2`, `"timed_out": true`, `"left_out": [`} {
		if !strings.Contains(show, want) {
			t.Errorf("repo show --json lacks %s:\n%s", want, show)
		}
	}
	if _, after, _ := strings.Cut(show, `"left_out": [`); !strings.HasPrefix(strings.TrimSpace(after), `"tests/test_percent.py"`) {
		t.Errorf("left_out does not name tests/test_percent.py:\n%s", show)
	}
	code, out, errs = cli(t, "-w", ws, "build", "acme__calc-1", "acme__calc-2")
	if code != 0 {
		t.Fatalf("build: %d\n%s%s", code, out, errs)
	}
	lines := strings.Split(out, "\n")
	if b := blockOf(lines, "acme__calc-1"); !strings.Contains(b, "snapshot") {
		t.Errorf("acme__calc-1 did not mirror:\n%s", out)
	}
	if b := blockOf(lines, "acme__calc-2"); !strings.Contains(b, "auto: its test file tests/test_percent.py gave no result before the env check's 30s budget ran out: built at the merge commit") {
		t.Errorf("acme__calc-2:\n%s", out)
	}
}
