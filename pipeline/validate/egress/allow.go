// Package egress is the forward proxy through which image builds (and
// tasks with network access under task_network = "allowlist") reach
// package registries and nothing else.
package egress

import (
	"fmt"
	"net"
	"net/url"
	"sort"
	"strings"
)

// Registries are the hosts the environment generators install from
// (envgen: pip, npm, cargo, Maven, go, apt), with the hosts they redirect
// downloads to.
var Registries = []string{
	"pypi.org", "files.pythonhosted.org",
	"registry.npmjs.org",
	"crates.io", "index.crates.io", "static.crates.io",
	"repo.maven.apache.org", "repo1.maven.org",
	"proxy.golang.org", "sum.golang.org",
	"deb.debian.org", "security.debian.org",
}

// Allowlist is what the proxy lets through: a host is allowed when it is
// on the list or under a "*.domain" entry. Registries must resolve to
// public addresses; a host the workspace lists itself ([network] allow)
// may be private (a mirror on the local network).
type Allowlist struct {
	public  map[string]bool // may resolve to public addresses only
	private map[string]bool // the workspace's own: any address
}

// NewAllowlist combines the default registries, the hosts of registry
// URLs the build is given (PIP_INDEX_URL, GOPROXY, a Debian mirror; their
// hosts count as the workspace's own), and [network] allow entries.
func NewAllowlist(registries, urls, allow []string) (*Allowlist, error) {
	a := &Allowlist{public: map[string]bool{}, private: map[string]bool{}}
	for _, h := range registries {
		a.public[strings.ToLower(h)] = true
	}
	for _, u := range urls {
		for _, part := range strings.FieldsFunc(u, func(r rune) bool { return r == ',' || r == '|' || r == ' ' }) {
			if p, err := url.Parse(part); err == nil && p.Hostname() != "" {
				a.private[strings.ToLower(p.Hostname())] = true
			}
		}
	}
	for _, h := range allow {
		h = strings.ToLower(strings.TrimSpace(h))
		name := strings.TrimPrefix(h, "*.")
		if name == "" || strings.ContainsAny(name, "/:@ *") && net.ParseIP(name) == nil {
			return nil, fmt.Errorf("[network] allow: %q is not a host name, IP address or *.domain", h)
		}
		a.private[h] = true
	}
	return a, nil
}

// Hosts lists the allowed entries, sorted.
func (a *Allowlist) Hosts() []string {
	var hs []string
	for h := range a.public {
		hs = append(hs, h)
	}
	for h := range a.private {
		if !a.public[h] {
			hs = append(hs, h)
		}
	}
	sort.Strings(hs)
	return hs
}

// match reports whether host is allowed, and whether it may resolve to a
// private address.
func (a *Allowlist) match(host string) (ok, private bool) {
	host = strings.ToLower(strings.TrimSuffix(host, "."))
	if a.private[host] {
		return true, true
	}
	if a.public[host] {
		return true, false
	}
	for h := range a.private {
		if strings.HasPrefix(h, "*.") && strings.HasSuffix(host, h[1:]) {
			return true, true
		}
	}
	return false, false
}

// publicIP reports whether ip is an address of the internet: not
// loopback, private (RFC 1918, fc00::/7), link-local, CGNAT, multicast or
// unspecified.
func publicIP(ip net.IP) bool {
	if ip.IsLoopback() || ip.IsPrivate() || ip.IsLinkLocalUnicast() || ip.IsLinkLocalMulticast() ||
		ip.IsMulticast() || ip.IsUnspecified() || ip.IsInterfaceLocalMulticast() {
		return false
	}
	_, cgnat, _ := net.ParseCIDR("100.64.0.0/10")
	_, thisNet, _ := net.ParseCIDR("0.0.0.0/8")
	return !cgnat.Contains(ip) && !thisNet.Contains(ip)
}
