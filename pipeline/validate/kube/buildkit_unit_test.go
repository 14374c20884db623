package kube

import (
	"archive/tar"
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// buildkitd reaches a registry on the node's loopback over plain HTTP and
// any other over HTTPS.
func TestBuildKitConfigForRegistry(t *testing.T) {
	if c := BuildKitConfig("127.0.0.1:5000/ci"); !strings.Contains(c, "[registry.\"127.0.0.1:5000\"]\n  http = true\n") {
		t.Errorf("loopback registry:\n%s", c)
	}
	if c := BuildKitConfig("registry.example.com/curate"); strings.Contains(c, "[registry.") {
		t.Errorf("remote registry gets plain HTTP:\n%s", c)
	}
}

// Base images named without a registry host are looked up in the
// registry; others are left to buildkitd.
func TestHasRegistryHost(t *testing.T) {
	for name, want := range map[string]bool{
		"curate/base:bookworm": false, "curate-test/base:1": false, "debian:12": false,
		"127.0.0.1:5000/base:1": true, "docker.io/library/debian:12": true, "localhost/base": true,
	} {
		if got := hasRegistryHost(name); got != want {
			t.Errorf("%s: %v, want %v", name, got, want)
		}
	}
}

// A build context entry that climbs out of its folder is refused.
func TestWriteContextRefusesEscape(t *testing.T) {
	dir := t.TempDir()
	err := writeContext(dir, func(tw *tar.Writer) error {
		return tw.WriteHeader(&tar.Header{Name: "../escaped", Typeflag: tar.TypeReg, Mode: 0o644})
	})
	if err == nil || !strings.Contains(err.Error(), "outside the build context") {
		t.Errorf("got %v", err)
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(dir), "escaped")); err == nil {
		t.Error("the entry was written outside")
	}
}

// resolveRemote asks the registry for a tag's manifest: its digest when
// there, not found on 404, an error naming the registry otherwise.
func TestResolveRemote(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodHead || !strings.Contains(r.Header.Get("Accept"), "application/vnd.oci.image.manifest.v1+json") {
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		switch r.URL.Path {
		case "/v2/ci/curate-env/manifests/abc":
			w.Header().Set("Docker-Content-Digest", "sha256:0123")
		case "/v2/ci/curate-env/manifests/nodigest":
		case "/v2/ci/curate-env/manifests/broken":
			w.WriteHeader(http.StatusInternalServerError)
		default:
			w.WriteHeader(http.StatusNotFound)
		}
	}))
	defer srv.Close()
	host := strings.TrimPrefix(srv.URL, "http://")
	ctx := context.Background()
	if ref, ok, err := resolveRemote(ctx, host+"/ci/curate-env:abc"); err != nil || !ok || ref != host+"/ci/curate-env@sha256:0123" {
		t.Errorf("present: %q %v %v", ref, ok, err)
	}
	if _, ok, err := resolveRemote(ctx, host+"/ci/curate-env:missing"); err != nil || ok {
		t.Errorf("missing: %v %v", ok, err)
	}
	if _, _, err := resolveRemote(ctx, host+"/ci/curate-env:nodigest"); err == nil || !strings.Contains(err.Error(), "no digest") {
		t.Errorf("no digest: %v", err)
	}
	if _, _, err := resolveRemote(ctx, host+"/ci/curate-env:broken"); err == nil || !strings.Contains(err.Error(), "registry "+host) {
		t.Errorf("broken: %v", err)
	}
	if _, _, err := resolveRemote(ctx, "no-tag"); err == nil {
		t.Error("a name without host and tag resolved")
	}
}
