package cli

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"curate/internal/fixtures"
)

// hostileRepo arms a clone the way a stranger's tarball could: every
// config key, hook and attribute that makes git run a command touches a
// marker file in marks. It returns the names a run may not create.
func hostileRepo(t *testing.T, repo, marks string) []string {
	t.Helper()
	touch := func(name string) string { return "touch " + filepath.Join(marks, name) }
	gitDir := filepath.Join(repo, ".git")
	gpg := filepath.Join(gitDir, "gpg.sh") // gpg.program is run without a shell
	if err := os.WriteFile(gpg, []byte("#!/bin/sh\n"+touch("gpg")+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	config := fmt.Sprintf(`
[core]
	fsmonitor = %q
	alternateRefsCommand = %q
[filter "pwn"]
	smudge = "%s; cat"
	clean = "%s; cat"
	required = true
[diff "pwn"]
	textconv = "%s; cat"
	command = %q
[diff]
	external = %q
[log]
	showSignature = true
[gpg]
	program = %q
[credential]
	helper = "!%s"
`, touch("fsmonitor"), touch("alternate-refs"), touch("smudge"), touch("clean"), touch("textconv"),
		touch("diff-command"), touch("diff-external"), gpg, touch("credential"))
	f, err := os.OpenFile(filepath.Join(gitDir, "config"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(config); err != nil {
		t.Fatal(err)
	}
	f.Close()
	// Attributes from info/ reach every tree curate reads, old or new.
	if err := os.MkdirAll(filepath.Join(gitDir, "info"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(gitDir, "info", "attributes"), []byte("* filter=pwn diff=pwn\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	hooks := []string{"post-checkout", "post-index-change", "reference-transaction", "pre-auto-gc", "post-rewrite", "fsmonitor-watchman"}
	for _, h := range hooks {
		script := "#!/bin/sh\n" + touch("hook-"+h) + "\n"
		if err := os.WriteFile(filepath.Join(gitDir, "hooks", h), []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	marksWanted := []string{"fsmonitor", "alternate-refs", "smudge", "clean", "textconv", "diff-command", "diff-external", "gpg", "credential"}
	for _, h := range hooks {
		marksWanted = append(marksWanted, "hook-"+h)
	}
	// The armed config must work: plain git fires it (in a copy, so the
	// clone's index stays as a fresh clone's, without an fsmonitor token).
	probe := repo + "-probe"
	if out, err := exec.Command("cp", "-a", repo, probe).CombinedOutput(); err != nil {
		t.Fatalf("cp: %v %s", err, out)
	}
	if out, err := exec.Command("git", "-C", probe, "status", "--short").CombinedOutput(); err != nil {
		t.Fatalf("git status: %v %s", err, out)
	}
	os.RemoveAll(probe)
	if _, err := os.Stat(filepath.Join(marks, "fsmonitor")); err != nil {
		t.Fatalf("the armed fsmonitor does not fire under plain git: %v", err)
	}
	for _, n := range marksWanted {
		os.Remove(filepath.Join(marks, n))
	}
	return marksWanted
}

// signHead puts a (fake) signature on a new commit at the tip of main,
// so a log that verifies signatures calls gpg.program.
func signHead(t *testing.T, repo string) {
	t.Helper()
	run := func(stdin string, args ...string) string {
		cmd := exec.Command("git", append([]string{"-C", repo}, args...)...)
		cmd.Stdin = strings.NewReader(stdin)
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=a", "GIT_AUTHOR_EMAIL=a@example.com", "GIT_COMMITTER_NAME=a", "GIT_COMMITTER_EMAIL=a@example.com")
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("git %v: %v", args, err)
		}
		return strings.TrimSpace(string(out))
	}
	tree, parent := run("", "rev-parse", "HEAD^{tree}"), run("", "rev-parse", "HEAD")
	body := "tree " + tree + "\nparent " + parent +
		"\nauthor a <a@example.com> 1735689600 +0000\ncommitter a <a@example.com> 1735689600 +0000\n" +
		"gpgsig -----BEGIN PGP SIGNATURE-----\n \n iQEzBAABCAAdFiEE\n -----END PGP SIGNATURE-----\n\nsigned\n"
	sha := run(body, "hash-object", "-t", "commit", "-w", "--stdin")
	run("", "update-ref", "refs/heads/main", sha)
}

// TestHostileGitConfigRunsNothing mines and builds a clone whose git
// config, hooks and attributes each name a command: none may run.
func TestHostileGitConfigRunsNothing(t *testing.T) {
	ws := newWorkspace(t)
	py, err := fixtures.PythonRepo(filepath.Join(t.TempDir(), "calc"))
	if err != nil {
		t.Fatal(err)
	}
	signHead(t, py.Path)
	marks := t.TempDir()
	names := hostileRepo(t, py.Path, marks)
	fired := func(step string) {
		t.Helper()
		for _, n := range names {
			if _, err := os.Stat(filepath.Join(marks, n)); err == nil {
				t.Errorf("%s ran the repository's %s", step, n)
				os.Remove(filepath.Join(marks, n))
			}
		}
	}
	code, _, errOut := cli(t, "-w", ws, "mine", "git", py.Path)
	if code != 0 {
		t.Fatalf("mine: %s", errOut)
	}
	fired("mine git")
	code, out, errOut := cli(t, "-w", ws, "build", "--candidates", "--base-image", "curate/base:bookworm", "--json")
	if code != 0 || !strings.Contains(out, `"built"`) {
		t.Fatalf("build: exit %d: %s %s", code, out, errOut)
	}
	fired("build")
	code, out, errOut = cli(t, "-w", ws, "build", "--candidates", "--at", "snapshot", "--base-image", "curate/base:bookworm", "--json")
	if code != 0 {
		t.Fatalf("build --at snapshot: exit %d: %s %s", code, out, errOut)
	}
	fired("build --at snapshot")
}
