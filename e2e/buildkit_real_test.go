package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"curate/internal/testenv"
	"curate/pipeline"
	"curate/pipeline/validate"
	"curate/pipeline/validate/kube/kubetest"
)

// realTask is one real PR per language whose verdict the local engine
// gave (docs/dev/egress-check.md, docs/dev/compile-once.md, docs/kubernetes.md):
// the cheapest valid one measured per language. since is a few days before
// its merge, so mining reads little history.
type realTask struct {
	repo, since string
	pr          int
	f2p, p2p    int // gold's FAIL_TO_PASS and PASS_TO_PASS on the local engine
}

var realTasksPerLanguage = []realTask{
	{"spf13/cobra", "2026-04-20", 2397, 61, 0},      // Go
	{"pallets/click", "2026-08-10", 3769, 6, 231},   // Python
	{"jshttp/mime-types", "2025-06-01", 140, 1, 46}, // JavaScript
	{"tokio-rs/bytes", "2026-07-10", 842, 1, 118},   // Rust
	{"square/javapoet", "2024-01-10", 994, 1, 10},   // Java
	{"DaveGamble/cJSON", "2023-12-15", 809, 1, 0},   // C
}

// TestRealTasksBuiltByBuildKit mines one real PR per language from
// ../shared/repos, builds it (`curate build --at merge`) and validates it
// with nop,oracle,gold on the test cluster with [kubernetes] builder =
// "buildkit": buildkitd, installed into the test's namespace, builds every
// image under a registry path of the test's own and pushes it, the run
// pods pull it, and each task must be valid with the local engine's
// FAIL_TO_PASS and PASS_TO_PASS counts. curate never reaches a Docker
// engine: DOCKER_HOST names a socket that does not exist for every curate
// command (the test's own client puts the base image in the registry
// first, as `curate env bootstrap` would on a host with an engine).
func TestRealTasksBuiltByBuildKit(t *testing.T) {
	c := kubetest.Require(t)
	root, bundles := requireBundles(t)
	bin := curateBinary(t, root)
	registry := c.Registry + "/" + c.Namespace
	// The test base image (the default base's packages, made by the same
	// debootstrap code) goes where buildkitd builds FROM, through the test's
	// own Docker client, before DOCKER_HOST points away.
	testenv.PushImage(t, testenv.BaseImage(t), registry+"/"+validate.DefaultBaseImage[strings.LastIndex(validate.DefaultBaseImage, "/")+1:])
	ws := &Curate{Bin: bin, Workspace: filepath.Join(t.TempDir(), "ws")}
	ctx := context.Background()
	if _, err := (&Curate{Bin: bin}).Run(ctx, "init", ws.Workspace); err != nil {
		t.Fatal(err)
	}
	kube := fmt.Sprintf("\n[kubernetes]\nkubeconfig = %q\nnamespace = %q\nregistry = %q\nparallelism = 2\nbuilder = \"buildkit\"\n", c.Kubeconfig, c.Namespace, registry)
	appendFile(t, filepath.Join(ws.Workspace, "curate.toml"), kube)
	t.Setenv("DOCKER_HOST", "unix://"+filepath.Join(t.TempDir(), "no-docker.sock"))
	start := time.Now()
	if out, err := ws.Run(ctx, "env", "buildkit", "install", "--image", kubetest.BuildKitImage); err != nil || !strings.Contains(string(out), "buildkitd: answers") {
		t.Fatalf("buildkit install: %v\n%s", err, out)
	}

	var ids []string
	want := map[string]realTask{}
	for _, rt := range realTasksPerLanguage {
		bundle := bundles[rt.repo]
		if bundle == "" {
			t.Fatalf("no bundle of %s in ../shared/repos", rt.repo)
		}
		clone := filepath.Join(t.TempDir(), strings.ReplaceAll(rt.repo, "/", "+"))
		if err := CloneBundle(ctx, bundle, rt.repo, clone); err != nil {
			t.Fatal(err)
		}
		if _, err := ws.Run(ctx, "mine", "git", clone, "--preset", "none", "--since", rt.since); err != nil {
			t.Fatal(err)
		}
		id := fmt.Sprintf("%s-%d", strings.ReplaceAll(rt.repo, "/", "__"), rt.pr)
		ids, want[id] = append(ids, id), rt
	}
	if out, err := ws.Run(ctx, append([]string{"build", "--at", "merge"}, ids...)...); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	built := time.Now()
	out, err := ws.Run(ctx, append([]string{"validate", "--mode", "nop,oracle,gold", "--engine", "kubernetes", "--json"}, ids...)...)
	var runs []pipeline.Run
	if err != nil || json.Unmarshal(out, &runs) != nil {
		t.Fatalf("validate: %v\n%s", err, out)
	}
	validated := time.Now()
	builtByBuildKit := regexp.MustCompile(`curate: buildkit built and pushed ` + regexp.QuoteMeta(registry) + `/curate-(repo|env)@sha256:[0-9a-f]{64} in (\S+)`)
	gold, builtTasks := map[string]bool{}, map[string]bool{}
	for _, r := range runs {
		log, _ := os.ReadFile(r.LogPath)
		if !strings.Contains(string(log), "image "+registry+"/curate-env@sha256:") {
			t.Errorf("%s %s: not run from an image in %s\n%s", r.TaskID, r.Mode, registry, tailBytes(log))
		}
		for _, m := range builtByBuildKit.FindAllSubmatch(log, -1) {
			t.Logf("%s: buildkit built its %s image in %s", r.TaskID, m[1], m[2])
			if string(m[1]) == "env" {
				builtTasks[r.TaskID] = true
			}
		}
		w := want[r.TaskID]
		if r.Outcome != pipeline.OutcomeOK {
			t.Errorf("%s %s: %s %s\n%s", r.TaskID, r.Mode, r.Outcome, r.Detail, tailBytes(log))
			continue
		}
		if r.Mode == "gold" {
			gold[r.TaskID] = true
			if len(r.FailToPass) != w.f2p || len(r.PassToPass) != w.p2p {
				t.Errorf("%s gold: %d FAIL_TO_PASS / %d PASS_TO_PASS, the local engine's %d / %d", r.TaskID, len(r.FailToPass), len(r.PassToPass), w.f2p, w.p2p)
			}
		}
	}
	for _, id := range ids {
		out, err := ws.Run(ctx, "show", id, "--json")
		if err != nil || !strings.Contains(string(out), `"status": "valid"`) || !gold[id] {
			t.Errorf("%s is not valid on the cluster (gold run: %v): %v\n%s", id, gold[id], err, out)
		}
	}
	if len(builtTasks) != len(ids) {
		t.Errorf("buildkit built the images of %d task(s) (%v), want %d", len(builtTasks), builtTasks, len(ids))
	}
	if left := c.Leftovers(t); len(left) > 0 {
		t.Errorf("left in the namespace: %v", left)
	}
	t.Logf("%d real tasks, one per language, built by buildkit and validated on the cluster: install, mine and build %s, validate %s",
		len(ids), built.Sub(start).Round(time.Second), validated.Sub(built).Round(time.Second))
}

func appendFile(t *testing.T, path, text string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(text); err != nil {
		t.Fatal(err)
	}
}

func tailBytes(b []byte) string { return tail(string(b), 3000) }
