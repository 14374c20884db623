package cli

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/pelletier/go-toml/v2"

	"curate/pipeline/export"
)

// richTaskTOML uses every schema 1.1-1.4 key and one Harbor does not know.
const richTaskTOML = `schema_version = "1.3"
source = "upstream"
artifacts = ["/app/out.log"]
multi_step_reward_strategy = "mean"
x_unknown = { deep = { deeper = "kept" } }

[task]
name = "upstream-org/%s"
description = "A task"
keywords = ["a", "b"]

[metadata]
category = "implement"
author_name = "A. Author"

[environment]
os = "linux"
workdir = "/app"
network_mode = "allowlist"
allowed_hosts = ["pypi.org"]
healthcheck = { command = "true", interval_sec = 1, retries = 2 }

[agent]
network_mode = "public"
timeout_sec = 600

[verifier]
timeout_sec = 120
environment_mode = "separate"
[verifier.environment]
docker_image = "python:3.12"

[[steps]]
name = "one"
[[steps]]
name = "two"
`

// Export then import loses no key; every exported task.toml parses under
// Harbor's current schema with an org/name; dataset.toml lists each task
// with the digest `curate show` prints for it.
func TestHarborExportRoundTrip(t *testing.T) {
	src := t.TempDir()
	for _, id := range []string{"rt-one", "rt-two"} {
		dir := filepath.Join(src, id)
		for rel, body := range map[string]string{
			"task.toml": strings.ReplaceAll(richTaskTOML, "%s", id), "instruction.md": "Do " + id + "\n",
			"environment/Dockerfile": "FROM scratch\n", "tests/test.sh": "echo 1 > /logs/verifier/reward.txt\n",
			"steps/one/instruction.md": "first\n",
		} {
			os.MkdirAll(filepath.Dir(filepath.Join(dir, rel)), 0o755)
			os.WriteFile(filepath.Join(dir, rel), []byte(body), 0o644)
		}
	}
	ws := newWorkspace(t)
	if _, errs, code := curate(t, "-w", ws, "import", "harbor", src, "--benchmark", "ccb_tac"); code != 0 {
		t.Fatal(errs)
	}
	if _, errs, code := curate(t, "-w", ws, "label", "rt-one", "--difficulty", "expert"); code != 0 {
		t.Fatal(errs)
	}
	if _, errs, code := curate(t, "-w", ws, "select", "--name", "rt", "--allow-infeasible"); code != 0 {
		t.Fatal(errs)
	}
	out := filepath.Join(t.TempDir(), "dataset")
	if _, errs, code := curate(t, "-w", ws, "export", "--format", "harbor", "--out", out, "--org", "acme", "--allow-unvalidated"); code != 0 {
		t.Fatal(errs)
	}
	var m export.DatasetManifest
	raw, _ := os.ReadFile(filepath.Join(out, "dataset.toml"))
	if err := toml.Unmarshal(raw, &m); err != nil || m.Dataset.Name != "acme/rt" || len(m.Tasks) != 2 {
		t.Fatalf("dataset.toml %+v %v\n%s", m, err, raw)
	}
	nameRule := regexp.MustCompile(`^[a-zA-Z0-9][a-zA-Z0-9._-]*/[a-zA-Z0-9][a-zA-Z0-9._-]*$`)
	for _, e := range m.Tasks {
		var doc struct {
			SchemaVersion string `toml:"schema_version"`
			Task          struct {
				Name string `toml:"name"`
			} `toml:"task"`
			Metadata map[string]any `toml:"metadata"`
		}
		id := strings.TrimPrefix(e.Name, "acme/")
		data, _ := os.ReadFile(filepath.Join(out, id, "task.toml"))
		if err := toml.Unmarshal(data, &doc); err != nil || doc.SchemaVersion != export.HarborSchemaVersion || !nameRule.MatchString(doc.Task.Name) {
			t.Errorf("%s: %+v %v", id, doc, err)
		}
		if id == "rt-one" && doc.Metadata["difficulty"] != "expert" {
			t.Errorf("curator label not in [metadata]: %v", doc.Metadata)
		}
	}

	back := newWorkspace(t)
	if _, errs, code := curate(t, "-w", back, "import", "harbor", out, "--benchmark", "ccb_tac"); code != 0 {
		t.Fatal(errs)
	}
	a, b := openWS(t, ws), openWS(t, back)
	ctx := context.Background()
	for _, e := range m.Tasks {
		id := strings.TrimPrefix(e.Name, "acme/")
		before, err1 := a.Store.Task(ctx, id)
		after, err2 := b.Store.Task(ctx, id)
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		for k, v := range before.Extra {
			if _, ok := after.Extra[k]; !ok {
				t.Errorf("%s: key %s (%v) lost in the round trip", id, k, v)
			}
		}
		show, _, _ := curate(t, "-w", back, "show", id)
		if !strings.Contains(show, e.Digest) {
			t.Errorf("%s: dataset.toml digest %s not what show prints:\n%s", id, e.Digest, show)
		}
		for _, key := range []string{"environment.workdir", "environment.allowed_hosts", "verifier.environment.docker_image", "steps", "x_unknown.deep.deeper"} {
			if !strings.Contains(show, key) {
				t.Errorf("%s: show lacks %s", id, key)
			}
		}
	}
}
