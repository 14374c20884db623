package workspace

import (
	"strings"
	"testing"
)

// [docker] max_* are read into the caps table; a bad value names the
// file, line and key.
func TestDockerCaps(t *testing.T) {
	cfg, err := ParseConfig("curate.toml", []byte("[docker]\nmax_memory = \"2G\"\nmax_cpus = 1.5\nmax_pids = 500\nmax_disk = \"5G\"\nmax_log = \"1M\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	if c := cfg.Docker.CapsConfig; c.MaxMemory != "2G" || c.MaxCPUs != 1.5 || c.MaxPids != 500 || c.MaxDisk != "5G" || c.MaxLog != "1M" {
		t.Fatalf("caps %+v", c)
	}
	for _, c := range []struct{ text, want string }{
		{"[docker]\nmax_memory = \"lots\"\n", "curate.toml:2:1: docker.max_memory: \"lots\": want a size"},
		{"[docker]\nmax_pids = 10000000000\n", "curate.toml:2:1: docker.max_pids: 10000000000: want 1 to 4194304"},
		{"[docker]\nmax_cpus = -1.0\n", "curate.toml:2:1: docker.max_cpus: -1: want a number > 0"},
		{"[docker]\nmax_log = \"0\"\n", "docker.max_log: \"0\": want a size"},
	} {
		if _, err := ParseConfig("curate.toml", []byte(c.text)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: err %v, want %q", c.text, err, c.want)
		}
	}
}
