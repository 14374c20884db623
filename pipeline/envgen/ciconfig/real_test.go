package ciconfig

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"curate/pipeline/envgen"
)

// bundleTree is a ../shared/repos bundle's tree at its HEAD, read with git.
func bundleTree(t *testing.T, name string) *envgen.Tree {
	t.Helper()
	bundle, _ := filepath.Abs(filepath.Join("..", "..", "..", "..", "shared", "repos", name+".bundle"))
	if _, err := os.Stat(bundle); err != nil {
		t.Skipf("no %s: real-repository tests need ../shared/repos beside the project", bundle)
	}
	dir := filepath.Join(t.TempDir(), "repo.git")
	if out, err := exec.Command("git", "clone", "-q", "--bare", bundle, dir).CombinedOutput(); err != nil {
		t.Fatalf("git clone: %v\n%s", err, out)
	}
	out, err := exec.Command("git", "-C", dir, "ls-tree", "-r", "--name-only", "HEAD").Output()
	if err != nil {
		t.Fatal(err)
	}
	return envgen.NewTree(name, "", strings.Split(strings.TrimSpace(string(out)), "\n"), func(p string) ([]byte, error) {
		return exec.Command("git", "-C", dir, "show", "HEAD:"+p).Output()
	})
}

// TestReadSharedRepos reads the CI of real repositories: a plain job
// (javapoet), a matrix whose runner is a matrix key (cobra: ubuntu and
// macOS, Go 1.17-1.24: the newest of the tied entries), rustup in a run
// step of the job that tests (bytes, not its cross or nightly jobs), a
// tox-driven test job beside a typing job (attrs).
func TestReadSharedRepos(t *testing.T) {
	cases := []struct {
		repo, tool, version, source, test string
	}{
		{"square+javapoet", Java, "8", ".github/workflows/build.yml job build setup-java", "mvn --no-transfer-progress verify source:jar javadoc:jar"},
		{"spf13+cobra", Go, "1.24.x", ".github/workflows/test.yml job test-unix setup-go", "RICHGO_FORCE_COLOR=1 PATH=$HOME/go/bin/:$PATH make richtest"},
		{"tokio-rs+bytes", Rust, "stable", ".github/workflows/ci.yml job stable run rustup", "ci/test-stable.sh test"},
		{"jshttp+cookie", Node, "22", ".github/workflows/ci.yml job test setup-node", "npm test"},
		{"python-attrs+attrs", Python, "file:.python-version-default", ".github/workflows/ci.yml job lint setup-python", "uv run --only-group tox tox run -e $PYTHON-mypy"},
	}
	for _, tc := range cases {
		t.Run(tc.repo, func(t *testing.T) {
			c := Read(bundleTree(t, tc.repo))
			v, src, ok := c.Version(tc.tool)
			if !ok || v != tc.version || src != tc.source {
				t.Errorf("%s version %q from %q, want %q from %q (all: %v)", tc.tool, v, src, tc.version, tc.source, c.Versions)
			}
			if len(c.Tests) == 0 || c.Tests[0].Value != tc.test {
				t.Errorf("test commands %v, want first %q", c.Tests, tc.test)
			}
		})
	}
}
