package patch

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"curate/internal/fixtures"
)

// nghttp2/nghttp2 (held out, thirteenth set): its CMake builds
// third-party/urlparse/urlparse.c, a git submodule, and git archive left
// the folder empty, so all six PRs failed to configure. A clone made with
// --recurse-submodules has the submodule's objects in .git/modules: its
// files at the commit the tree records go into the archive. A clone
// without them (a mirror) adds nothing.
func TestArchiveSubmodulesFromTheClone(t *testing.T) {
	ctx := context.Background()
	root := superWithSubmodule(t)

	recursive := filepath.Join(root, "clone")
	if out, err := exec.Command("git", "-c", "protocol.file.allow=always", "clone", "-q", "--recurse-submodules", filepath.Join(root, "super"), recursive).CombinedOutput(); err != nil {
		t.Fatalf("clone: %v\n%s", err, out)
	}
	tar := filepath.Join(t.TempDir(), "repo.tar")
	if err := Archive(ctx, recursive, "HEAD", tar); err != nil {
		t.Fatal(err)
	}
	got, err := ArchiveSubmodules(ctx, recursive, "HEAD", tar)
	if err != nil {
		t.Fatal(err)
	}
	want := []Submodule{{Path: "third-party/urlparse", Files: []string{"third-party/urlparse/urlparse.c"}}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("submodules %+v, want %+v", got, want)
	}
	if out, err := exec.Command("tar", "-xOf", tar, "third-party/urlparse/urlparse.c").CombinedOutput(); err != nil || string(out) != "int parse(void) { return 1; }\n" {
		t.Errorf("the archive's third-party/urlparse/urlparse.c = %q (%v), want the pinned commit's", out, err)
	}
	if out, _ := exec.Command("tar", "-tf", tar).Output(); !strings.Contains(string(out), "CMakeLists.txt") {
		t.Errorf("the superproject's files are gone from the archive:\n%s", out)
	}

	plain := filepath.Join(root, "mirror")
	if out, err := exec.Command("git", "clone", "-q", filepath.Join(root, "super"), plain).CombinedOutput(); err != nil {
		t.Fatalf("clone: %v\n%s", err, out)
	}
	tar2 := filepath.Join(t.TempDir(), "repo.tar")
	if err := Archive(ctx, plain, "HEAD", tar2); err != nil {
		t.Fatal(err)
	}
	if got, err := ArchiveSubmodules(ctx, plain, "HEAD", tar2); err != nil || len(got) != 0 {
		t.Errorf("a clone without the submodule: %+v, %v; want none", got, err)
	}
}

// superWithSubmodule makes, under a new root, "urlparse" (a repository
// whose second commit changes urlparse.c) and "super", which records
// urlparse's first commit at third-party/urlparse, named "urlparse".
func superWithSubmodule(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	sub, _ := fixtures.NewGit(filepath.Join(root, "urlparse"), "acme/urlparse")
	sub.Write(map[string]string{"urlparse.c": "int parse(void) { return 1; }\n"})
	sub.Commit("v1")
	pinned := sub.Run("rev-parse", "HEAD")
	sub.Write(map[string]string{"urlparse.c": "int parse(void) { return 2; }\n", "later.c": ""})
	sub.Commit("v2: not the commit the superproject records")
	super, _ := fixtures.NewGit(filepath.Join(root, "super"), "acme/super")
	super.Write(map[string]string{"CMakeLists.txt": "add_library(u third-party/urlparse/urlparse.c)\n"})
	super.Commit("init")
	super.Run("-c", "protocol.file.allow=always", "submodule", "add", "-q", "--name", "urlparse", filepath.Join(root, "urlparse"), "third-party/urlparse")
	super.Run("-C", "third-party/urlparse", "checkout", "-q", strings.TrimSpace(pinned))
	super.Run("add", "third-party/urlparse")
	super.Commit("add urlparse")
	if err := sub.Err(); err != nil {
		t.Fatal(err)
	}
	if err := super.Err(); err != nil {
		t.Fatal(err)
	}

	return root
}

