package export

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pelletier/go-toml/v2"
)

func TestHarborTaskName(t *testing.T) {
	cases := []struct{ existing, org, folder, want string }{
		{"tac/find-x", "", "find-x", "tac/find-x"},      // kept
		{"tac/find-x", "acme", "find-x", "acme/find-x"}, // --org wins, name part kept
		{"", "acme", "sgt-008", "acme/sgt-008"},
		{"bare-name", "acme", "dir", "acme/bare-name"},
		{"", "", "sgt-008", ""}, // no org: the caller refuses
		{"../x", "acme", "x", "acme/x"},
		{"", "acme", "-x", "acme/x"},
	}
	for _, c := range cases {
		if got := HarborTaskName(c.existing, c.org, c.folder); got != c.want {
			t.Errorf("HarborTaskName(%q, %q, %q) = %q, want %q", c.existing, c.org, c.folder, got, c.want)
		}
		if c.want != "" && !harborName.MatchString(c.want) {
			t.Errorf("%q does not match Harbor's name rule", c.want)
		}
	}
}

// The export rewrites task.toml to the current schema and keeps every key
// it does not own, schema 1.2-1.4 keys and unknown ones alike.
func TestHarborExportTaskTOML(t *testing.T) {
	in := testInput(t, 2, true)
	legacy := `version = "1.0"
source = "swe-bench-pro"
artifacts = ["/app/out.log"]
multi_step_reward_strategy = "final"
weird_top_level = { nested = [1, 2] }

[metadata]
author_name = "A. Author"
difficulty = "easy"

[environment]
os = "linux"
workdir = "/app"
network_mode = "allowlist"
allowed_hosts = ["pypi.org"]
memory = "8G"
healthcheck = { command = "test -f /app/ready", interval_sec = 1, retries = 3 }

[agent]
network_mode = "public"

[verifier]
environment_mode = "separate"
[verifier.environment]
docker_image = "python:3.12"

[[steps]]
name = "01-first"
[[steps]]
name = "02-second"
`
	dir := in.Selected[0].Task.TaskDir
	os.WriteFile(filepath.Join(dir, "task.toml"), []byte(legacy), 0o644)
	in.Selected[0].Task.Labels.Difficulty = "very_hard"
	in.Selected[0].Task.Labels.Note = "checked by hand"

	out := filepath.Join(t.TempDir(), "ds")
	if _, err := Write("harbor", out, in); err == nil || !strings.Contains(err.Error(), "no org") || !strings.Contains(err.Error(), "--org") {
		t.Fatalf("a task without org: err = %v", err)
	}
	in.Org = "acme"
	if _, err := Write("harbor", out, in); err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	data, _ := os.ReadFile(filepath.Join(out, in.Selected[0].Task.ID, "task.toml"))
	if err := toml.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	task := doc["task"].(map[string]any)
	meta := doc["metadata"].(map[string]any)
	env := doc["environment"].(map[string]any)
	if doc["schema_version"] != HarborSchemaVersion || doc["version"] != nil || task["name"] != "acme/"+in.Selected[0].Task.ID {
		t.Errorf("schema %v version %v name %v", doc["schema_version"], doc["version"], task["name"])
	}
	if meta["difficulty"] != "very_hard" || meta["curator_note"] != "checked by hand" || meta["author_name"] != "A. Author" ||
		meta["sdlc_phase"] != "Implementation (bug fix)" || meta["benchmark"] != "ccb_a" {
		t.Errorf("metadata %v", meta)
	}
	if env["workdir"] != "/app" || env["os"] != "linux" || env["memory"] != "8G" || env["healthcheck"] == nil ||
		doc["multi_step_reward_strategy"] != "final" || doc["weird_top_level"] == nil || doc["source"] != "swe-bench-pro" ||
		len(doc["steps"].([]any)) != 2 || doc["verifier"].(map[string]any)["environment"] == nil || doc["artifacts"] == nil {
		t.Errorf("keys lost:\n%s", data)
	}
	if _, err := Write("harbor", out, &Input{Name: "x", Org: "bad org", Stats: in.Stats}); err == nil || !strings.Contains(err.Error(), `org "bad org"`) {
		t.Errorf("bad org: %v", err)
	}
}
