package workspace

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestInitFindOpen(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "bench")
	root, err := Init(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{ConfigFile, TasksDir, filepath.Join(StateDir, DBFile), filepath.Join(StateDir, "runs")} {
		if _, err := os.Stat(filepath.Join(root, p)); err != nil {
			t.Errorf("init did not create %s", p)
		}
	}
	if _, err := Init(dir); err == nil || !strings.Contains(err.Error(), "already") {
		t.Errorf("second init: %v", err)
	}
	ws, err := Open(context.Background(), root)
	if err != nil {
		t.Fatal(err)
	}
	if ws.Config.Profile.Name != "swe" || ws.Config.Docker.Concurrency != 0 || ws.Config.UI.Theme != "" {
		t.Errorf("default config: %+v", ws.Config)
	}
	ws.Close()

	sub := filepath.Join(root, "tasks", "deep", "er")
	os.MkdirAll(sub, 0o755)
	t.Chdir(sub)
	t.Setenv("CURATE_WORKSPACE", "")
	if got, err := Find(""); err != nil || got != root {
		t.Errorf("Find from a subfolder = %q, %v; want %q", got, err, root)
	}
	other := t.TempDir()
	if _, err := Find(other); err == nil || !strings.Contains(err.Error(), "not a curate workspace") {
		t.Errorf("Find(non-workspace flag) = %v", err)
	}
	t.Setenv("CURATE_WORKSPACE", root)
	t.Chdir(other)
	if got, err := Find(""); err != nil || got != root {
		t.Errorf("Find via env = %q, %v", got, err)
	}
	t.Setenv("CURATE_WORKSPACE", "")
	if _, err := Find(""); err != ErrNoWorkspace {
		t.Errorf("Find with nothing around = %v", err)
	}
}

func TestConfigErrors(t *testing.T) {
	cases := []struct {
		name, text, want string
	}{
		{"unknown key", "[ui]\ntheme = \"dark\"\ncolour = \"red\"\n", "curate.toml:3:1: unknown key \"ui.colour\""},
		{"unknown section", "[dockr]\nhosts = []\n", "curate.toml:1:2: unknown key \"dockr\""},
		{"type error", "[docker]\nconcurrency = \"two\"\n", "curate.toml:2:"},
		{"syntax error", "[ui\ntheme = 1\n", "curate.toml:1:"},
		// The four value kinds that named the file but no line (issue 18).
		{"bad theme", "[ui]\ntheme = \"neon\"\n", "curate.toml:2:1: ui.theme: \"neon\": want dark"},
		{"bad preset", "[workspace]\nname = \"x\"\n\n[filter]\npreset = \"magic\"\n", "curate.toml:5:1: filter.preset: \"magic\""},
		{"budget zero", "[selection]\nbudget = 0\n", "curate.toml:2:1: selection.budget: 0: must be at least 1"},
		{"negative concurrency", "[docker]\n  concurrency = -2\n", "curate.toml:2:3: docker.concurrency: -2"},
		// Values that were checked only when a later command used them.
		{"bad timeout", "[docker]\ntimeout = \"10 minutes\"\n", "curate.toml:2:1: docker.timeout: \"10 minutes\": want a positive duration"},
		{"bad quota", "[selection]\nquotas = [{ dimension = \"language\", value = \"go\", min = 1 },\n  { dimension = \"colour\", value = \"red\", min = 1 }]\n",
			"curate.toml:3:3: selection.quotas.1: quota 2 (colour=red min 1): unknown dimension \"colour\""},
		{"bad host", "[docker]\nhosts = [\"unix:///x\", \"localhost\"]\n", "curate.toml:2:23: docker.hosts.1: \"localhost\": want an engine address"},
		{"bad memory", "[docker]\nmemory = \"lots\"\n", "curate.toml:2:1: docker.memory: \"lots\""},
		{"bad cpus", "[docker]\ncpus = -1.5\n", "curate.toml:2:1: docker.cpus: -1.5"},
		{"bad user", "[docker]\nuser = \"root; rm\"\n", "curate.toml:2:1: docker.user: \"root; rm\""},
		{"bad task network", "[docker]\ntask_network = \"open\"\n", "curate.toml:2:1: docker.task_network: \"open\": want none, allowlist or public"},
		{"bad allow entry", "[network]\nallow = [\"pypi.org\", \"http://x/\"]\n", "curate.toml:2:22: network.allow.1: [network] allow: \"http://x/\" is not a host name"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ParseConfig("curate.toml", []byte(c.text))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v, want %q", err, c.want)
			}
		})
	}
	if _, err := ParseConfig("curate.toml", []byte(DefaultConfigText)); err != nil {
		t.Fatalf("the default config does not parse: %v", err)
	}
}

