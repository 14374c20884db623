package e2e

import (
	"os"
	"path/filepath"
	"testing"
)

// TestMain removes the curate binary the tests built.
func TestMain(m *testing.M) {
	code := m.Run()
	if binPath != "" && binErr == nil {
		os.RemoveAll(filepath.Dir(binPath))
	}
	os.Exit(code)
}
