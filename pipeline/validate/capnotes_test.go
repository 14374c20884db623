package validate

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A task without pids_limit runs with curate's default, clamped to
// max_pids without a cap line; a task that asks for more than a cap is
// still told.
func TestDefaultPidsIsNotReportedAsACap(t *testing.T) {
	dir := t.TempDir()
	write := func(text string) *TaskConfig {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, "task.toml"), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		cfg, err := ReadTaskConfig(dir)
		if err != nil {
			t.Fatal(err)
		}
		return cfg
	}
	caps := Caps{Pids: 128}
	plain := write("schema_version = \"1.1\"\n[verifier]\ntimeout_sec = 60\n")
	for name, cfg := range map[string]*TaskConfig{"task.toml without pids_limit": plain, "no task.toml": nil} {
		lim, notes := caps.Limits(cfg, Limits{})
		if lim.Pids != 128 {
			t.Errorf("%s: pids %d, want the cap 128", name, lim.Pids)
		}
		if len(notes) > 0 {
			t.Errorf("%s: the default reported as a cap: %q", name, notes)
		}
	}
	lim, notes := (Caps{MemoryMB: 512}).Limits(plain, Limits{})
	if lim.MemoryMB != 512 || len(notes) > 0 {
		t.Errorf("default memory over max_memory: %d MB, notes %q: want 512 and none", lim.MemoryMB, notes)
	}
	asks := write("schema_version = \"1.1\"\n[environment]\npids_limit = 8192\nmemory_mb = 4096\n")
	lim, notes = (Caps{Pids: 128, MemoryMB: 1024}).Limits(asks, Limits{})
	if lim.Pids != 128 || lim.MemoryMB != 1024 || len(notes) != 2 ||
		!strings.Contains(notes[0], "task.toml memory_mb = 4096 MB is over max_memory") || !strings.Contains(notes[1], "task.toml pids_limit = 8192 is over max_pids") {
		t.Errorf("a task's own values over the caps: %+v, notes %q", lim, notes)
	}
}
