package envgen_test

import (
	"context"
	"curate/pipeline/envgen"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestSuiteDirLeavesBenchmarksOut: attrs keeps benchmarks in
// bench/test_benchmarks.py, marked for pytest-codspeed, which the suite
// does not install; collected, they stop pytest before any test runs (the
// env check read 0 of 1). The check's test.sh leaves them out and lets
// pytest go on past a file that does not collect.
func TestSuiteDirLeavesBenchmarksOut(t *testing.T) {
	bundle, _ := filepath.Abs(filepath.Join("..", "..", "..", "shared", "repos", "python-attrs+attrs.bundle"))
	if _, err := os.Stat(bundle); err != nil {
		t.Skipf("no %s: real-repository tests need ../shared/repos beside the project", bundle)
	}
	clone := filepath.Join(t.TempDir(), "attrs")
	if out, err := exec.Command("git", "clone", "-q", bundle, clone).CombinedOutput(); err != nil {
		t.Fatalf("clone: %v\n%s", err, out)
	}
	dir := t.TempDir()
	if _, _, err := envgen.SuiteDir(context.Background(), "python-attrs/attrs", clone, "HEAD", dir, nil, envgen.Config{}); err != nil {
		t.Fatal(err)
	}
	script, err := os.ReadFile(filepath.Join(dir, "tests", "test.sh"))
	if err != nil {
		t.Fatal(err)
	}
	s := string(script)
	if !strings.Contains(s, "--ignore='bench'") {
		t.Errorf("test.sh runs the benchmarks:\n%s", s)
	}
	if !strings.Contains(s, "--continue-on-collection-errors") {
		t.Errorf("test.sh stops at the first file that does not collect:\n%s", s)
	}
}
