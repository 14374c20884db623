package app

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"curate/pipeline/envgen"
	"curate/pipeline/validate"
	"curate/pipeline/validate/egress"
	"curate/workspace"
)

// registryKeys are the build settings (envgen.HostNetwork) that name a
// registry or mirror a build installs from.
var registryKeys = []string{"GOPROXY", "PIP_INDEX_URL", "PIP_EXTRA_INDEX_URL", "NPM_CONFIG_REGISTRY", "CURATE_MAVEN_MIRROR"}

// hostNetwork reads the machine's registry settings once a process (a
// few seconds: go, pip and npm are asked).
var hostNetwork = func() func(context.Context) envgen.Network {
	var once sync.Once
	var n envgen.Network
	return func(ctx context.Context) envgen.Network {
		once.Do(func() { n = envgen.HostNetwork(context.WithoutCancel(ctx), "none") })
		return n
	}
}()

var urlRe = regexp.MustCompile(`https?://[^\s"']+`)

// EgressAllowlist is what builds may reach: the package registries, the
// registries and Debian mirrors this machine's settings name (they go into
// builds), and curate.toml's [network] allow (checked when it was read).
func EgressAllowlist(ctx context.Context, ws *workspace.Workspace) (*egress.Allowlist, error) {
	var urls []string
	for _, kv := range hostNetwork(ctx).Env {
		k, v, _ := strings.Cut(kv, "=")
		for _, want := range registryKeys {
			if k == want {
				urls = append(urls, v)
			}
		}
	}
	urls = append(urls, validate.DefaultMirror)
	for _, src := range validate.HostAptSources("/etc/apt/sources.list.d", "/etc/apt/sources.list", validate.DefaultSuite) {
		urls = append(urls, urlRe.FindAllString(src.Body, -1)...)
	}
	return egress.NewAllowlist(egress.Registries, urls, ws.Config.Network.Allow)
}

// PackageCache is the cache builds install through ([network]
// package_cache; nil when off or its folder cannot be made): in front of
// the registries this machine's settings name, else the public ones.
func PackageCache(ctx context.Context, ws *workspace.Workspace) (*egress.Cache, error) {
	dir := ws.Config.Network.PackageCache
	switch {
	case dir == "off":
		return nil, nil
	case dir == "":
		base, err := os.UserCacheDir()
		if err != nil {
			return nil, fmt.Errorf("package cache: no user cache folder (%v): set [network] package_cache", err)
		}
		dir = filepath.Join(base, "curate", "packages")
	case strings.HasPrefix(dir, "~/"):
		home, err := os.UserHomeDir()
		if err != nil {
			return nil, fmt.Errorf("package cache %s: %w", dir, err)
		}
		dir = filepath.Join(home, dir[2:])
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("package cache: %w", err)
	}
	settings := map[string]string{}
	for _, kv := range hostNetwork(ctx).Env {
		k, v, _ := strings.Cut(kv, "=")
		settings[k] = v
	}
	return egress.NewCache(dir, egress.Routes(firstProxy(settings["GOPROXY"]), settings["NPM_CONFIG_REGISTRY"],
		settings["PIP_INDEX_URL"], settings["CURATE_MAVEN_MIRROR"])), nil
}

// firstProxy is the first module proxy of a GOPROXY list ("" when the
// list has none: direct or off only).
func firstProxy(list string) string {
	for _, p := range strings.FieldsFunc(list, func(r rune) bool { return r == ',' || r == '|' }) {
		if p != "direct" && p != "off" {
			return p
		}
	}
	return ""
}
