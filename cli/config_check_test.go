package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Values once caught only by the command that used them are refused by
// any command, with file:line:col and the key.
func TestConfigValuesCheckedOnOpen(t *testing.T) {
	ws := newWorkspace(t)
	cfg := filepath.Join(ws, "curate.toml")
	good, _ := os.ReadFile(cfg)
	cases := []struct{ name, text, want string }{
		{"profile name", "[profile]\nname = \"nope\"\n", cfg + ":2:1: profile.name: "},
		{"profile file", "[profile]\nfile = \"missing.toml\"\n", cfg + ":2:1: profile.file: "},
		{"ui key action", "[ui.keys]\nundo = \"ctrl+z\"\nfrobnicate = \"f\"\n", cfg + ":3:1: ui.keys.frobnicate: unknown action"},
		{"docker timeout", "[docker]\ntimeout = \"soon\"\n", cfg + ":2:1: docker.timeout: \"soon\""},
		{"quota", "[selection]\nquotas = [{ dimension = \"language\", value = \"go\", min = 5, max = 1 }]\n", cfg + ":2:11: selection.quotas.0: quota 1"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			os.WriteFile(cfg, []byte(c.text), 0o644)
			code, _, errs := cli(t, "-w", ws, "list")
			if code == 0 || !strings.Contains(errs, c.want) {
				t.Fatalf("exit %d: %q, want %q", code, errs, c.want)
			}
		})
	}
	os.WriteFile(cfg, good, 0o644)
	if code, _, errs := cli(t, "-w", ws, "list"); code != 0 {
		t.Fatalf("the config curate init writes: %s", errs)
	}
}
