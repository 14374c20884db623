package validate

import (
	"errors"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestReadTaskConfigSchema14(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "task.toml"), `schema_version = "1.4"
multi_step_reward_strategy = "final"
[environment]
os = "linux"
workdir = "/app"
network_mode = "allowlist"      # no hosts: deny all egress
healthcheck = { command = "test -f /app/ready", interval_sec = 0.5, retries = 4 }
[agent]
network_mode = "public"
[[steps]]
name = "01-a"
[[steps]]
name = "02-b"
`)
	cfg, err := ReadTaskConfig(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := &Healthcheck{Command: "test -f /app/ready", Interval: 500 * time.Millisecond, Timeout: 30 * time.Second, Retries: 4}
	if cfg.Workdir != "/app" || !reflect.DeepEqual(cfg.Healthcheck, want) || cfg.NetworkMode != "no-network" || cfg.AgentNetworkMode != "public" ||
		cfg.RewardStrategy != RewardFinal || !reflect.DeepEqual(cfg.Steps, []Step{{"01-a"}, {"02-b"}}) {
		t.Fatalf("config %+v (healthcheck %+v)", cfg, cfg.Healthcheck)
	}
}

// Settings the runner cannot enforce are refused by name, never quietly
// turned into something else.
func TestReadTaskConfigRefusals(t *testing.T) {
	cases := []struct{ toml, want string }{
		{"[environment]\nnetwork_mode = \"allowlist\"\nallowed_hosts = [\"pypi.org\"]\n", `network_mode = "allowlist" (allowed_hosts pypi.org)`},
		{"[agent]\nnetwork_mode = \"allowlist\"\nallowed_hosts = [\"api.openai.com\"]\n", `agent network_mode = "allowlist"`},
		{"[environment]\nos = \"windows\"\n", `environment.os = "windows"`},
		{"[verifier]\nenvironment_mode = \"separate\"\n[verifier.environment]\ndocker_image = \"x\"\n", `environment_mode = "separate"`},
	}
	for _, c := range cases {
		dir := t.TempDir()
		writeFile(t, filepath.Join(dir, "task.toml"), c.toml)
		_, err := ReadTaskConfig(dir)
		var u *UnsupportedError
		if !errors.As(err, &u) || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "task.toml") {
			t.Errorf("%q: err %v, want an unsupported error naming %q", c.toml, err, c.want)
		}
	}
	bad := []struct{ toml, want string }{
		{"[environment]\nworkdir = \"relative\"\n", "environment.workdir"},
		{"[environment]\nhealthcheck = { interval_sec = 1 }\n", "healthcheck.command"},
		{"[environment]\nhealthcheck = { command = \"x\", retries = 0 }\n", "healthcheck.retries"},
		{"[[steps]]\nname = \"../escape\"\n", "steps[1].name"},
		{"multi_step_reward_strategy = \"max\"\n", "multi_step_reward_strategy"},
		{"[environment]\nallowed_hosts = \"pypi.org\"\n", "allowed_hosts"},
		{"[verifier]\nenvironment_mode = \"weird\"\n", "verifier.environment_mode"},
	}
	for _, c := range bad {
		dir := t.TempDir()
		writeFile(t, filepath.Join(dir, "task.toml"), c.toml)
		_, err := ReadTaskConfig(dir)
		var u *UnsupportedError
		if err == nil || errors.As(err, &u) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: err %v, want a parse error naming %q", c.toml, err, c.want)
		}
	}
}
