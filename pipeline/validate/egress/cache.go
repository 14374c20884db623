package egress

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
)

// CacheHost is the name builds reach curate's package cache by, through
// the proxy: .invalid never resolves, so nothing but this proxy answers
// it, and the name is the same in every build (a build arg whose value
// changed would miss the builder's layer cache).
const CacheHost = "packages.curate.invalid"

// CacheURL is the cache's address as builds are given it
// (CURATE_PACKAGE_CACHE; curate-step derives each registry's from it).
const CacheURL = "http://" + CacheHost

// Route is one registry the cache stands in front of: requests under
// Prefix go to Upstream with the prefix cut off.
type Route struct {
	Prefix   string            // "/go/"
	Upstream string            // "https://proxy.golang.org/"
	Rewrite  map[string]string // in pages passed through: upstream URL -> cache URL

	rewrite  func(string) string // a page passed through, rewritten whole
	embedded bool                // the path names the upstream: <scheme>/<host>/<path>
}

// dlRe is the download URL of cargo's index config.json.
var dlRe = regexp.MustCompile(`("dl"\s*:\s*")(https?)://([^"]+)"`)

// crateDownloads points a sparse index's config.json at the cache.
func crateDownloads(page string) string {
	return dlRe.ReplaceAllString(page, `${1}`+CacheURL+`/crates-dl/${2}/${3}"`)
}

// Routes are the registries a cache serves, from the upstream URLs this
// machine's settings name ("" = the public registry).
func Routes(goproxy, npm, pypi, maven string) []Route {
	or := func(v, def string) string {
		if v == "" {
			return def
		}
		return strings.TrimRight(v, "/") + "/"
	}
	return []Route{
		{Prefix: "/go/", Upstream: or(goproxy, "https://proxy.golang.org/")},
		{Prefix: "/npm/", Upstream: or(npm, "https://registry.npmjs.org/")},
		{Prefix: "/pypi/", Upstream: or(pypi, "https://pypi.org/simple/"),
			Rewrite: map[string]string{"https://files.pythonhosted.org/": CacheURL + "/pyfiles/"}},
		{Prefix: "/pyfiles/", Upstream: "https://files.pythonhosted.org/"},
		{Prefix: "/maven2/", Upstream: or(maven, "https://repo.maven.apache.org/maven2/")},
		// cargo's sparse index; its config.json names where crates
		// download (static.crates.io, or a mirror's own path), which the
		// cache then fetches: /crates-dl/<scheme>/<host>/<path>.
		{Prefix: "/crates/", Upstream: "https://index.crates.io/", rewrite: crateDownloads},
		{Prefix: "/crates-dl/", embedded: true},
	}
}

// Cache keeps what builds download from package registries in a folder,
// by URL, so a second image that needs a module, wheel, tarball or jar
// gets it from the host. Only what a registry never changes is kept (a
// version's files); indexes and version lists always go to the registry.
// Clients still check what they get (go.sum, npm's integrity, pip's and
// Maven's hashes) as they would from the registry.
type Cache struct {
	dir    string
	routes []Route

	mu    sync.Mutex
	stats map[string]*CacheStats // client token -> counts
}

// CacheStats counts one client's downloads through the cache.
type CacheStats struct {
	Hits, Fetched          int
	HitBytes, FetchedBytes int64
	Passed                 int            // indexes and lists, never kept
	Files                  map[string]int // kept files served, by registry ("Go", "npm", "PyPI", "Maven", "crates")
}

// registryName names the registry of a route's prefix for the build log.
func registryName(prefix string) string {
	switch prefix {
	case "/go/":
		return "Go"
	case "/npm/":
		return "npm"
	case "/pypi/", "/pyfiles/":
		return "PyPI"
	case "/maven2/":
		return "Maven"
	case "/crates/", "/crates-dl/":
		return "crates"
	}
	return strings.Trim(prefix, "/")
}

// NewCache keeps files under dir.
func NewCache(dir string, routes []Route) *Cache {
	return &Cache{dir: dir, routes: routes, stats: map[string]*CacheStats{}}
}

// Dir is where the cache keeps its files.
func (c *Cache) Dir() string { return c.dir }

// Take returns and forgets a client's counts.
func (c *Cache) Take(tok string) CacheStats {
	c.mu.Lock()
	defer c.mu.Unlock()
	s := c.stats[tok]
	delete(c.stats, tok)
	if s == nil {
		return CacheStats{}
	}
	return *s
}

