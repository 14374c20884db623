// Command datedproxy is a Go module proxy that answers as of a date: it
// forwards to an upstream proxy, but a module's version list (@v/list)
// keeps only the versions published before -before (their @v/<v>.info
// times), so `go mod tidy` in a GOPATH-era revision without go.mod
// resolves the dependencies its authors had, not today's (today's viper
// needs a newer Go than a 2016 revision's code builds with). curate
// copies this file into the image and runs it with `go run` while the
// image's dependency step resolves; it uses the standard library only.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"os"
	"regexp"
	"sort"
	"strings"
	"sync"
	"time"
)

func main() {
	before := flag.String("before", "", "keep versions published at or before this time (RFC 3339)")
	upstream := flag.String("upstream", "https://proxy.golang.org", "the proxy to forward to")
	addr := flag.String("addr", "127.0.0.1:0", "listen address")
	ready := flag.String("ready", "", "write the proxy's URL to this file once it listens")
	flag.Parse()
	t, err := time.Parse(time.RFC3339, *before)
	if err != nil {
		log.Fatalf("datedproxy: -before: %v", err)
	}
	up, err := url.Parse(strings.TrimSuffix(*upstream, "/"))
	if err != nil || up.Scheme == "" {
		log.Fatalf("datedproxy: -upstream %q is not a URL", *upstream)
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		log.Fatalf("datedproxy: %v", err)
	}
	if *ready != "" {
		if err := os.WriteFile(*ready, []byte("http://"+ln.Addr().String()+"\n"), 0o644); err != nil {
			log.Fatalf("datedproxy: %v", err)
		}
	}
	log.Fatal(http.Serve(ln, newProxy(up, t, http.DefaultClient)))
}

// proxy serves the dated version lists and forwards everything else.
type proxy struct {
	up     *url.URL
	before time.Time
	client *http.Client
	fwd    *httputil.ReverseProxy
}

func newProxy(up *url.URL, before time.Time, client *http.Client) *proxy {
	fwd := &httputil.ReverseProxy{Rewrite: func(r *httputil.ProxyRequest) { r.SetURL(up) }}
	return &proxy{up: up, before: before, client: client, fwd: fwd}
}

func (p *proxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/@v/list") {
		p.list(w, strings.TrimSuffix(r.URL.EscapedPath(), "/@v/list"))
		return
	}
	if mod, hash, ok := commitQuery(r); ok {
		p.commit(w, r, mod, hash)
		return
	}
	p.fwd.ServeHTTP(w, r)
}

var commitInfoRe = regexp.MustCompile(`^(.+)/@v/([0-9a-f]{12,40})\.info$`)

// commitQuery is a GET of a commit hash's .info (a legacy pin).
func commitQuery(r *http.Request) (mod, hash string, ok bool) {
	m := commitInfoRe.FindStringSubmatch(r.URL.EscapedPath())
	if r.Method != http.MethodGet || m == nil {
		return "", "", false
	}
	return m[1], m[2], true
}

// commit answers a commit hash's .info: the upstream's answer, or when
// the upstream will not look commits up (403 "not available" from a
// proxy that serves only what it has), the pseudo-version of that commit
// among the upstream's listed versions.
func (p *proxy) commit(w http.ResponseWriter, r *http.Request, mod, hash string) {
	body, code, err := p.get(mod + "/@v/" + hash + ".info")
	if err == nil && code == http.StatusOK {
		w.Write(body)
		return
	}
	if list, lcode, lerr := p.get(mod + "/@v/list"); lerr == nil && lcode == http.StatusOK {
		for _, v := range strings.Fields(string(list)) {
			if strings.HasSuffix(v, "-"+hash[:12]) {
				if b, c, e := p.get(mod + "/@v/" + v + ".info"); e == nil && c == http.StatusOK {
					w.Write(b)
					return
				}
			}
		}
	}
	p.fwd.ServeHTTP(w, r) // the upstream's own refusal
}

// info is a version's .info document.
type info struct {
	Version string
	Time    time.Time
}

// list answers @v/list with the versions published by the date; when
// every version is newer (the module was first tagged later), the oldest
// one, the nearest to the date.
func (p *proxy) list(w http.ResponseWriter, mod string) {
	body, code, err := p.get(mod + "/@v/list")
	if err != nil || code != http.StatusOK {
		if err != nil {
			code = http.StatusBadGateway
			body = []byte(err.Error())
		}
		w.WriteHeader(code)
		w.Write(body)
		return
	}
	versions := strings.Fields(string(body))
	infos := make([]info, len(versions))
	var wg sync.WaitGroup
	sem := make(chan struct{}, 8)
	for i, v := range versions {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			infos[i] = info{Version: v}
			if b, code, err := p.get(mod + "/@v/" + v + ".info"); err == nil && code == http.StatusOK {
				json.Unmarshal(b, &infos[i])
			}
		}()
	}
	wg.Wait()
	fmt.Fprint(w, strings.Join(Dated(infos, p.before), "\n"))
}

// Dated keeps the versions published at or before the date (a version
// whose time is unknown is dropped); if none is, the oldest version.
func Dated(infos []info, before time.Time) []string {
	var keep []string
	var oldest *info
	for i := range infos {
		in := &infos[i]
		if in.Time.IsZero() {
			continue
		}
		if !in.Time.After(before) {
			keep = append(keep, in.Version)
		}
		if oldest == nil || in.Time.Before(oldest.Time) {
			oldest = in
		}
	}
	if len(keep) == 0 && oldest != nil {
		keep = []string{oldest.Version}
	}
	sort.Strings(keep)
	return keep
}

func (p *proxy) get(path string) ([]byte, int, error) {
	resp, err := p.client.Get(p.up.String() + path)
	if err != nil {
		return nil, 0, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 16<<20))
	return b, resp.StatusCode, err
}
