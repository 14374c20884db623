package cli

import (
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"curate/app"
)

// env bootstrap works outside a workspace: the image goes to the engine
// (here a fake one that already has it), nothing needs curate.toml.
func TestEnvBootstrapWithoutWorkspace(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Api-Version", "1.43")
		switch {
		case strings.HasSuffix(r.URL.Path, "/_ping"):
			w.Write([]byte("OK"))
		case strings.HasSuffix(r.URL.Path, "/images/curate/base:bookworm/json"):
			w.Header().Set("Content-Type", "application/json")
			w.Write([]byte(`{"Id":"sha256:0123456789abcdef"}`))
		default:
			http.Error(w, `{"message":"unexpected `+r.URL.Path+`"}`, http.StatusNotImplemented)
		}
	}))
	defer srv.Close()
	t.Chdir(t.TempDir())
	t.Setenv("CURATE_WORKSPACE", "")
	code, out, errs := cli(t, "env", "bootstrap", "--docker-host", "tcp://"+strings.TrimPrefix(srv.URL, "http://"))
	if code != 0 || !strings.Contains(out, "image curate/base:bookworm exists; nothing to do") {
		t.Fatalf("exit %d\nstdout: %s\nstderr: %s", code, out, errs)
	}
}

// Outside a workspace the bootstrap works in the user's cache folder.
func TestBootstrapCacheDirWithoutWorkspace(t *testing.T) {
	cache := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", cache)
	if got, want := app.BootstrapCacheDir(nil), filepath.Join(cache, "curate", "bootstrap"); got != want {
		t.Fatalf("cache dir %s, want %s", got, want)
	}
}
