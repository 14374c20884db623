package envgen

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"regexp"
	"sort"
	"strings"
	"time"
)

// SystemCABundle is Debian's bundle of trusted certificates; builds trust
// it by default so registries behind a TLS-intercepting proxy answer.
const SystemCABundle = "/etc/ssl/certs/ca-certificates.crt"

// imageCABundle is where the bundle ends up inside the image.
const imageCABundle = "/etc/ssl/certs/ca-certificates.crt"

// caFile is the bundle's name in the build context (environment/).
const caFile = "curate-ca.crt"

// Network is what a build needs to reach package registries: the CA
// bundle the host trusts, and the host's registry settings as ENV lines.
// Validation containers run without network whatever this says.
type Network struct {
	CABundle string   // host path of a PEM bundle; "" = add none
	Env      []string // KEY=VALUE, sorted
	Notes    []string // what was carried, and from where
}

// HostNetwork reads the machine's registry settings: the CA bundle
// (caBundle, "" = the system bundle when present, "none" = no bundle), Go's
// proxy settings, pip's index and config, npm's registry, a Maven mirror,
// and HTTP(S)_PROXY/NO_PROXY. Missing tools are skipped.
func HostNetwork(ctx context.Context, caBundle string) Network {
	n := Network{}
	switch caBundle {
	case "none":
	case "":
		if _, err := os.Stat(SystemCABundle); err == nil {
			n.CABundle = SystemCABundle
		}
	default:
		n.CABundle = caBundle
	}
	env := map[string]string{}
	for _, k := range []string{"HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY", "http_proxy", "https_proxy", "no_proxy"} {
		if v := os.Getenv(k); v != "" {
			env[k] = v
		}
	}
	if n.CABundle != "" {
		for _, k := range []string{"SSL_CERT_FILE", "REQUESTS_CA_BUNDLE", "CURL_CA_BUNDLE", "GIT_SSL_CAINFO",
			"PIP_CERT", "NODE_EXTRA_CA_CERTS", "NPM_CONFIG_CAFILE", "CARGO_HTTP_CAINFO"} {
			env[k] = imageCABundle
		}
	}
	// Only these keys: a bare `go env` computes GOGCCFLAGS in a go-build*
	// work folder of its own, which a kill of curate would leave behind.
	goKeys := []string{"GOPROXY", "GONOSUMDB", "GONOPROXY", "GOPRIVATE", "GOSUMDB", "GOINSECURE"}
	if out := hostOutput(ctx, "go", append([]string{"env", "-json"}, goKeys...)...); out != nil {
		var goenv map[string]string
		if json.Unmarshal(out, &goenv) == nil {
			for _, k := range goKeys {
				if v := goenv[k]; v != "" {
					env[k] = v
				}
			}
		}
	}
	for k, v := range pipSettings(hostOutput(ctx, "python3", "-m", "pip", "config", "list")) {
		env[k] = v
	}
	if v := os.Getenv("PIP_INDEX_URL"); v != "" {
		env["PIP_INDEX_URL"] = v
	}
	if out := hostOutput(ctx, "npm", "config", "get", "registry"); out != nil {
		if v := strings.TrimSpace(string(out)); strings.Contains(v, "://") {
			env["NPM_CONFIG_REGISTRY"] = v
		}
	}
	if home, err := os.UserHomeDir(); err == nil {
		if data, err := os.ReadFile(home + "/.m2/settings.xml"); err == nil {
			if m := mavenMirrorRe.FindSubmatch(data); m != nil {
				env["CURATE_MAVEN_MIRROR"] = string(m[1])
			}
		}
	}
	for k, v := range env {
		n.Env = append(n.Env, k+"="+v)
	}
	sort.Strings(n.Env)
	var keys []string
	for _, kv := range n.Env {
		if k, _, _ := strings.Cut(kv, "="); !strings.HasSuffix(k, "_CAINFO") && !strings.HasSuffix(k, "CA_BUNDLE") && !strings.Contains(k, "CERT") && !strings.HasSuffix(k, "CAFILE") {
			keys = append(keys, k)
		}
	}
	if n.CABundle != "" {
		n.Notes = append(n.Notes, "network at build time: trusts "+n.CABundle+" ([docker] ca_bundle), installed with update-ca-certificates")
	}
	if len(keys) > 0 {
		n.Notes = append(n.Notes, "network at build time: the host's "+strings.Join(keys, ", ")+" (go env, pip config, npm config, ~/.m2, environment)")
	}
	return n
}

var mavenMirrorRe = regexp.MustCompile(`(?s)<mirror>.*?<url>\s*([^<\s]+)\s*</url>`)

// pipSettings maps `pip config list` lines (section.key='value') to PIP_*
// variables. The certificate is the image's bundle, not a host path, and
// local find-links folders (e.g. /opt/wheels) exist only on the host.
func pipSettings(out []byte) map[string]string {
	env := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		key, val, ok := strings.Cut(sc.Text(), "=")
		if !ok {
			continue
		}
		if i := strings.LastIndex(key, "."); i >= 0 {
			key = key[i+1:]
		}
		val = strings.Trim(strings.TrimSpace(val), `'"`)
		switch key {
		case "index-url", "extra-index-url", "trusted-host", "default-timeout":
			env["PIP_"+strings.ToUpper(strings.ReplaceAll(key, "-", "_"))] = val
		case "find-links":
			if strings.Contains(val, "://") {
				env["PIP_FIND_LINKS"] = val
			}
		}
	}
	return env
}

// hostOutput runs a host tool briefly; nil when it is missing or fails.
func hostOutput(ctx context.Context, name string, args ...string) []byte {
	if _, err := exec.LookPath(name); err != nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, name, args...).Output()
	if err != nil {
		return nil
	}
	return out
}

// caStep installs the bundle (COPY'd to /tmp/curate-ca.crt) as one
// certificate per file, so update-ca-certificates and its hooks (Java's
// trust store, from ca-certificates-java) pick up every one; without
// update-ca-certificates the bundle replaces the image's.
const caStep = `mkdir -p /usr/local/share/ca-certificates/curate && ` +
	`awk '/-----BEGIN CERTIFICATE-----/{n++; f=sprintf("/usr/local/share/ca-certificates/curate/host-%04d.crt", n)} n>0{print > f} /-----END CERTIFICATE-----/{close(f)}' /tmp/curate-ca.crt && ` +
	`if command -v update-ca-certificates >/dev/null 2>&1; then update-ca-certificates >/dev/null; ` +
	`else mkdir -p /etc/ssl/certs && cp /tmp/curate-ca.crt ` + imageCABundle + `; fi && rm -f /tmp/curate-ca.crt`
