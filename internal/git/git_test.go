package git

import (
	"context"
	"os/exec"
	"strings"
	"testing"
)

func TestEnvironmentAndErrors(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	ctx := context.Background()
	dir := t.TempDir()
	if _, err := Output(ctx, dir, "init", "-q"); err != nil {
		t.Fatal(err)
	}
	// The C locale and no pager, whatever the caller's environment says.
	out, err := Output(ctx, dir, "var", "GIT_PAGER")
	if err != nil || strings.TrimSpace(string(out)) != "cat" {
		t.Fatalf("GIT_PAGER = %q, %v", out, err)
	}
	_, err = Output(ctx, dir, "-c", "core.quotepath=off", "log", "-1")
	if err == nil || !strings.HasPrefix(err.Error(), "git log: ") || !strings.Contains(err.Error(), "does not have any commits") {
		t.Fatalf("error %v: want git log: and git's English stderr", err)
	}
	// A clone that needs credentials fails at once instead of prompting.
	err = Run(ctx, dir, nil, "ls-remote", "https://127.0.0.1:1/none.git")
	if err == nil || !strings.HasPrefix(err.Error(), "git ls-remote: ") {
		t.Fatalf("ls-remote: %v", err)
	}
}

func TestSubcommand(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-C", "/x", "cat-file", "--batch"}, "cat-file"},
		{[]string{"-c", "core.quotepath=off", "-c", "a=b", "diff", "x"}, "diff"},
		{[]string{"--no-pager"}, "git"},
	} {
		if got := Subcommand(c.args); got != c.want {
			t.Errorf("Subcommand(%q) = %q, want %q", c.args, got, c.want)
		}
	}
}
