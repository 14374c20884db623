package egress

import (
	"context"
	"encoding/base64"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/elazarl/goproxy"
)

// Proxy is a forward proxy (goproxy) whose every outgoing connection goes
// through one dial that allows a host only when the allowlist has it, and
// only to the addresses it resolves to here, checked: a name cannot
// rebind to the host or a private network, and an address literal is
// allowed only when listed.
type Proxy struct {
	allow *Allowlist
	srv   *http.Server
	ln    net.Listener
	cache atomic.Pointer[Cache] // nil = none: CacheHost is refused like any other host

	mu      sync.Mutex
	reached map[string]map[string]bool // client token -> hosts reached
	refused map[string]map[string]bool // client token -> hosts refused
}

// Start listens on addr ("ip:0" for any port) and serves.
func Start(addr string, allow *Allowlist) (*Proxy, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("egress proxy: listen on %s: %w", addr, err)
	}
	p := &Proxy{allow: allow, ln: ln, reached: map[string]map[string]bool{}, refused: map[string]map[string]bool{}}
	gp := goproxy.NewProxyHttpServer()
	gp.Logger = log.New(io.Discard, "", 0) // a reset connection is the client's business, not the terminal's
	gp.Tr = &http.Transport{DialContext: p.dial, Proxy: nil, TLSHandshakeTimeout: 30 * time.Second}
	gp.ConnectDialWithReq = func(req *http.Request, network, addr string) (net.Conn, error) {
		c, err := p.dial(req.Context(), network, addr)
		p.record(token(req), addr, err)
		return c, err
	}
	gp.OnRequest().DoFunc(func(r *http.Request, _ *goproxy.ProxyCtx) (*http.Request, *http.Response) {
		if c := p.cache.Load(); c != nil && strings.EqualFold(r.URL.Hostname(), CacheHost) {
			resp, host := c.serve(r, token(r), allow.match, gp.Tr)
			if host != "" {
				p.record(token(r), host, nil)
			}
			return r, resp
		}
		if ok, _ := allow.match(r.URL.Hostname()); !ok {
			p.record(token(r), r.URL.Host, errNotListed)
			return r, goproxy.NewResponse(r, goproxy.ContentTypeText, http.StatusForbidden, "curate egress: "+r.URL.Hostname()+" is not an allowed registry\n")
		}
		p.record(token(r), r.URL.Host, nil)
		r.Header.Del("Proxy-Authorization")
		return r, nil
	})
	p.srv = &http.Server{Handler: gp, ReadHeaderTimeout: 30 * time.Second, ConnContext: clientContext}
	go p.srv.Serve(ln)
	return p, nil
}

// clientKey holds, in a request's context, the client token of the
// listener its connection came in on.
type clientKey struct{}

// clientConn is a connection accepted by a client's own listener.
type clientConn struct {
	net.Conn
	token string
}

// clientListener tags each connection it accepts with its client token.
type clientListener struct {
	net.Listener
	token string
}

func (l clientListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return clientConn{c, l.token}, nil
}

func clientContext(ctx context.Context, c net.Conn) context.Context {
	if cc, ok := c.(clientConn); ok {
		return context.WithValue(ctx, clientKey{}, cc.token)
	}
	return ctx
}

// Listen opens a listener of the proxy for one client on the proxy's
// address, another port: what comes in on it is that client's, whatever
// credentials it sends or leaves out (a JVM sends none to an HTTPS proxy
// set through system properties). close stops it.
func (p *Proxy) Listen(token string) (addr string, close func(), err error) {
	host, _, _ := net.SplitHostPort(p.ln.Addr().String())
	ln, err := net.Listen("tcp", net.JoinHostPort(host, "0"))
	if err != nil {
		return "", nil, fmt.Errorf("egress proxy: listen for %s: %w", token, err)
	}
	go p.srv.Serve(clientListener{ln, token})
	return ln.Addr().String(), func() { ln.Close() }, nil
}

// SetCache puts a package cache behind CacheHost; set it before the
// first client.
func (p *Proxy) SetCache(c *Cache) { p.cache.Store(c) }

// Cache is the package cache behind CacheHost, nil when there is none.
func (p *Proxy) Cache() *Cache { return p.cache.Load() }

// Addr is the address the proxy listens on.
func (p *Proxy) Addr() string { return p.ln.Addr().String() }

// Close stops the proxy and the connections it carries.
func (p *Proxy) Close() error { return p.srv.Close() }

var errNotListed = fmt.Errorf("not on the allowlist")

// dial connects to addr when its host is allowed, to an address checked
// after resolving.
func (p *Proxy) dial(ctx context.Context, network, addr string) (net.Conn, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, err
	}
	ok, private := p.allow.match(host)
	if !ok {
		return nil, fmt.Errorf("egress: %s: %w", host, errNotListed)
	}
	ips, err := net.DefaultResolver.LookupIP(ctx, "ip", host)
	if err != nil {
		return nil, fmt.Errorf("egress: resolve %s: %w", host, err)
	}
	var d net.Dialer
	var last error
	for _, ip := range ips {
		if !private && !publicIP(ip) {
			last = fmt.Errorf("egress: %s resolves to %s, a private address (list it in [network] allow to reach it)", host, ip)
			continue
		}
		c, err := d.DialContext(ctx, network, net.JoinHostPort(ip.String(), port))
		if err == nil {
			return c, nil
		}
		last = err
	}
	return nil, last
}

// token is the client a request is attributed to: the client of the
// listener it came in on, else the user name of its proxy credentials.
func token(r *http.Request) string {
	if tok, ok := r.Context().Value(clientKey{}).(string); ok {
		return tok
	}
	auth, ok := strings.CutPrefix(r.Header.Get("Proxy-Authorization"), "Basic ")
	if !ok {
		return ""
	}
	raw, err := base64.StdEncoding.DecodeString(auth)
	if err != nil {
		return ""
	}
	user, _, _ := strings.Cut(string(raw), ":")
	return user
}

func (p *Proxy) record(tok, addr string, err error) {
	host := addr
	if h, _, e := net.SplitHostPort(addr); e == nil {
		host = h
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	m := p.reached
	if err != nil {
		m = p.refused
	}
	if m[tok] == nil {
		m[tok] = map[string]bool{}
	}
	m[tok][host] = true
}

// Take returns and forgets the hosts a client token reached and was
// refused, sorted.
func (p *Proxy) Take(tok string) (reached, refused []string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	keys := func(m map[string]bool) []string {
		var ks []string
		for k := range m {
			ks = append(ks, k)
		}
		sort.Strings(ks)
		return ks
	}
	reached, refused = keys(p.reached[tok]), keys(p.refused[tok])
	delete(p.reached, tok)
	delete(p.refused, tok)
	return reached, refused
}
