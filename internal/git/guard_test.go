package git

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// plain runs git as a user would, without curate's guard.
func plain(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=a", "GIT_AUTHOR_EMAIL=a@example.com",
		"GIT_COMMITTER_NAME=a", "GIT_COMMITTER_EMAIL=a@example.com", "GIT_TERMINAL_PROMPT=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

// armed is a repository with two commits, a dirty work tree and a
// .gitattributes that sends every file through filter "pwn" and diff
// driver "pwn"; config sets each command-running key to touch a marker.
type armed struct {
	dir, marks, upstream string
	t                    *testing.T
}

func newArmed(t *testing.T) *armed {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	root := t.TempDir()
	a := &armed{dir: filepath.Join(root, "repo"), marks: filepath.Join(root, "marks"), upstream: filepath.Join(root, "upstream"), t: t}
	os.Mkdir(a.marks, 0o755)
	plain(t, root, "init", "-q", "-b", "main", a.dir)
	os.WriteFile(filepath.Join(a.dir, ".gitattributes"), []byte("*.txt filter=pwn diff=pwn\n"), 0o644)
	os.WriteFile(filepath.Join(a.dir, "a.txt"), []byte("one\n"), 0o644)
	plain(t, a.dir, "add", ".")
	plain(t, a.dir, "commit", "-q", "-m", "one")
	os.WriteFile(filepath.Join(a.dir, "a.txt"), []byte("two\n"), 0o644)
	plain(t, a.dir, "commit", "-q", "-a", "-m", "two")
	signTip(t, a.dir)
	os.WriteFile(filepath.Join(a.dir, "a.txt"), []byte("three\n"), 0o644)
	plain(t, root, "init", "-q", "--bare", a.upstream)
	// gpg.program and core.gitProxy are run without a shell: scripts.
	script := func(name string) string {
		p := filepath.Join(root, name+".sh")
		os.WriteFile(p, []byte("#!/bin/sh\n"+a.touch(name)+"\n"), 0o755)
		return p
	}
	for _, h := range []string{"post-checkout", "post-index-change", "reference-transaction", "pre-auto-gc"} {
		os.WriteFile(filepath.Join(a.dir, ".git", "hooks", h), []byte("#!/bin/sh\n"+a.touch("hook-"+h)+"\n"), 0o755)
	}
	config := fmt.Sprintf(`[core]
	fsmonitor = %q
	gitProxy = %q
[filter "pwn"]
	smudge = "%s; cat"
	clean = "%s; cat"
	required = true
[diff "pwn"]
	textconv = "%s; cat"
[diff]
	external = %q
[log]
	showSignature = true
[gpg]
	program = %q
[credential]
	helper = "!%s"
[protocol "ext"]
	allow = always
[remote "up"]
	url = %s
	uploadpack = "%s; git-upload-pack"
[remote "ext"]
	url = "ext::sh -c %s"
`, a.touch("fsmonitor"), script("git-proxy"), a.touch("smudge"), a.touch("clean"), a.touch("textconv"),
		a.touch("diff-external"), script("gpg"), a.touch("credential"), a.upstream, a.touch("uploadpack"),
		strings.ReplaceAll(a.touch("ext"), " ", "% "))
	f, err := os.OpenFile(filepath.Join(a.dir, ".git", "config"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(config)
	f.Close()
	return a
}

// signTip adds a commit with a (fake) PGP signature on top of main, so a
// log that verifies signatures runs gpg.program.
func signTip(t *testing.T, dir string) {
	t.Helper()
	rev := func(r string) string {
		out, err := exec.Command("git", "-C", dir, "rev-parse", r).Output()
		if err != nil {
			t.Fatal(err)
		}
		return strings.TrimSpace(string(out))
	}
	body := "tree " + rev("HEAD^{tree}") + "\nparent " + rev("HEAD") +
		"\nauthor a <a@example.com> 1735689600 +0000\ncommitter a <a@example.com> 1735689600 +0000\n" +
		"gpgsig -----BEGIN PGP SIGNATURE-----\n \n iQEzBAABCAAdFiEE\n -----END PGP SIGNATURE-----\n\nsigned\n"
	cmd := exec.Command("git", "-C", dir, "hash-object", "-t", "commit", "-w", "--stdin")
	cmd.Stdin = strings.NewReader(body)
	sha, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	plain(t, dir, "update-ref", "refs/heads/main", strings.TrimSpace(string(sha)))
}

func (a *armed) touch(name string) string { return "touch " + filepath.Join(a.marks, name) }

// fired lists the markers present and removes them.
func (a *armed) fired() []string {
	entries, _ := os.ReadDir(a.marks)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
		os.Remove(filepath.Join(a.marks, e.Name()))
	}
	return names
}

// armedCalls are git calls that run the repository's commands under
// plain git: each with the markers it fires there.
func armedCalls(a *armed, httpURL string) []struct {
	args []string
	want string
} {
	return []struct {
		args []string
		want string
	}{
		{[]string{"status", "--short"}, "fsmonitor"},
		{[]string{"diff", "--stat"}, "clean"},
		{[]string{"diff", "--no-ext-diff", "HEAD~2", "HEAD~1"}, "textconv"},
		{[]string{"diff", "HEAD~2", "HEAD~1"}, "diff-external"},
		{[]string{"log", "--no-ext-diff", "-p", "-1", "--format=%H", "HEAD~1"}, "textconv"},
		{[]string{"log", "-1"}, "gpg"},
		{[]string{"archive", "--format=tar", "HEAD"}, "smudge"},
		{[]string{"checkout", "-q", "-f", "HEAD~1"}, "hook-post-checkout"},
		{[]string{"update-ref", "refs/heads/x", "HEAD"}, "hook-reference-transaction"},
		{[]string{"fetch", "-q", "up"}, "uploadpack"},
		{[]string{"fetch", "-q", "ext"}, "ext"},
		{[]string{"ls-remote", "git://127.0.0.1:1/x"}, "git-proxy"},
		{[]string{"ls-remote", httpURL}, "credential"},
	}
}

// TestRepositoryConfigRunsNothing: each call, run by plain git, fires a
// command the repository configured; run through Output, none fires.
func TestRepositoryConfigRunsNothing(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("WWW-Authenticate", `Basic realm="x"`)
		w.WriteHeader(http.StatusUnauthorized)
	}))
	defer srv.Close()
	a := newArmed(t)
	ctx := context.Background()
	for _, c := range armedCalls(a, srv.URL+"/x.git") {
		probe := newArmed(t)
		cmd := exec.Command("git", c.args...)
		cmd.Dir, cmd.Env = probe.dir, append(os.Environ(), "GIT_TERMINAL_PROMPT=0", "GIT_ALLOW_PROTOCOL=file:ext:git:http")
		cmd.Run()
		if got := strings.Join(probe.fired(), " "); !strings.Contains(got, c.want) {
			t.Fatalf("plain git %v fired %q, want %s: the attack is not armed", c.args, got, c.want)
		}
		Output(ctx, a.dir, c.args...) // many fail (refused transports): what counts is what ran
		if got := a.fired(); len(got) > 0 {
			t.Errorf("git %v ran the repository's %v", c.args, got)
		}
	}
}

