package cli

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

	"github.com/docker/docker/api/types/filters"
	"github.com/docker/docker/api/types/image"
	"github.com/docker/docker/client"

	"curate/internal/testenv"
	"curate/pipeline"
	"curate/pipeline/validate"
	"curate/pipeline/validate/kube/kubetest"
)

// sameWithBuildKit validates the demo's tasks on the test cluster with
// [kubernetes] builder = "buildkit": buildkitd, installed into the test's
// namespace by `curate env buildkit install`, builds every image under a
// registry path of the test's own (so nothing pushed before is reused),
// and the verdicts must be the Docker engine's. curate must not touch the
// local engine: DOCKER_HOST names a socket that does not exist, and the
// engine holds as many of the workspace's images after as before.
func sameWithBuildKit(t *testing.T, root, base string, onDocker []pipeline.Run) {
	c := kubetest.Require(t)
	registry := c.Registry + "/" + c.Namespace
	// The base image stands in for `curate env bootstrap`'s, as on Docker:
	// the test (not curate) puts it where buildkitd builds FROM.
	testenv.PushImage(t, base, registry+"/"+base[strings.LastIndex(base, "/")+1:])
	setKubernetes(t, root, fmt.Sprintf("kubeconfig = %q\nnamespace = %q\nregistry = %q\nparallelism = 2\nbuilder = \"buildkit\"\n", c.Kubeconfig, c.Namespace, registry))
	engine := testenv.RequireDocker(t) // the test's own client, made before DOCKER_HOST points away
	before := workspaceImages(t, engine, root)
	if before == 0 {
		t.Fatalf("the local engine holds no image labelled with the workspace %s: the check below would prove nothing", root)
	}
	t.Setenv("DOCKER_HOST", "unix://"+filepath.Join(t.TempDir(), "no-docker.sock"))

	if code, out, errs := cli(t, "-w", root, "env", "buildkit", "install", "--image", kubetest.BuildKitImage); code != 0 || !strings.Contains(out, "buildkitd: answers") {
		t.Fatalf("buildkit install: exit %d\n%s\n%s", code, out, errs)
	}
	code, out, errs := cli(t, "-w", root, "validate", "--all", "--json", "--mode", "nop,oracle,gold", "--engine", "kubernetes")
	var runs []pipeline.Run
	if err := json.Unmarshal([]byte(out), &runs); err != nil {
		t.Fatalf("exit %d: %v\n%s\n%s", code, err, out, errs)
	}
	sameVerdicts(t, onDocker, runs, code, errs)
	// Every image came from buildkitd, pushed under the test's path: each
	// task's first run built (or found, when a sibling run built it) its
	// image there.
	built := regexp.MustCompile(`curate: buildkit built and pushed ` + regexp.QuoteMeta(registry) + `/curate-env@sha256:[0-9a-f]{64}`)
	took := regexp.MustCompile(`curate: buildkit built and pushed \S+ in (\S+)\n`)
	builtTasks := map[string]bool{}
	var buildTime time.Duration
	builds := 0
	for _, r := range runs {
		log, _ := os.ReadFile(r.LogPath)
		if built.Match(log) {
			builtTasks[r.TaskID] = true
		}
		for _, m := range took.FindAllSubmatch(log, -1) {
			if d, err := time.ParseDuration(string(m[1])); err == nil {
				buildTime += d
				builds++
			}
		}
		if !strings.Contains(string(log), "image "+registry+"/curate-env@sha256:") {
			t.Errorf("%s %s: not run from an image in %s\n%s", r.TaskID, r.Mode, registry, log)
		}
	}
	tasks := map[string]bool{}
	for _, r := range onDocker {
		tasks[r.TaskID] = true
	}
	if len(builtTasks) != len(tasks) {
		t.Errorf("buildkit built the images of %d task(s) (%v), want %d", len(builtTasks), builtTasks, len(tasks))
	}
	// An unchanged environment is not built again: push finds each image
	// in the registry by its content-addressed tag.
	ids := []string{"-w", root, "env", "push"}
	for id := range tasks {
		ids = append(ids, id)
	}
	code, out, errs = cli(t, ids...)
	if code != 0 || strings.Contains(errs, "buildkit") || strings.Count(out, registry+"/curate-env@sha256:") != len(tasks) {
		t.Errorf("env push after the builds: exit %d, want %d images found and none built\n%s\n%s", code, len(tasks), out, errs)
	}
	if after := workspaceImages(t, engine, root); after != before {
		t.Errorf("the local engine holds %d image(s) of the workspace after, %d before: curate used it", after, before)
	}
	if left := c.Leftovers(t); len(left) > 0 {
		t.Errorf("left in the namespace: %v", left)
	}
	t.Logf("%d runs built by buildkit agree with the Docker engine's; %d buildkit builds took %s", len(runs), builds, buildTime)
}

// setKubernetes replaces curate.toml's [kubernetes] section with body.
func setKubernetes(t *testing.T, root, body string) {
	t.Helper()
	path := filepath.Join(root, "curate.toml")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	if i := strings.Index(text, "\n[kubernetes]\n"); i >= 0 {
		rest := text[i+len("\n[kubernetes]\n"):]
		end := ""
		if j := strings.Index(rest, "\n["); j >= 0 {
			end = rest[j:]
		}
		text = text[:i] + end
	}
	if err := os.WriteFile(path, []byte(text+"\n[kubernetes]\n"+body), 0o644); err != nil {
		t.Fatal(err)
	}
}

// workspaceImages counts the local engine's images labelled with the
// workspace.
func workspaceImages(t *testing.T, engine *client.Client, root string) int {
	t.Helper()
	list, err := engine.ImageList(context.Background(), image.ListOptions{All: true,
		Filters: filters.NewArgs(filters.Arg("label", validate.LabelWorkspace+"="+root))})
	if err != nil {
		t.Fatal(err)
	}
	return len(list)
}