func FuzzParseConfig(f *testing.F) {
	f.Add([]byte(DefaultConfigText))
	f.Add([]byte("[repos.\"a/b\"]\ninstall = [\"x\"]\n"))
	f.Add([]byte("[ui\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		_, err := ParseConfig("curate.toml", data)
		if err != nil && !strings.HasPrefix(err.Error(), "curate.toml") {
			t.Fatalf("error does not name the file: %v", err)
		}
	})
}

// readOnly makes dir read-only for this process: a read-only bind mount
// when running as root (root ignores permission bits), chmod otherwise.
func readOnly(t *testing.T, dir string) {
	t.Helper()
	if os.Geteuid() != 0 {
		os.Chmod(dir, 0o555)
		t.Cleanup(func() { os.Chmod(dir, 0o755) })
		return
	}
	if out, err := exec.Command("mount", "--bind", dir, dir).CombinedOutput(); err != nil {
		t.Fatalf("bind mount: %v %s", err, out)
	}
	t.Cleanup(func() { exec.Command("umount", dir).Run() })
	if out, err := exec.Command("mount", "-o", "remount,bind,ro", dir).CombinedOutput(); err != nil {
		t.Fatalf("remount read-only: %v %s", err, out)
	}
}

func TestReadOnlyWorkspace(t *testing.T) {
	root, err := Init(filepath.Join(t.TempDir(), "ro"))
	if err != nil {
		t.Fatal(err)
	}
	readOnly(t, root)
	_, err = Open(context.Background(), root)
	if err == nil {
		t.Fatal("opened a workspace on a read-only folder without error")
	}
	if !strings.Contains(err.Error(), filepath.Join(root, StateDir, DBFile)) || !strings.Contains(err.Error(), "read-only") {
		t.Fatalf("error should name the database and say read-only: %v", err)
	}
}

// TestConfigRepoAt: [repos] at and snapshot are checked, and a bad value
// is reported at its file:line:col.
func TestConfigRepoAt(t *testing.T) {
	good := "[repos.\"spf13/cobra\"]\nat = \"snapshot\"\nsnapshot = \"v1.8.0\"\n"
	cfg, err := ParseConfig("curate.toml", []byte(good))
	if err != nil {
		t.Fatal(err)
	}
	if r := cfg.Repos["spf13/cobra"]; r.At != "snapshot" || r.Snapshot != "v1.8.0" {
		t.Fatalf("repos = %+v", cfg.Repos)
	}
	for _, c := range []struct{ text, want string }{
		{"[repos.\"spf13/cobra\"]\nlanguage = \"go\"\nat = \"head\"\n", "curate.toml:3:1: repos.spf13/cobra.at: \"head\": want merge, snapshot or auto"},
		{"[repos.\"a/b\"]\n\nsnapshot = \"--all\"\n", "curate.toml:3:1: repos.a/b.snapshot: \"--all\": want a revision"},
	} {
		_, err := ParseConfig("curate.toml", []byte(c.text))
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("err = %v, want prefix %q", err, c.want)
		}
	}
}

// TestInitProfile: init writes the chosen profile into [profile] and
// refuses one curate does not have, naming those it has.
func TestInitProfile(t *testing.T) {
	root, err := InitProfile(filepath.Join(t.TempDir(), "ccb-bench"), "ccb")
	if err != nil {
		t.Fatal(err)
	}
	ws, err := Open(context.Background(), root)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	if ws.Config.Profile.Name != "ccb" {
		t.Errorf("profile = %q, want ccb", ws.Config.Profile.Name)
	}
	_, err = InitProfile(filepath.Join(t.TempDir(), "x"), "sweet")
	if err == nil || !strings.Contains(err.Error(), `"sweet"`) || !strings.Contains(err.Error(), "swe") {
		t.Errorf("unknown profile: %v", err)
	}
}