// TestGuardKeepsWorkingCalls: the guard leaves the answers alone.
func TestGuardKeepsWorkingCalls(t *testing.T) {
	a := newArmed(t)
	ctx := context.Background()
	out, err := Output(ctx, a.dir, "diff", "HEAD~2", "HEAD~1")
	if err != nil || !strings.Contains(string(out), "-one\n+two\n") {
		t.Fatalf("diff: %v\n%s", err, out)
	}
	out, err = Output(ctx, a.dir, "show", "HEAD~2:a.txt")
	if err != nil || string(out) != "one\n" {
		t.Fatalf("show: %v %q", err, out)
	}
	// filter.pwn.required = true: the emptied filter is not required.
	out, err = Output(ctx, a.dir, "archive", "--format=tar", "HEAD~2")
	if err != nil || !strings.Contains(string(out), "one\n") {
		t.Fatalf("archive through a required filter: %v", err)
	}
	if err := Run(ctx, a.dir, nil, "fetch", "-q", "up"); err == nil || !strings.Contains(err.Error(), "transport 'file' not allowed") {
		t.Fatalf("fetch from a local remote with its own upload-pack: %v", err)
	}
	if err := Run(ctx, a.dir, nil, "fetch", "-q", "ext"); err == nil || !strings.Contains(err.Error(), "transport 'ext' not allowed") {
		t.Fatalf("ext transport: %v", err)
	}
	if len(a.fired()) > 0 {
		t.Fatal("a working call ran the repository's commands")
	}
	_, err = Output(ctx, filepath.Join(a.dir, "missing"), "log")
	if err == nil || !strings.HasPrefix(err.Error(), "git log: ") {
		t.Fatalf("missing folder: %v", err)
	}
}

