package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"
)

// TestDatedList is the failure TaskGen's cobra PR #218 (merged 2016) hit:
// without go.mod, `go mod tidy` took viper v1.21.0, which says "requires
// go >= 1.23.0" to the image's Go 1.22. As of the revision's date the
// proxy lists only what viper had published then.
func TestDatedList(t *testing.T) {
	times := map[string]string{
		"v0.0.0":  "", // no .info: dropped
		"v1.0.0":  "2016-03-01T00:00:00Z",
		"v1.0.2":  "2016-09-01T00:00:00Z",
		"v1.21.0": "2025-09-08T00:00:00Z",
	}
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/github.com/spf13/viper/@v/list":
			io.WriteString(w, "v0.0.0\nv1.0.0\nv1.0.2\nv1.21.0\n")
		case strings.HasPrefix(r.URL.Path, "/github.com/spf13/viper/@v/") && strings.HasSuffix(r.URL.Path, ".info"):
			v := strings.TrimSuffix(strings.TrimPrefix(r.URL.Path, "/github.com/spf13/viper/@v/"), ".info")
			if times[v] == "" {
				http.NotFound(w, r)
				return
			}
			io.WriteString(w, `{"Version":"`+v+`","Time":"`+times[v]+`"}`)
		case r.URL.Path == "/github.com/late/mod/@v/list":
			io.WriteString(w, "v2.0.0\nv1.5.0\n")
		case strings.HasPrefix(r.URL.Path, "/github.com/late/mod/@v/"):
			v := strings.TrimSuffix(strings.TrimPrefix(r.URL.Path, "/github.com/late/mod/@v/"), ".info")
			tm := map[string]string{"v1.5.0": "2019-01-01T00:00:00Z", "v2.0.0": "2020-01-01T00:00:00Z"}[v]
			io.WriteString(w, `{"Version":"`+v+`","Time":"`+tm+`"}`)
		default:
			http.NotFound(w, r)
		}
	}))
	defer up.Close()
	u, _ := url.Parse(up.URL)
	before, _ := time.Parse(time.RFC3339, "2016-05-24T10:00:00Z")
	srv := httptest.NewServer(newProxy(u, before, up.Client()))
	defer srv.Close()
	for path, want := range map[string]string{
		"/github.com/spf13/viper/@v/list":         "v1.0.0",
		"/github.com/late/mod/@v/list":            "v1.5.0",              // first tagged after the date: the oldest
		"/github.com/spf13/viper/@v/v1.21.0.info": `"Version":"v1.21.0"`, // forwarded as is
	} {
		resp, err := http.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if got := strings.TrimSpace(string(b)); !strings.Contains(got, want) || (strings.HasSuffix(path, "/list") && got != want) {
			t.Errorf("%s: got %q, want %q", path, got, want)
		}
	}
	resp, _ := http.Get(srv.URL + "/github.com/nosuch/mod/@v/list")
	if resp.StatusCode != http.StatusNotFound {
		t.Errorf("a module the upstream lacks: status %d, want 404 passed on", resp.StatusCode)
	}
}

// TestCommitPinAsPseudoVersion is the web framework's PR #987 (merge
// c4249f92, 2017): its vendor/vendor.json pins commits, and the module
// proxy here refuses a bare commit ("go-isatty/@v/57fdcb988a5c....info:
// 403 Forbidden ... This module version is not available"), so the pins
// were dropped and the dated pick lacked isatty.IsCygwinTerminal. The
// dated proxy answers a commit with its pseudo-version from the list.
func TestCommitPinAsPseudoVersion(t *testing.T) {
	const pseudo = "v0.0.0-20161123143637-30a891c33c7c"
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/github.com/mattn/go-isatty/@v/list":
			io.WriteString(w, "v0.0.0-20160806122752-66b8e73f3f5c\n"+pseudo+"\nv0.0.3\n")
		case "/github.com/mattn/go-isatty/@v/" + pseudo + ".info":
			io.WriteString(w, `{"Version":"`+pseudo+`","Time":"2016-11-23T14:36:37Z"}`)
		default:
			w.WriteHeader(http.StatusForbidden)
			io.WriteString(w, "This module version is not available.")
		}
	}))
	defer up.Close()
	u, _ := url.Parse(up.URL)
	srv := httptest.NewServer(newProxy(u, time.Now(), up.Client()))
	defer srv.Close()
	for hash, want := range map[string]string{
		"30a891c33c7cde7b02a981314b4228ec99380cca": `"Version":"` + pseudo + `"`,
		"57fdcb988a5c543893cc61bce354a6e24ab70022": "not available", // not listed: the upstream's refusal
	} {
		resp, err := http.Get(srv.URL + "/github.com/mattn/go-isatty/@v/" + hash + ".info")
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if !strings.Contains(string(b), want) {
			t.Errorf("%s: got %d %q, want %q", hash, resp.StatusCode, b, want)
		}
	}
}
