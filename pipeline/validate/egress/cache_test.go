package egress

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
)

// fakeRegistry serves every path with its own name and counts the asks.
func fakeRegistry(t *testing.T) (base string, asked func(string) int) {
	t.Helper()
	var mu sync.Mutex
	n := map[string]int{}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		n[r.URL.Path]++
		mu.Unlock()
		if strings.HasSuffix(r.URL.Path, "/missing.zip") {
			http.NotFound(w, r)
			return
		}
		if strings.HasSuffix(r.URL.Path, "/config.json") {
			fmt.Fprintf(w, `{"dl": "http://%s/artifactory/crates", "api": "https://crates.io"}`, r.Host)
			return
		}
		if strings.HasSuffix(r.URL.Path, "/six/") {
			fmt.Fprint(w, `<a href="https://files.pythonhosted.org/packages/ab/six-1.16.0-py2.py3-none-any.whl#sha256=00">six</a>`)
			return
		}
		fmt.Fprint(w, "content of "+r.URL.Path)
	})}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return "http://" + ln.Addr().String() + "/", func(p string) int { mu.Lock(); defer mu.Unlock(); return n[p] }
}

// A version's files are fetched from the registry once and then served
// from the folder, to any client; version lists and index pages go to the
// registry every time, their download URLs pointed at the cache; what the
// registry lacks stays a 404 and is not kept.
func TestPackageCacheKeepsOnlyWhatNeverChanges(t *testing.T) {
	reg, asked := fakeRegistry(t)
	p := startProxy(t, nil, []string{"127.0.0.1"})
	routes := Routes(reg+"go", reg+"npm", reg+"simple", "")
	for i := range routes {
		if routes[i].Prefix == "/crates/" {
			routes[i].Upstream = reg
		}
	}
	c := NewCache(t.TempDir(), routes)
	p.SetCache(c)
	client := func(tok string) *http.Client {
		pu, _ := url.Parse("http://" + tok + ":x@" + p.Addr())
		return &http.Client{Transport: &http.Transport{Proxy: http.ProxyURL(pu)}}
	}
	get := func(tok, path string) (int, string) {
		resp, err := client(tok).Get(CacheURL + path)
		if err != nil {
			t.Fatalf("GET %s: %v", path, err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	zip := "/go/example.com/m/@v/v1.0.0.zip"
	for _, tok := range []string{"build-1", "build-2", "build-2"} {
		if code, body := get(tok, zip); code != 200 || body != "content of /go/example.com/m/@v/v1.0.0.zip" {
			t.Fatalf("%s: %d %q", zip, code, body)
		}
		get(tok, "/go/example.com/m/@v/list")
		get(tok, "/npm/left-pad/-/left-pad-1.3.0.tgz")
	}
	if n := asked("/go/example.com/m/@v/v1.0.0.zip"); n != 1 {
		t.Errorf("the registry was asked %d times for a version's zip, want 1", n)
	}
	if n := asked("/npm/left-pad/-/left-pad-1.3.0.tgz"); n != 1 {
		t.Errorf("the registry was asked %d times for an npm tarball, want 1", n)
	}
	if n := asked("/go/example.com/m/@v/list"); n != 3 {
		t.Errorf("the version list was asked %d times, want every time (3)", n)
	}
	first, second := c.Take("build-1"), c.Take("build-2")
	if first.Fetched != 2 || first.Hits != 0 || second.Fetched != 0 || second.Hits != 4 || second.Passed != 2 {
		t.Errorf("counts: first %+v, second %+v", first, second)
	}
	if code, _ := get("build-3", "/go/example.com/m/@v/missing.zip"); code != 404 {
		t.Errorf("a zip the registry lacks: %d, want 404", code)
	}
	if code, _ := get("build-3", "/go/example.com/m/@v/missing.zip"); code != 404 || asked("/go/example.com/m/@v/missing.zip") != 2 {
		t.Errorf("a 404 was kept: %d, asked %d", code, asked("/go/example.com/m/@v/missing.zip"))
	}
	if _, body := get("build-3", "/pypi/six/"); !strings.Contains(body, `href="`+CacheURL+`/pyfiles/packages/ab/six-1.16.0-py2.py3-none-any.whl#sha256=00"`) {
		t.Errorf("the index page's file URL not pointed at the cache: %q", body)
	}
	// cargo: the index's config.json names a download URL of the
	// registry's own (a mirror's path), which the cache then serves.
	_, cfg := get("build-4", "/crates/config.json")
	host := strings.TrimSuffix(strings.TrimPrefix(reg, "http://"), "/")
	want := `"dl": "` + CacheURL + `/crates-dl/http/` + host + `/artifactory/crates"`
	if !strings.Contains(cfg, want) {
		t.Fatalf("config.json not pointed at the cache: %q, want %s", cfg, want)
	}
	crate := "/crates-dl/http/" + host + "/artifactory/crates/itoa/1.0.11/download"
	for range 2 {
		if code, body := get("build-4", crate); code != 200 || body != "content of /artifactory/crates/itoa/1.0.11/download" {
			t.Fatalf("%s: %d %q", crate, code, body)
		}
	}
	if n := asked("/artifactory/crates/itoa/1.0.11/download"); n != 1 {
		t.Errorf("the registry was asked %d times for a crate, want 1", n)
	}
	if code, _ := get("build-4", "/crates-dl/file/etc/passwd"); code != 404 {
		t.Errorf("a crate URL of another scheme: %d, want 404", code)
	}
	if code, _ := get("build-4", "/crates-dl/https/10.1.2.3/x/download"); code != 403 {
		t.Errorf("a crate URL of a host not on the list: %d, want 403", code)
	}
	// A kept file of a host this proxy does not allow (another
	// workspace's [network] allow, the folder being shared) is refused.
	other := startProxy(t, nil, nil)
	other.SetCache(c)
	ou, _ := url.Parse("http://build-5:x@" + other.Addr())
	resp, err := (&http.Client{Transport: &http.Transport{Proxy: http.ProxyURL(ou)}}).Get(CacheURL + crate)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 403 {
		t.Errorf("a kept crate of a host another proxy's list lacks: %d, want 403", resp.StatusCode)
	}
	if code, _ := get("build-3", "/../../etc/passwd"); code != 404 {
		t.Errorf("a path outside the registries: %d, want 404", code)
	}
	if code, _ := get("build-3", "/elsewhere/x.zip"); code != 404 {
		t.Errorf("a path under no registry: %d, want 404", code)
	}
}

// Without a cache the proxy refuses the cache's name like any other
// host that is not on the list.
func TestNoCacheRefusesItsName(t *testing.T) {
	if _, err := get(t, nil, nil, CacheURL+"/go/x/@v/list"); err == nil || !strings.Contains(err.Error(), "403") {
		t.Errorf("the cache host without a cache: %v, want 403", err)
	}
}
