package app

import (
	"context"
	"regexp"
	"strings"

	"curate/pipeline/envgen"
	"curate/pipeline/validate"
	"curate/pipeline/validate/egress"
	"curate/workspace"
)

// registryKeys are the build settings (envgen.HostNetwork) that name a
// registry or mirror a build installs from.
var registryKeys = []string{"GOPROXY", "PIP_INDEX_URL", "PIP_EXTRA_INDEX_URL", "NPM_CONFIG_REGISTRY", "CURATE_MAVEN_MIRROR"}

var urlRe = regexp.MustCompile(`https?://[^\s"']+`)

// EgressAllowlist is what builds may reach: the package registries, the
// registries and Debian mirrors this machine's settings name (they go into
// builds), and curate.toml's [network] allow (checked when it was read).
func EgressAllowlist(ctx context.Context, ws *workspace.Workspace) (*egress.Allowlist, error) {
	var urls []string
	for _, kv := range envgen.HostNetwork(ctx, "none").Env {
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
