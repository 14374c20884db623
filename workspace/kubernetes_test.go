package workspace

import (
	"strings"
	"testing"
)

func TestKubernetesConfig(t *testing.T) {
	good := "[kubernetes]\nkubeconfig = \"kube.yaml\"\ncontext = \"ci\"\nnamespace = \"curate\"\nregistry = \"127.0.0.1:5000\"\n" +
		"image_pull_secret = \"regcred\"\nparallelism = 4\nrequests = { cpu = \"500m\", memory = \"1Gi\" }\nmemory = \"4G\"\ncpus = 2\negress_proxy = \"10.0.0.5:3128\"\n"
	cfg, err := ParseConfig("curate.toml", []byte(good))
	if err != nil {
		t.Fatal(err)
	}
	k := cfg.Kube
	if k.Namespace != "curate" || k.Registry != "127.0.0.1:5000" || k.Parallelism != 4 || k.Requests["memory"] != "1Gi" || k.CPUs != 2 || k.EgressProxy != "10.0.0.5:3128" {
		t.Errorf("parsed %+v", k)
	}
	cases := []struct{ text, want string }{
		{"[kubernetes]\nparallelism = -1\n", "curate.toml:2:1: kubernetes.parallelism: -1"},
		{"[kubernetes]\nnamespace = \"My_NS\"\n", "curate.toml:2:1: kubernetes.namespace: \"My_NS\""},
		{"[kubernetes]\nregistry = \"https://r.example\"\n", "curate.toml:2:1: kubernetes.registry: \"https://r.example\": want host[:port][/path]"},
		{"[kubernetes]\nrequests = { gpu = \"1\" }\n", "kubernetes.requests.gpu: unknown resource"},
		{"[kubernetes]\nrequests = { cpu = \"half\" }\n", "kubernetes.requests.cpu: \"half\": want a quantity"},
		{"[kubernetes]\nmemory = \"lots\"\n", "curate.toml:2:1: kubernetes.memory: \"lots\""},
		{"[kubernetes]\nnodes = 3\n", "unknown key \"kubernetes.nodes\""},
		{"[kubernetes]\negress_proxy = \"proxy.internal:3128\"\n", "curate.toml:2:1: kubernetes.egress_proxy: \"proxy.internal:3128\": want the proxy's IP address and port"},
		{"[kubernetes]\negress_proxy = \"10.0.0.5\"\n", "curate.toml:2:1: kubernetes.egress_proxy: \"10.0.0.5\""},
	}
	for _, c := range cases {
		if _, err := ParseConfig("curate.toml", []byte(c.text)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: got %v, want %q", c.text, err, c.want)
		}
	}
}

// [kubernetes] builder and buildkit_addr: read, and wrong values refused
// naming the line.
func TestKubernetesBuilderConfig(t *testing.T) {
	cfg, err := ParseConfig("curate.toml", []byte("[kubernetes]\nbuilder = \"buildkit\"\nbuildkit_addr = \"tcp://buildkitd.ci:1234\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Kube.Builder != "buildkit" || cfg.Kube.BuildKitAddr != "tcp://buildkitd.ci:1234" {
		t.Errorf("parsed %+v", cfg.Kube)
	}
	for text, want := range map[string]string{
		"[kubernetes]\nbuilder = \"kaniko\"\n":               "curate.toml:2:1: kubernetes.builder: \"kaniko\": want \"docker\" or \"buildkit\"",
		"[kubernetes]\nbuildkit_addr = \"buildkitd:1234\"\n": "curate.toml:2:1: kubernetes.buildkit_addr: \"buildkitd:1234\": want tcp://host:port",
	} {
		if _, err := ParseConfig("curate.toml", []byte(text)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: got %v, want %q", text, err, want)
		}
	}
}