func (c *Cache) count(tok string, f func(*CacheStats)) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.stats[tok] == nil {
		c.stats[tok] = &CacheStats{Files: map[string]int{}}
	}
	f(c.stats[tok])
}

// kept reports whether a registry path names content that never changes:
// a Go module version's files, an npm tarball, a Python distribution, a
// Maven artifact of a release.
func kept(prefix, p string) bool {
	base := path.Base(p)
	switch prefix {
	case "/go/":
		return strings.Contains(p, "/@v/") && (strings.HasSuffix(p, ".zip") || strings.HasSuffix(p, ".mod") || strings.HasSuffix(p, ".info"))
	case "/npm/":
		return strings.Contains(p, "/-/") && strings.HasSuffix(p, ".tgz")
	case "/pyfiles/", "/pypi/":
		for _, ext := range []string{".whl", ".tar.gz", ".zip", ".tar.bz2", ".tgz", ".metadata"} {
			if strings.HasSuffix(base, ext) {
				return true
			}
		}
	case "/crates-dl/":
		return base == "download" || strings.HasSuffix(base, ".crate")
	case "/maven2/":
		return !strings.HasPrefix(base, "maven-metadata") && !strings.Contains(p, "SNAPSHOT") && strings.Contains(base, ".")
	}
	return false
}

// serve answers a request for the cache host: from the folder, else from
// the registry through rt (the proxy's transport, its allowlist).
func (c *Cache) serve(r *http.Request, tok string, allowed func(string) (bool, bool), rt http.RoundTripper) (*http.Response, string) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		return textResponse(r, http.StatusMethodNotAllowed, "curate package cache: GET only\n"), ""
	}
	p := path.Clean("/" + r.URL.Path)
	if strings.HasSuffix(r.URL.Path, "/") && p != "/" {
		p += "/"
	}
	var route *Route
	for i := range c.routes {
		if strings.HasPrefix(p, c.routes[i].Prefix) {
			route = &c.routes[i]
			break
		}
	}
	if route == nil {
		return textResponse(r, http.StatusNotFound, "curate package cache: no registry at "+p+"\n"), ""
	}
	rest := strings.TrimPrefix(p, route.Prefix)
	target := route.Upstream + rest
	if route.embedded {
		scheme, hostPath, _ := strings.Cut(rest, "/")
		if scheme != "https" && scheme != "http" || hostPath == "" {
			return textResponse(r, http.StatusNotFound, "curate package cache: no registry at "+p+"\n"), ""
		}
		target = scheme + "://" + hostPath
	}
	up, err := url.Parse(target)
	if err != nil {
		return textResponse(r, http.StatusBadRequest, "curate package cache: "+err.Error()+"\n"), ""
	}
	up.RawQuery = r.URL.RawQuery
	// The folder is shared by workspaces: a file kept from a host another
	// workspace lists ([network] allow) is not this proxy's to serve.
	if ok, _ := allowed(up.Hostname()); !ok {
		return textResponse(r, http.StatusForbidden, "curate package cache: "+up.Hostname()+" is not an allowed registry\n"), ""
	}
	if kept(route.Prefix, p) && r.URL.RawQuery == "" {
		return c.kept(r, tok, registryName(route.Prefix), up, rt)
	}
	c.count(tok, func(s *CacheStats) { s.Passed++ })
	return c.pass(r, route, up, rt)
}

// MaxKeptPerClient bounds what one build writes into the host's cache
// folder: a build RUN chooses what it downloads, the host's disk is not
// in its box.
const MaxKeptPerClient = 8 << 30