// .gitmodules and the tree come from the PR's author: a submodule named
// to climb out of .git/modules is looked for under its path instead, and
// a folder that the hostile name points at is never read.
func TestArchiveSubmodulesRefusesHostileNames(t *testing.T) {
	ctx := context.Background()
	root := superWithSubmodule(t)
	if out, err := exec.Command("git", "-c", "protocol.file.allow=always", "clone", "-q", "--recurse-submodules", filepath.Join(root, "super"), filepath.Join(root, "clone")).CombinedOutput(); err != nil {
		t.Fatalf("clone: %v\n%s", err, out)
	}
	// .git/modules/../../outside is the clone's own folder "outside": a
	// copy of the submodule's objects, so reading it would succeed.
	if out, err := exec.Command("cp", "-r", filepath.Join(root, "clone", ".git", "modules", "urlparse"), filepath.Join(root, "clone", "outside")).CombinedOutput(); err != nil {
		t.Fatalf("cp: %v\n%s", err, out)
	}
	if out, err := exec.Command("git", "config", "--file", filepath.Join(root, "clone", "outside", "config"), "--unset", "core.worktree").CombinedOutput(); err != nil {
		t.Fatalf("unset core.worktree: %v\n%s", err, out)
	}
	gitmodules := "[submodule \"../../outside\"]\n\tpath = third-party/urlparse\n\turl = ../urlparse\n"
	if err := os.WriteFile(filepath.Join(root, "clone", ".gitmodules"), []byte(gitmodules), 0o644); err != nil {
		t.Fatal(err)
	}
	commit := exec.Command("git", "-C", filepath.Join(root, "clone"), "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qam", "rename the submodule")
	if out, err := commit.CombinedOutput(); err != nil {
		t.Fatalf("commit: %v\n%s", err, out)
	}
	tar := filepath.Join(t.TempDir(), "repo.tar")
	if err := Archive(ctx, filepath.Join(root, "clone"), "HEAD", tar); err != nil {
		t.Fatal(err)
	}
	if got, err := ArchiveSubmodules(ctx, filepath.Join(root, "clone"), "HEAD", tar); err != nil || len(got) != 0 {
		t.Errorf("a submodule named ../../outside: %+v, %v; want none read", got, err)
	}
	if out, _ := exec.Command("tar", "-tf", tar).Output(); strings.Contains(string(out), "urlparse.c") {
		t.Errorf("the archive has the submodule's files from the hostile name's folder:\n%s", out)
	}
}

func TestSafeSubmodulePath(t *testing.T) {
	for p, want := range map[string]bool{
		"third-party/urlparse": true, "tests/munit": true, "a.b/c_d+e": true,
		"../outside": false, "a/../../b": false, "..": false, "/etc": false, "a//b": false,
		"a b": false, "a\nb": false, "$(rm -rf x)": false, "a;b": false, "": false, "a/": false,
	} {
		if got := SafeSubmodulePath(p); got != want {
			t.Errorf("SafeSubmodulePath(%q) = %v, want %v", p, got, want)
		}
	}
}

// A held-out C library (vstakhov/libucl set 19): the clone's
// .git/modules copy had the commit the tree records but not all its
// blobs, `git archive` stopped at "invalid object", and `curate build`
// exited 1 with nothing recorded on the task. Such a copy is left out
// like a missing one, and says why.
func TestArchiveSubmodulesLeavesOutAnIncompleteCopy(t *testing.T) {
	ctx := context.Background()
	root := superWithSubmodule(t)
	clone := filepath.Join(root, "clone")
	if out, err := exec.Command("git", "-c", "protocol.file.allow=always", "clone", "-q", "--recurse-submodules", filepath.Join(root, "super"), clone).CombinedOutput(); err != nil {
		t.Fatalf("clone: %v\n%s", err, out)
	}
	gitDir := filepath.Join(clone, ".git", "modules", "urlparse")
	git := func(args ...string) string {
		out, err := exec.Command("git", append([]string{"--git-dir=" + gitDir}, args...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	blob := git("rev-parse", "HEAD:urlparse.c") // the submodule's HEAD: the commit the super records
	// Every object loose, then the blob removed: the commit and its tree stay.
	packs, _ := filepath.Glob(filepath.Join(gitDir, "objects", "pack", "*.pack"))
	for _, p := range packs {
		moved := p + ".moved"
		if err := os.Rename(p, moved); err != nil {
			t.Fatal(err)
		}
		f, _ := os.Open(moved)
		cmd := exec.Command("git", "--git-dir="+gitDir, "unpack-objects", "-q")
		cmd.Stdin = f
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("unpack: %v\n%s", err, out)
		}
		f.Close()
		os.Remove(moved)
		os.Remove(strings.TrimSuffix(p, ".pack") + ".idx")
	}
	if err := os.Remove(filepath.Join(gitDir, "objects", blob[:2], blob[2:])); err != nil {
		t.Fatal(err)
	}

	tar := filepath.Join(t.TempDir(), "repo.tar")
	if err := Archive(ctx, clone, "HEAD", tar); err != nil {
		t.Fatal(err)
	}
	got, err := ArchiveSubmodules(ctx, clone, "HEAD", tar)
	if err != nil {
		t.Fatalf("an incomplete submodule copy failed the archive: %v", err)
	}
	if len(got) != 1 || got[0].Path != "third-party/urlparse" || len(got[0].Files) != 0 || got[0].LeftOut == "" {
		t.Fatalf("submodules %+v, want third-party/urlparse left out with a reason", got)
	}
	if out, _ := exec.Command("tar", "-tf", tar).Output(); !strings.Contains(string(out), "CMakeLists.txt") || strings.Contains(string(out), "urlparse.c") {
		t.Errorf("the archive should hold the superproject and nothing of the submodule:\n%s", out)
	}
}
