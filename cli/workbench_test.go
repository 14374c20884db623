package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Bad workbench settings stop `curate tui` with a message naming the
// file or flag, before the terminal is touched.
func TestWorkbenchRejectsBadSettings(t *testing.T) {
	ws := demoWorkspace(t)
	_, errs, code := curate(t, "-w", ws, "tui", "--theme", "neon")
	if code == 0 || !strings.Contains(errs, "--theme: theme \"neon\": want one of dark, light, high-contrast") {
		t.Errorf("--theme neon: code %d, %q", code, errs)
	}
	cfg := filepath.Join(ws, "curate.toml")
	data, err := os.ReadFile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cfg, append(data, "\n[ui.keys]\nfrobnicate = \"x\"\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	_, errs, code = curate(t, "-w", ws, "tui")
	if code == 0 || !strings.Contains(errs, "curate.toml:") || !strings.Contains(errs, ": ui.keys.frobnicate: unknown action") {
		t.Errorf("bad key action: code %d, %q", code, errs)
	}
	// Outside a terminal the workbench says what to use instead.
	os.WriteFile(cfg, data, 0o644)
	_, errs, code = curate(t, "-w", ws, "tui")
	if code == 0 || !strings.Contains(errs, "needs a terminal") {
		t.Errorf("no terminal: code %d, %q", code, errs)
	}
}