// The user's own filters are emptied too (the repository's attributes
// choose them); the user's credential helpers survive the clearing of the
// repository's; a subsection may hold dots and "=".
func TestNeutralise(t *testing.T) {
	list := strings.Join([]string{
		"global", "file:/home/u/.gitconfig", "filter.lfs.smudge\ngit-lfs smudge -- %f",
		"global", "file:/home/u/.gitconfig", "credential.helper\ncache",
		"global", "file:/home/u/.gitconfig", "credential.https://example.com.helper\nstore",
		"local", "file:.git/config", "filter.a.b=c.clean\nsh evil",
		"local", "file:.git/config", "credential.helper\n!evil",
		"local", "file:/elsewhere/included", "core.alternaterefscommand\nevil",
		"command", "command line:", "filter.mine.smudge\ncat",
	}, "\x00") + "\x00"
	settings, protocols := neutralise(parseListing([]byte(list)))
	var got []string
	for _, s := range settings {
		got = append(got, s.key+"="+s.value)
	}
	want := []string{
		"filter.lfs.smudge=", "filter.lfs.clean=", "filter.lfs.process=", "filter.lfs.required=false",
		"filter.a.b=c.smudge=", "filter.a.b=c.clean=", "filter.a.b=c.process=", "filter.a.b=c.required=false",
		"core.alternateRefsCommand=true",
		"credential.helper=", "credential.helper=cache", "credential.https://example.com.helper=store",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("settings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if strings.Join(protocols, ":") != "file:https:http:ssh" {
		t.Errorf("protocols %v", protocols)
	}
	_, protocols = neutralise(parseListing([]byte("local\x00file:.git/config\x00remote.origin.uploadpack\x00")))
	if strings.Join(protocols, ":") != "https:http:ssh" {
		t.Errorf("a repository with its own upload-pack keeps %v", protocols)
	}
}

// A filter in the user's own ~/.gitconfig, picked by the repository's
// attributes, does not run either.
func TestUserFilterPickedByRepositoryRunsNothing(t *testing.T) {
	a := newArmed(t)
	home := t.TempDir()
	t.Setenv("HOME", home)
	os.WriteFile(filepath.Join(home, ".gitconfig"), []byte("[filter \"lfs\"]\n\tsmudge = \""+a.touch("user-filter")+"; cat\"\n"), 0o644)
	os.WriteFile(filepath.Join(a.dir, ".git", "info", "attributes"), []byte("* filter=lfs\n"), 0o644)
	if _, err := Output(context.Background(), a.dir, "archive", "--format=tar", "HEAD"); err != nil {
		t.Fatal(err)
	}
	if got := a.fired(); len(got) > 0 {
		t.Errorf("archive ran %v", got)
	}
}

// A guard kept from an earlier call does not outlive a change to the
// config: a filter added between two calls is emptied on the second.
func TestGuardFollowsConfigChanges(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "repo")
	plain(t, root, "init", "-q", dir)
	os.WriteFile(filepath.Join(dir, "a.txt"), []byte("one\n"), 0o644)
	plain(t, dir, "add", ".")
	plain(t, dir, "commit", "-q", "-m", "one")
	ctx := context.Background()
	if _, err := Output(ctx, dir, "archive", "--format=tar", "HEAD"); err != nil {
		t.Fatal(err)
	}
	marker := filepath.Join(root, "smudged")
	plain(t, dir, "config", "filter.late.smudge", "touch "+marker+"; cat")
	os.WriteFile(filepath.Join(dir, ".git", "info", "attributes"), []byte("* filter=late\n"), 0o644)
	if _, err := Output(ctx, dir, "archive", "--format=tar", "HEAD"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("a filter added after the first call ran on the second")
	}
}
