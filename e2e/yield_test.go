package e2e

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"curate/internal/testenv"
	"curate/pipeline"
	"curate/pipeline/validate"
)

// handful are the PRs CI runs end to end: the newest qualifying PRs of
// two repositories, so a cold machine pays for two environments per repo.
var handful = map[string]int{"spf13/cobra": 2, "pallets/click": 2}

// TestYieldRealPRs mines real repositories with --preset none, builds the
// PRs that change tests and source with the defaults, validates them with
// nop,oracle,gold and no [repos] profile, prints the funnel, and checks
// that every PR reached a verdict a curator can act on: valid, or invalid
// with a named failure class (never unclassified), or a refused build
// with its reason.
//
// By default it runs the handful above. CURATE_YIELD=all runs every
// repository in ../shared/repos (PRs since 2023-01-01, or the 20 newest);
// CURATE_YIELD=owner/name[,owner/name] runs those in full.
// CURATE_YIELD_LIMIT=N caps the PRs per repository (the newest N).
// CURATE_YIELD_TABLE=FILE writes the funnel table of docs/dev/yield.md there.
// CURATE_YIELD_GITDIRS=DIR adds repositories from git folders (Bundles);
// CURATE_YIELD_WORKSPACE=DIR keeps the workspace there.
// CURATE_YIELD_AT=merge|snapshot|auto builds with that strategy (also in
// BenchmarkYield20PRs: run it once with each to compare them).
func TestYieldRealPRs(t *testing.T) {
	root, bundles := requireBundles(t)
	defaultBase(t)
	plan := yieldPlan(t, bundles)
	bin := curateBinary(t, root)
	ctx := context.Background()
	c := &Curate{Bin: bin, Workspace: filepath.Join(t.TempDir(), "ws")}
	keep := os.Getenv("CURATE_YIELD_WORKSPACE") // kept, with its images, to read afterwards
	if keep != "" {
		c.Workspace = keep
	}
	if out, err := exec.Command(bin, "init", c.Workspace).CombinedOutput(); err != nil {
		t.Fatalf("curate init: %v\n%s", err, out)
	}
	if keep == "" {
		t.Cleanup(func() { c.Run(context.Background(), "env", "prune") })
	}

	var rows []string
	repos := make([]string, 0, len(plan))
	for r := range plan {
		repos = append(repos, r)
	}
	sort.Strings(repos)
	for _, repo := range repos {
		clone := filepath.Join(t.TempDir(), strings.ReplaceAll(repo, "/", "+"))
		if err := CloneBundle(ctx, bundles[repo], repo, clone); err != nil {
			t.Fatal(err)
		}
		if dir := os.Getenv("CURATE_YIELD_GITDIRS"); dir != "" {
			if subs := FillSubmodules(ctx, clone, dir); len(subs) > 0 {
				t.Logf("%s: submodules from %s, as a clone made with --recurse-submodules has them: %s", repo, dir, strings.Join(subs, ", "))
			}
		}
		ids, err := MineQualifying(ctx, c, clone, plan[repo])
		if err != nil {
			t.Fatal(err)
		}
		if len(ids) == 0 {
			t.Errorf("%s: no merged PR changes tests and source", repo)
			continue
		}
		y, err := RunYield(ctx, c, repo, ids)
		if err != nil {
			t.Fatal(err)
		}
		out, err := c.Run(ctx, "funnel", "--repo", repo)
		if err != nil {
			t.Fatal(err)
		}
		if y.EnvCheck != "" {
			t.Logf("%s: the environment check failed (each PR builds at its merge commit): %s", repo, y.EnvCheck)
		}
		t.Logf("%s: %d PRs in %s\n%s", repo, len(ids), y.Wall.Round(time.Second), out)
		for _, id := range ids {
			if f := y.Tasks[id].Failure; f != nil {
				t.Logf("  %s %s: %s | %s", id, f.Class, f.Evidence, f.Suggestion)
			}
		}
		if bad := y.Unsettled(); len(bad) > 0 {
			t.Errorf("%s: %d PRs reached no class: %s", repo, len(bad), strings.Join(bad, "; "))
		}
		goldAloneAgrees(t, c, y)
		rows = append(rows, y.Row())
	}
	table := TableHeader + "\n" + strings.Join(rows, "\n") + "\n"
	t.Logf("funnel table:\n%s", table)
	if path := os.Getenv("CURATE_YIELD_TABLE"); path != "" {
		if err := os.WriteFile(path, []byte(table), 0o644); err != nil {
			t.Error(err)
		}
	}
}

