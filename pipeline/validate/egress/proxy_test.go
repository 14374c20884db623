package egress

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// secretServer serves a secret on loopback, a private address.
func secretServer(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { fmt.Fprint(w, "secret") })}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return ln.Addr().String()
}

// startProxy starts a proxy on loopback allowing registries and allow,
// closed when the test ends.
func startProxy(t *testing.T, registries, allow []string) *Proxy {
	t.Helper()
	a, err := NewAllowlist(registries, nil, allow)
	if err != nil {
		t.Fatal(err)
	}
	p, err := Start("127.0.0.1:0", a)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

// get fetches target through a proxy allowing list (registries, then the
// workspace's own) and returns the body, or the error.
func get(t *testing.T, registries, allow []string, target string) (string, error) {
	t.Helper()
	p := startProxy(t, registries, allow)
	pu, _ := url.Parse("http://tok:x@" + p.Addr())
	c := &http.Client{Transport: &http.Transport{Proxy: http.ProxyURL(pu)}}
	resp, err := c.Get(target)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("%s: %s", resp.Status, body)
	}
	return string(body), nil
}

func TestProxyRefusesWhatIsNotListed(t *testing.T) {
	addr := secretServer(t)
	_, port, _ := net.SplitHostPort(addr)
	for _, c := range []struct {
		name       string
		registries []string
		allow      []string
		target     string
		want       string // "" = refused
	}{
		{"an address literal not on the list", Registries, nil, "http://" + addr + "/", ""},
		{"a CONNECT to an address literal not on the list", Registries, nil, "https://" + addr + "/", ""},
		{"a registry name that resolves to a private address", []string{"localhost"}, nil, "http://localhost:" + port + "/", ""},
		{"a name under no entry", nil, []string{"*.example.org"}, "http://localhost:" + port + "/", ""},
		{"a mirror the workspace lists, on a private address", nil, []string{"127.0.0.1"}, "http://" + addr + "/", "secret"},
		{"a workspace name on a private address", nil, []string{"localhost"}, "http://localhost:" + port + "/", "secret"},
	} {
		body, err := get(t, c.registries, c.allow, c.target)
		if c.want == "" && err == nil {
			t.Errorf("%s: got %q, want refused", c.name, body)
		}
		if c.want != "" && (err != nil || body != c.want) {
			t.Errorf("%s: got %q, %v, want %q", c.name, body, err, c.want)
		}
	}
}

func TestAllowlistRejectsBadEntries(t *testing.T) {
	for _, bad := range []string{"http://x.org/", "a b", "x.org:80", ""} {
		if _, err := NewAllowlist(nil, nil, []string{bad}); err == nil || !strings.Contains(err.Error(), "[network] allow") {
			t.Errorf("%q: %v", bad, err)
		}
	}
}
