package workspace

import (
	"net"
	"regexp"
	"strconv"
	"strings"
)

// KubernetesConfig is [kubernetes]: where `curate validate --engine
// kubernetes` runs (see docs/kubernetes.md).
type KubernetesConfig struct {
	// Kubeconfig is the kubeconfig file ("" = KUBECONFIG, else
	// ~/.kube/config); Context one of its contexts ("" = its current one).
	Kubeconfig string `toml:"kubeconfig"`
	Context    string `toml:"context"`
	// Namespace receives the runs ("" = the context's, else "default").
	Namespace string `toml:"namespace"`
	// Registry is where task images are pushed and the cluster pulls them
	// from: host[:port][/path], such as "127.0.0.1:5000".
	Registry string `toml:"registry"`
	// PullSecret names an image pull secret in Namespace, for a registry
	// that needs credentials.
	PullSecret string `toml:"image_pull_secret"`
	// Parallelism is Jobs in flight at once (default: [docker] concurrency).
	Parallelism int `toml:"parallelism"`
	// Requests is what each run's pod asks the scheduler for ("cpu",
	// "memory" as Kubernetes quantities); its limits are the task's, else
	// Memory and CPUs here, else [docker] memory and cpus.
	Requests map[string]string `toml:"requests"`
	Memory   string            `toml:"memory"`
	CPUs     float64           `toml:"cpus"`
	// EgressProxy is "IP:port" of an HTTP forward proxy the pods reach
	// (curate's allowlist does not run in the cluster): under
	// task_network = "allowlist" a task asking for the network may reach
	// it and nothing else. An address, not a name: a NetworkPolicy allows
	// addresses, and a pod without DNS cannot resolve one.
	EgressProxy string `toml:"egress_proxy"`
	// Builder builds task images: "docker" (default), the local engine,
	// which pushes them; or "buildkit", a buildkitd in the cluster, which
	// pushes them itself (no local engine needed).
	Builder string `toml:"builder"`
	// BuildKitAddr is buildkitd's address for builder = "buildkit", such as
	// "tcp://buildkitd.ci:1234" ("" = a port forward through the API
	// server to the one `curate env buildkit install` made in Namespace).
	BuildKitAddr string `toml:"buildkit_addr"`
}

// quantity is a Kubernetes resource quantity such as "500m", "2" or "1Gi".
var quantity = regexp.MustCompile(`^[0-9]+(\.[0-9]+)?(m|k|M|G|T|Ki|Mi|Gi|Ti)?$`)

// dnsLabel is a Kubernetes namespace or secret name.
var dnsLabel = regexp.MustCompile(`^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$`)

func (c *Config) validateKubernetes() error {
	k := c.Kube
	if k.Parallelism < 0 {
		return c.Errorf("kubernetes.parallelism", "%d: must be at least 1", k.Parallelism)
	}
	if k.Namespace != "" && (!dnsLabel.MatchString(k.Namespace) || len(k.Namespace) > 63) {
		return c.Errorf("kubernetes.namespace", "%q: want a namespace name (lower-case letters, digits and '-')", k.Namespace)
	}
	if k.PullSecret != "" && !dnsLabel.MatchString(k.PullSecret) {
		return c.Errorf("kubernetes.image_pull_secret", "%q: want a secret name", k.PullSecret)
	}
	if k.Registry != "" && (strings.Contains(k.Registry, "://") || strings.ContainsAny(k.Registry, " @")) {
		return c.Errorf("kubernetes.registry", "%q: want host[:port][/path] without a scheme, such as \"127.0.0.1:5000\"", k.Registry)
	}
	for name, v := range k.Requests {
		if name != "cpu" && name != "memory" {
			return c.Errorf("kubernetes.requests."+name, "unknown resource: want cpu or memory")
		}
		if !quantity.MatchString(v) {
			return c.Errorf("kubernetes.requests."+name, "%q: want a quantity such as \"500m\" or \"1Gi\"", v)
		}
	}
	if k.Memory != "" && !sizeValue.MatchString(k.Memory) {
		return c.Errorf("kubernetes.memory", "%q: want a size such as \"4G\" or \"512M\"", k.Memory)
	}
	if k.CPUs < 0 {
		return c.Errorf("kubernetes.cpus", "%v: want a number > 0 (0 or absent: [docker] cpus)", k.CPUs)
	}
	if k.Builder != "" && k.Builder != "docker" && k.Builder != "buildkit" {
		return c.Errorf("kubernetes.builder", "%q: want \"docker\" or \"buildkit\"", k.Builder)
	}
	if a := k.BuildKitAddr; a != "" && !strings.HasPrefix(a, "tcp://") && !strings.HasPrefix(a, "unix://") {
		return c.Errorf("kubernetes.buildkit_addr", "%q: want tcp://host:port or unix:///path", a)
	}
	if k.EgressProxy != "" {
		host, port, err := net.SplitHostPort(k.EgressProxy)
		if n, perr := strconv.Atoi(port); err != nil || net.ParseIP(host) == nil || perr != nil || n < 1 || n > 65535 {
			return c.Errorf("kubernetes.egress_proxy", "%q: want the proxy's IP address and port, such as \"10.0.0.5:3128\"", k.EgressProxy)
		}
	}
	return nil
}

// sizeValue is a memory size as [docker] memory takes it.
var sizeValue = regexp.MustCompile(`^[0-9]+(\.[0-9]+)?\s*([kKmMgGtT]i?[bB]?)?$`)
