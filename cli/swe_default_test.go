package cli

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"curate/internal/testenv"
)

// TestNewWorkspaceExportsNoCCBWording is a researcher's own benchmark from
// a fresh `curate init` with no profile flag: mine a small real repository
// (jshttp/mime-types), build and validate two of its PRs, select and
// export. The
// workspace runs on the neutral swe profile, so the Harbor dataset is
// named after the workspace's folder and no exported file speaks of
// CodeContextBench or an MCP score.
func TestNewWorkspaceExportsNoCCBWording(t *testing.T) {
	testenv.RequireCommand(t, "git")
	bundle := sharedBundle(t, "jshttp+mime-types")
	base := testenv.BaseImage(t) // fails, not skips, under CURATE_REQUIRE_DOCKER=1
	dir := t.TempDir()
	clone := filepath.Join(dir, "mime-types")
	for _, args := range [][]string{{"clone", "-q", bundle, clone}, {"-C", clone, "remote", "set-url", "origin", "https://github.com/jshttp/mime-types.git"}} {
		if out, err := exec.Command("git", args...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	ws := filepath.Join(dir, "my-bench")
	if code, out, errs := cli(t, "init", ws); code != 0 || !strings.Contains(out, "(profile swe)") {
		t.Fatalf("init: %d\n%s%s", code, out, errs)
	}
	t.Cleanup(func() { cli(t, "-w", ws, "env", "prune") })
	cfg, err := os.ReadFile(filepath.Join(ws, "curate.toml"))
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Replace(string(cfg), "[docker]\n", "[docker]\nbase_image = \""+base+"\"\n", 1)
	if err := os.WriteFile(filepath.Join(ws, "curate.toml"), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	steps := [][]string{
		{"mine", "git", clone, "--repo", "jshttp/mime-types", "--preset", "none"},
		{"build", "jshttp__mime-types-119", "jshttp__mime-types-140"},
		{"validate", "jshttp__mime-types-119", "jshttp__mime-types-140"},
	}
	for _, args := range steps {
		if code, out, errs := cli(t, append([]string{"-w", ws}, args...)...); code != 0 && args[0] != "validate" {
			t.Fatalf("%v: exit %d\n%s%s", args, code, out, errs)
		}
	}
	// Only valid tasks may ship; the others leave the candidate pool.
	if code, out, errs := cli(t, "-w", ws, "label", "--filter", "status!=valid", "--exclude", "--allow-empty"); code != 0 {
		t.Fatalf("label: %d\n%s%s", code, out, errs)
	}
	code, out, errs := cli(t, "-w", ws, "select", "--selection", "mine", "--budget", "2", "--json")
	if code != 0 {
		t.Fatalf("select: %d\n%s%s", code, out, errs)
	}
	if !strings.Contains(out, "balanced: ") {
		t.Errorf("the selection does not use swe's balanced strategy:\n%s", out)
	}
	outDir := filepath.Join(dir, "out")
	for _, format := range []string{"harbor", "swebench"} {
		if code, out, errs := cli(t, "-w", ws, "export", "--format", format, "--selection", "mine", "--out", filepath.Join(outDir, format)); code != 0 {
			t.Fatalf("export %s: %d\n%s%s", format, code, out, errs)
		}
	}
	dataset, err := os.ReadFile(filepath.Join(outDir, "harbor", "dataset.toml"))
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`(?m)^name = ['"]my-bench/mine['"]`).Match(dataset) {
		t.Errorf("dataset not named after the workspace:\n%s", dataset)
	}
	ccb := regexp.MustCompile(`(?i)ccb|codecontextbench|mcp`)
	files := 0
	err = filepath.Walk(outDir, func(p string, fi os.FileInfo, err error) error {
		if err != nil || fi.IsDir() || filepath.Ext(p) == ".crt" { // base64 may spell anything
			return err
		}
		files++
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if m := ccb.Find(data); m != nil {
			t.Errorf("%s speaks of %q", p, m)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var registry []map[string]any
	data, _ := os.ReadFile(filepath.Join(outDir, "harbor", "registry.json"))
	if err := json.Unmarshal(data, &registry); err != nil || len(registry) != 1 || files < 5 {
		t.Fatalf("export: %d files, registry %v (%v)", files, registry, err)
	}
}

// sharedBundle is ../shared/repos/<name>.bundle beside the project (or
// under $CURATE_SHARED_REPOS); missing, it skips, or fails under
// CURATE_REQUIRE_DOCKER=1 where CI provides the bundles.
func sharedBundle(t *testing.T, name string) string {
	t.Helper()
	repos := os.Getenv("CURATE_SHARED_REPOS")
	if repos == "" {
		repos = filepath.Join("..", "..", "shared", "repos")
	}
	bundle, err := filepath.Abs(filepath.Join(repos, name+".bundle"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(bundle); err != nil {
		if os.Getenv("CURATE_REQUIRE_DOCKER") == "1" {
			t.Fatalf("CURATE_REQUIRE_DOCKER=1 but %s is missing: %v", bundle, err)
		}
		t.Skipf("no %s: real-repository tests need ../shared/repos beside the project", bundle)
	}
	return bundle
}
