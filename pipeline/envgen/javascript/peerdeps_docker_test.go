package javascript

import (
	"context"
	"os/exec"
	"strings"
	"testing"

	"curate/internal/testenv"
	"curate/pipeline/envgen"
)

// A manifest whose peer dependencies conflict (react-dom 18 asks for
// react ^18, the project pins react 17: the shape of a held-out JS
// repository whose three PRs were all deps_missing on "npm error code
// ERESOLVE") installs with --legacy-peer-deps, as npm 6 installed it,
// and says so. Runs Debian's npm against the npm registry.
func TestPeerDependencyConflictInstalls(t *testing.T) {
	if testing.Short() {
		t.Skip("reaches the npm registry")
	}
	// The package cache test's image (the same list, so one build serves both).
	img := testenv.PackagesImage(t, "python3-pip", "npm", "maven", "ca-certificates-java", "cargo-web")
	net := envgen.HostNetwork(context.Background(), "")
	args := []string{"run", "--rm"}
	if net.CABundle != "" {
		args = append(args, "-v", net.CABundle+":/etc/ssl/certs/ca-certificates.crt:ro")
	}
	for _, kv := range net.Env {
		args = append(args, "-e", kv)
	}
	manifest := `{"name":"x","version":"1.0.0","dependencies":{"react":"17.0.2","react-dom":"18.2.0"}}`
	script := "mkdir -p /p && cd /p && printf '%s' " + envgen.ShellQuote(manifest) + " > package.json && " +
		"printf '%s' " + envgen.ShellQuote(npmInstallSh) + " > /usr/local/bin/curate-npm-install && chmod +x /usr/local/bin/curate-npm-install && " +
		"CURATE_BUILD_NOTES=/tmp/notes curate-npm-install install && test -d node_modules/react-dom && cat /tmp/notes"
	out, err := exec.Command("docker", append(append(args, img), "bash", "-c", script)...).CombinedOutput()
	if err != nil {
		t.Fatalf("the install failed: %v\n%s", err, tail(string(out), 3000))
	}
	if !strings.Contains(string(out), "curate: note: npm could not resolve the peer dependencies (ERESOLVE: ") ||
		!strings.Contains(string(out), "installed with --legacy-peer-deps") {
		t.Errorf("no note on the peer-dependency fallback:\n%s", tail(string(out), 3000))
	}
}

func tail(s string, n int) string {
	if len(s) > n {
		return "..." + s[len(s)-n:]
	}
	return s
}
