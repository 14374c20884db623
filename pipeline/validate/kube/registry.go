package kube

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"strings"
	"time"
)

// manifestTypes are the manifest media types a registry may hold an
// image as (BuildKit pushes OCI or Docker ones, single or multi-platform).
var manifestTypes = strings.Join([]string{
	"application/vnd.oci.image.index.v1+json",
	"application/vnd.oci.image.manifest.v1+json",
	"application/vnd.docker.distribution.manifest.list.v2+json",
	"application/vnd.docker.distribution.manifest.v2+json",
}, ", ")

// registryHTTP is the registry API client: short timeouts, no
// credentials (a registry that needs them is not supported here yet).
var registryHTTP = &http.Client{Timeout: 30 * time.Second}

// splitRemote splits "host[:port]/path:tag" into its host, repository
// path and tag.
func splitRemote(remote string) (host, repo, tag string, err error) {
	host, rest, ok := strings.Cut(remote, "/")
	i := strings.LastIndex(rest, ":")
	if !ok || i <= 0 || i == len(rest)-1 {
		return "", "", "", fmt.Errorf("image name %q: want host/repository:tag", remote)
	}
	return host, rest[:i], rest[i+1:], nil
}

// loopbackRegistry reports whether a registry host is on the local
// machine (127.0.0.0/8, ::1, localhost): plain HTTP, as Docker and
// containerd allow for such a registry, and reached from the node's own
// network.
func loopbackRegistry(host string) bool {
	h := host
	if sh, _, err := net.SplitHostPort(host); err == nil {
		h = sh
	}
	if h == "localhost" {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}

// resolveRemote returns the reference by digest of remote
// ("host/repo:tag") when the registry holds it; ok is false when it does
// not.
func resolveRemote(ctx context.Context, remote string) (ref string, ok bool, err error) {
	host, repo, tag, err := splitRemote(remote)
	if err != nil {
		return "", false, err
	}
	scheme := "https"
	if loopbackRegistry(host) {
		scheme = "http"
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodHead, fmt.Sprintf("%s://%s/v2/%s/manifests/%s", scheme, host, repo, tag), nil)
	if err != nil {
		return "", false, err
	}
	req.Header.Set("Accept", manifestTypes)
	resp, err := registryHTTP.Do(req)
	if err != nil {
		return "", false, fmt.Errorf("registry %s: %w", host, err)
	}
	resp.Body.Close()
	switch {
	case resp.StatusCode == http.StatusNotFound:
		return "", false, nil
	case resp.StatusCode != http.StatusOK:
		return "", false, fmt.Errorf("registry %s: manifest of %s: %s", host, remote, resp.Status)
	}
	digest := resp.Header.Get("Docker-Content-Digest")
	if !strings.HasPrefix(digest, "sha256:") {
		return "", false, fmt.Errorf("registry %s: manifest of %s has no digest header", host, remote)
	}
	return host + "/" + repo + "@" + digest, true, nil
}