// overBudget reports whether keeping n more bytes (-1: unknown) would
// take a client past MaxKeptPerClient.
func (c *Cache) overBudget(tok string, n int64) bool {
	if n < 0 {
		n = 0
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	s := c.stats[tok]
	return s != nil && s.FetchedBytes+n > MaxKeptPerClient
}

// file is where the content of an upstream URL is kept.
func (c *Cache) file(u *url.URL) string {
	h := sha256.Sum256([]byte(u.String()))
	k := hex.EncodeToString(h[:])
	return filepath.Join(c.dir, k[:2], k)
}

func (c *Cache) kept(r *http.Request, tok, registry string, up *url.URL, rt http.RoundTripper) (*http.Response, string) {
	f := c.file(up)
	if fh, err := os.Open(f); err == nil {
		if st, err := fh.Stat(); err == nil {
			c.count(tok, func(s *CacheStats) { s.Hits++; s.HitBytes += st.Size(); s.Files[registry]++ })
			return fileResponse(r, fh, st.Size()), ""
		}
		fh.Close()
	}
	resp, err := upstream(r, up, rt)
	if err != nil {
		return textResponse(r, http.StatusBadGateway, "curate package cache: "+err.Error()+"\n"), up.Host
	}
	if resp.StatusCode != http.StatusOK {
		return resp, up.Host
	}
	if c.overBudget(tok, resp.ContentLength) {
		// A build's downloads are capped inside its box, not on this host:
		// past its share, files pass through unkept.
		c.count(tok, func(s *CacheStats) { s.Passed++ })
		return resp, up.Host
	}
	defer resp.Body.Close()
	n, err := store(f, io.LimitReader(resp.Body, MaxKeptPerClient+1))
	if err == nil && n > MaxKeptPerClient {
		os.Remove(f)
		err = fmt.Errorf("over %d MB, not kept", MaxKeptPerClient>>20)
	}
	if err != nil {
		return textResponse(r, http.StatusBadGateway, "curate package cache: "+up.String()+": "+err.Error()+"\n"), up.Host
	}
	c.count(tok, func(s *CacheStats) { s.Fetched++; s.FetchedBytes += n; s.Files[registry]++ })
	fh, err := os.Open(f)
	if err != nil {
		return textResponse(r, http.StatusBadGateway, "curate package cache: "+err.Error()+"\n"), up.Host
	}
	return fileResponse(r, fh, n), up.Host
}

// store writes body to f whole or not at all (a temporary file renamed:
// two builds fetching one file at once each write their own).
func store(f string, body io.Reader) (int64, error) {
	if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
		return 0, err
	}
	tmp, err := os.CreateTemp(filepath.Dir(f), ".part-*")
	if err != nil {
		return 0, err
	}
	n, err := io.Copy(tmp, body)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), f)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return 0, err
	}
	return n, nil
}

// maxPage bounds a page whose URLs the cache rewrites.
const maxPage = 64 << 20

// pass forwards a request the cache does not keep; an index page has its
// download URLs pointed at the cache.
func (c *Cache) pass(r *http.Request, route *Route, up *url.URL, rt http.RoundTripper) (*http.Response, string) {
	resp, err := upstream(r, up, rt)
	if err != nil {
		return textResponse(r, http.StatusBadGateway, "curate package cache: "+err.Error()+"\n"), up.Host
	}
	if len(route.Rewrite) == 0 && route.rewrite == nil || resp.StatusCode != http.StatusOK {
		return resp, up.Host
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxPage+1))
	resp.Body.Close()
	if err != nil || len(body) > maxPage {
		return textResponse(r, http.StatusBadGateway, fmt.Sprintf("curate package cache: %s: page unreadable or over %d MB\n", up, maxPage>>20)), up.Host
	}
	s := string(body)
	for from, to := range route.Rewrite {
		s = strings.ReplaceAll(s, from, to)
	}
	if route.rewrite != nil {
		s = route.rewrite(s)
	}
	resp.Body = io.NopCloser(strings.NewReader(s))
	resp.ContentLength = int64(len(s))
	resp.Header.Del("Content-Length")
	resp.Header.Del("Etag")
	return resp, up.Host
}

// upstream asks the registry, with the client's Accept (pip and npm ask
// for JSON) and nothing else of its headers.
func upstream(r *http.Request, up *url.URL, rt http.RoundTripper) (*http.Response, error) {
	req, err := http.NewRequestWithContext(r.Context(), r.Method, up.String(), nil)
	if err != nil {
		return nil, err
	}
	for _, h := range []string{"Accept", "User-Agent"} {
		if v := r.Header.Get(h); v != "" {
			req.Header.Set(h, v)
		}
	}
	resp, err := rt.RoundTrip(req)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", up, err)
	}
	return resp, nil
}

func fileResponse(r *http.Request, f *os.File, n int64) *http.Response {
	resp := &http.Response{
		StatusCode: http.StatusOK, Status: "200 OK", Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header: http.Header{"Content-Type": {"application/octet-stream"}}, Body: f, ContentLength: n, Request: r,
	}
	if r.Method == http.MethodHead {
		f.Close()
		resp.Body = http.NoBody
	}
	return resp
}

func textResponse(r *http.Request, code int, msg string) *http.Response {
	return &http.Response{
		StatusCode: code, Status: fmt.Sprintf("%d %s", code, http.StatusText(code)), Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header: http.Header{"Content-Type": {"text/plain; charset=utf-8"}}, Body: io.NopCloser(strings.NewReader(msg)),
		ContentLength: int64(len(msg)), Request: r,
	}
}