// yieldPlan says how many PRs of which repositories to run (0 = all
// qualifying).
func yieldPlan(t *testing.T, bundles map[string]string) map[string]int {
	plan := map[string]int{}
	switch v := os.Getenv("CURATE_YIELD"); v {
	case "":
		for r, n := range handful {
			plan[r] = n
		}
	case "all":
		for r := range bundles {
			plan[r] = 0
		}
	default:
		for _, r := range strings.Split(v, ",") {
			plan[strings.TrimSpace(r)] = 0
		}
	}
	limit := 0
	if v := os.Getenv("CURATE_YIELD_LIMIT"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			t.Fatalf("CURATE_YIELD_LIMIT=%q: want a positive number", v)
		}
		limit = n
	}
	for r, n := range plan {
		if bundles[r] == "" {
			t.Fatalf("no bundle of %s in ../shared/repos", r)
		}
		if limit > 0 && (n == 0 || n > limit) {
			plan[r] = limit
		}
	}
	return plan
}

// requireBundles skips, saying why, when ../shared/repos is absent.
func requireBundles(t testing.TB) (string, map[string]string) {
	t.Helper()
	root, err := ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	bundles, err := Bundles(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(bundles) == 0 && os.Getenv("CURATE_REQUIRE_KUBE") == "1" {
		t.Fatalf("CURATE_REQUIRE_KUBE=1 but %s holds no repository bundle: the real tasks on the cluster need them", filepath.Join(root, "..", "shared", "repos"))
	}
	if len(bundles) == 0 {
		t.Skipf("no repository bundles in %s: the real-repository yield needs ../shared/repos beside the project", filepath.Join(root, "..", "shared", "repos"))
	}
	return root, bundles
}

var (
	binOnce sync.Once
	binPath string
	binErr  error
)

// curateBinary builds the curate binary once per test process.
func curateBinary(t testing.TB, root string) string {
	t.Helper()
	binOnce.Do(func() {
		dir, err := os.MkdirTemp("", "curate-e2e-")
		if err != nil {
			binErr = err
			return
		}
		binPath = filepath.Join(dir, "curate")
		cmd := exec.Command("go", "build", "-o", binPath, ".")
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			binErr = err
			binPath = string(out)
		}
	})
	if binErr != nil {
		t.Fatalf("go build: %v\n%s", binErr, binPath)
	}
	return binPath
}

// defaultBase makes sure the default base image exists without a second
// debootstrap on a fresh machine: when it is missing, the test base image
// (the same bootstrap of the same packages, cached for every Docker test)
// takes its tag, as validation would otherwise make it on first use.
func defaultBase(t testing.TB) {
	t.Helper()
	cli := testenv.RequireDocker(t)
	ctx := context.Background()
	if _, err := cli.ImageInspect(ctx, validate.DefaultBaseImage); err == nil {
		return
	}
	if !samePackages(testenv.BasePackages, validate.DefaultBasePackages) {
		return // validation makes the default base itself
	}
	if err := cli.ImageTag(ctx, testenv.BaseImage(t), validate.DefaultBaseImage); err != nil {
		t.Fatalf("tag the test base image as %s: %v", validate.DefaultBaseImage, err)
	}
}

func samePackages(a, b []string) bool {
	set := map[string]bool{}
	for _, p := range a {
		set[p] = true
	}
	for _, p := range b {
		if !set[p] {
			return false
		}
	}
	return len(set) == len(b)
}

// goldAloneAgrees validates the repository's valid tasks again with gold
// alone, which runs the buggy and fixed states itself (as every task did
// before a batch shared NOP's and Oracle's executions): its lists must be
// the ones the shared batch gave.
func goldAloneAgrees(t *testing.T, c *Curate, y *Yield) {
	t.Helper()
	var valid []string
	for _, id := range y.IDs {
		if y.Tasks[id].Status == pipeline.StatusValid {
			valid = append(valid, id)
		}
	}
	if len(valid) == 0 {
		return
	}
	out, err := c.Run(context.Background(), append([]string{"validate", "--mode", "gold", "--json", "--concurrency", "2"}, valid...)...)
	if err != nil {
		t.Fatal(err)
	}
	var alone []pipeline.Run
	if err := json.Unmarshal(out, &alone); err != nil || len(alone) != len(valid) {
		t.Fatalf("validate --mode gold: %d runs (%v)\n%s", len(alone), err, out)
	}
	for _, a := range alone {
		var shared *pipeline.Run
		for _, r := range y.Runs[a.TaskID] {
			if r.Mode == "gold" && shared == nil {
				shared = r
			}
		}
		switch {
		case shared == nil:
			t.Errorf("%s: no gold run in the shared batch", a.TaskID)
		case a.Outcome != shared.Outcome || strings.Join(a.FailToPass, ",") != strings.Join(shared.FailToPass, ",") ||
			strings.Join(a.PassToPass, ",") != strings.Join(shared.PassToPass, ","):
			t.Errorf("%s gold alone: %s F2P %v P2P %v; in the shared batch: %s F2P %v P2P %v", a.TaskID,
				a.Outcome, a.FailToPass, a.PassToPass, shared.Outcome, shared.FailToPass, shared.PassToPass)
		default:
			t.Logf("%s: gold alone agrees with the shared batch (%d FAIL_TO_PASS, %d PASS_TO_PASS)", a.TaskID, len(a.FailToPass), len(a.PassToPass))
		}
	}
}
