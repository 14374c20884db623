package patch

import (
	"context"
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
