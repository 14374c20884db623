package e2e

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"testing"

	"curate/internal/fixtures"
)

// A submodule whose GitHub repository has a folder among the git dirs is
// filled from it, as a recursive clone would have it; one without stays
// empty.
func TestFillSubmodulesFromTheGitDirs(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	dirs := filepath.Join(root, "mirror")
	sub, _ := fixtures.NewGit(filepath.Join(dirs, "acme+urlparse", "repo"), "acme/urlparse")
	sub.Write(map[string]string{"urlparse.c": "int p;\n"})
	sub.Commit("v1")
	super, _ := fixtures.NewGit(filepath.Join(root, "super"), "acme/super")
	super.Write(map[string]string{"CMakeLists.txt": "\n"})
	super.Commit("init")
	super.Run("-c", "protocol.file.allow=always", "submodule", "add", "-q", filepath.Join(dirs, "acme+urlparse", "repo"), "third-party/urlparse")
	super.Run("-c", "protocol.file.allow=always", "submodule", "add", "-q", filepath.Join(dirs, "acme+urlparse", "repo"), "third-party/absent")
	super.Run("config", "-f", ".gitmodules", "submodule.third-party/urlparse.url", "https://github.com/acme/urlparse.git")
	super.Run("config", "-f", ".gitmodules", "submodule.third-party/absent.url", "https://github.com/acme/absent")
	super.Run("add", ".gitmodules")
	super.Commit("add submodules")
	if err := sub.Err(); err != nil {
		t.Fatal(err)
	}
	if err := super.Err(); err != nil {
		t.Fatal(err)
	}
	clone := filepath.Join(root, "clone")
	if out, err := exec.Command("git", "clone", "-q", filepath.Join(root, "super"), clone).CombinedOutput(); err != nil {
		t.Fatalf("clone: %v\n%s", err, out)
	}
	if got, want := FillSubmodules(ctx, clone, dirs), []string{"third-party/urlparse"}; !reflect.DeepEqual(got, want) {
		t.Errorf("filled %v, want %v", got, want)
	}
	if _, err := os.Stat(filepath.Join(clone, "third-party/urlparse/urlparse.c")); err != nil {
		t.Errorf("the submodule's file is not there: %v", err)
	}
}
