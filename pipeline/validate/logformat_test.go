package validate

import (
	"os"
	"path/filepath"
	"testing"
)

func TestLogFormatFromTestSh(t *testing.T) {
	dir := t.TempDir()
	if got := logFormat(dir); got != "" {
		t.Errorf("no test.sh: %q", got)
	}
	os.MkdirAll(filepath.Join(dir, "tests"), 0o755)
	sh := "#!/bin/bash\n# Verifier for x\n# curate-log-format: vitest\nmkdir -p /logs/verifier\n"
	if err := os.WriteFile(filepath.Join(dir, "tests", "test.sh"), []byte(sh), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := logFormat(dir); got != "vitest" {
		t.Errorf("got %q, want vitest", got)
	}
}
