package egress

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"testing"
)

// A client that sends no proxy credentials (a JVM given only
// -Dhttps.proxyHost) is still told apart on its own listener: what it
// reached through a CONNECT is listed under its token, not lost under "".
func TestClientListenerAttributesWithoutCredentials(t *testing.T) {
	target := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {}))
	defer target.Close()
	p := startProxy(t, nil, []string{"127.0.0.1"})
	addr, closeListener, err := p.Listen("build-7")
	if err != nil {
		t.Fatal(err)
	}
	pu, _ := url.Parse("http://" + addr) // no user name
	tr := target.Client().Transport.(*http.Transport).Clone()
	tr.Proxy = http.ProxyURL(pu)
	resp, err := (&http.Client{Transport: tr}).Get(target.URL)
	if err != nil {
		t.Fatalf("through the client's listener: %v", err)
	}
	resp.Body.Close()
	closeListener()
	if reached, _ := p.Take("build-7"); !reflect.DeepEqual(reached, []string{"127.0.0.1"}) {
		t.Errorf("build-7 reached %q, want [127.0.0.1]", reached)
	}
	if reached, _ := p.Take(""); len(reached) != 0 {
		t.Errorf("attributed to no client: %q", reached)
	}
}
