package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Inputs that used to be accepted silently are refused with one message
// naming the input.
func TestStrangeInputIsRefused(t *testing.T) {
	ws := demoWorkspace(t)
	rows := t.TempDir()
	row := func(name, extra string) string {
		p := filepath.Join(rows, name)
		os.WriteFile(p, []byte(`{"instance_id": "x__y-1", "repo": "x/y", "base_commit": "abc", "problem_statement": "p"`+extra+"}\n"), 0o644)
		return p
	}
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"since after today", []string{"mine", "git", ".", "--since", "2100-01-01"}, "--since 2100-01-01 is after today"},
		{"until after today", []string{"mine", "git", ".", "--until", "2100-01-01"}, "--until 2100-01-01 is after today"},
		{"since after until", []string{"mine", "git", ".", "--since", "2024-06-01", "--until", "2024-01-01"}, "the range is empty"},
		{"github since after today", []string{"mine", "github", "acme/calc", "--since", "2100-01-01"}, "is after today"},
		{"repo with ..", []string{"import", "swebench", "--strict", row("dots.jsonl", `, "repo": "../../etc"`)}, `repo "../../etc": want OWNER/NAME`},
		{"PR number 0", []string{"import", "swebench", "--strict", row("zero.jsonl", `, "pull_number": 0`)}, "pull_number 0: a pull request number is 1 or more"},
		{"PR number -5", []string{"import", "swebench", "--strict", row("neg.jsonl", `, "pull_number": -5`)}, "pull_number -5"},
		{"duplicate quota key", []string{"select", "--quota", "language=go:min=1,min=5"}, "min is given twice"},
		{"env check at merge", []string{"env", "check", "--at", "merge", "acme/calc"}, "the check runs at a snapshot"},
		{"env check --cluster on docker", []string{"env", "check", "--cluster"}, "--cluster checks the cluster alone: it goes with --engine kubernetes"},
		{"env check --cluster with a repo", []string{"env", "check", "--cluster", "--engine", "kubernetes", "acme/calc"}, "and no repository"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, out, errs := cli(t, append([]string{"-w", ws}, c.args...)...)
			if code == 0 || !strings.Contains(out+errs, c.want) { // an import lists failed rows on stdout
				t.Fatalf("exit %d, stderr %q; want non-zero and %q", code, errs, c.want)
			}
		})
	}
}

// A NUL byte in any curate.toml string ([repos] test_command would land
// in test.sh) is refused naming the file, line and key.
func TestNULInConfigIsRefused(t *testing.T) {
	ws := newWorkspace(t)
	cfg := filepath.Join(ws, "curate.toml")
	data, _ := os.ReadFile(cfg)
	os.WriteFile(cfg, append(data, []byte("\n[repos.\"acme/calc\"]\ntest_command = \"pytest\\u0000; rm -rf /\"\n")...), 0o644)
	code, _, errs := cli(t, "-w", ws, "list")
	if code == 0 || !strings.Contains(errs, "curate.toml:") || !strings.Contains(errs, `repos.acme/calc.test_command: holds a NUL byte`) {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
}

// Invalid UTF-8 in a review comment is stored as its bytes and shown
// escaped, not replaced.
func TestInvalidUTF8CommentShownEscaped(t *testing.T) {
	ws := demoWorkspace(t)
	if code, _, errs := cli(t, "-w", ws, "label", "acme__calc-1", "--comment", "ok \xff\xfe bytes"); code != 0 {
		t.Fatal(errs)
	}
	_, out, _ := cli(t, "-w", ws, "show", "acme__calc-1")
	if !strings.Contains(out, `ok \xff\xfe bytes`) {
		t.Errorf("show: %q", out)
	}
}
