package envgen_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"curate/internal/testenv"
	"curate/pipeline/envgen"
	"curate/pipeline/validate"
)

// TestBadInputEvidenceInDocker builds three environments that cannot be
// had, on the real engine with the machine's network settings, and checks
// each build log carries the evidence line the failure classifier reads:
// a Go toolchain the module proxy does not have, a registry that does not
// answer, a requirement no index has. Each fails in its first network
// step, so the test costs seconds once the base image exists. A fourth
// build has no package index at all (air-gapped) and must fall back to
// Debian's python3-* packages.
func TestBadInputEvidenceInDocker(t *testing.T) {
	if testing.Short() {
		t.Skip("builds images")
	}
	base := testenv.BaseImage(t)
	host := envgen.HostNetwork(context.Background(), "")
	deadProxy := host
	deadProxy.Env = append(append([]string{}, host.Env...), "GOPROXY=http://127.0.0.1:9")
	noIndex := host
	noIndex.Env = append(append([]string{}, host.Env...), // A dead index unique to this run: the fallback build succeeds up to
		// the repository, and a cached layer would not print what it installs.
		fmt.Sprintf("PIP_INDEX_URL=http://127.0.0.1:9/simple-%d", time.Now().UnixNano()), "PIP_RETRIES=0", "PIP_TIMEOUT=3")
	cases := []struct {
		lang, want string
		files      map[string]string
		net        envgen.Network
	}{
		{"go", "curate: toolchain_mismatch: go.mod wants go1.99.0", map[string]string{"go.mod": "module example.com/x\n\ngo 1.99\n"}, host},
		{"go", "curate: deps_unreachable: the Go module proxy (http://127.0.0.1:9)", map[string]string{"go.mod": "module example.com/x\n\ngo 1.20\n"}, deadProxy},
		{"python", "curate: deps_missing: curate-no-such-project-4b7e", map[string]string{"requirements.txt": "curate-no-such-project-4b7e==1.0\n"}, host},
		{"python", "installing Debian packages: python3-pytest python3-simplejson", map[string]string{"requirements.txt": "simplejson\n"}, noIndex},
	}
	r, err := validate.NewDockerRunner("", fmt.Sprintf("yield-core-evidence-%d", os.Getpid()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		r.Prune(context.Background(), false)
		r.Close()
	})
	for _, c := range cases {
		task := t.TempDir()
		env := filepath.Join(task, "environment")
		plan, err := envgen.LanguageFor(c.lang).Plan(envgen.MapTree("o/n", c.files), envgen.Tests{Files: []string{"x_test.go"}})
		if err != nil {
			t.Fatal(err)
		}
		if err := envgen.WriteEnvironment(env, "o__n-1", base, envgen.MapTree("o/n", c.files), plan, c.net, envgen.RepoConfig{}, false); err != nil {
			t.Fatal(err)
		}
		var log bytes.Buffer
		// The air-gapped build gets past its dependencies and stops at the
		// repository this test does not provide; the others stop earlier.
		if _, _, err := r.Image(context.Background(), task, &log); err == nil {
			t.Errorf("%s: the build passed; want %q", c.want, c.want)
			continue
		}
		if !strings.Contains(log.String(), c.want) {
			t.Errorf("build log lacks %q:\n%s", c.want, tail(log.String(), 3000))
		}
	}
}

func tail(s string, n int) string {
	if len(s) > n {
		return s[len(s)-n:]
	}
	return s
}
