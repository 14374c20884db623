package envgen

import (
	"context"
	"os"
	"reflect"
	"strings"
	"testing"
)

func TestPipSettingsFromHostConfig(t *testing.T) {
	got := pipSettings([]byte(`:env:.cert='/etc/ssl/certs/ca-certificates.crt'
:env:.default-timeout='180'
:env:.find-links='/opt/wheels'
global.index-url='https://pypi.example/simple'
global.extra-index-url='https://extra.example/simple'
user.find-links='https://wheels.example/'
global.trusted-host='pypi.example'
`))
	want := map[string]string{"PIP_DEFAULT_TIMEOUT": "180", "PIP_INDEX_URL": "https://pypi.example/simple",
		"PIP_EXTRA_INDEX_URL": "https://extra.example/simple", "PIP_FIND_LINKS": "https://wheels.example/", "PIP_TRUSTED_HOST": "pypi.example"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("pip settings\n got  %v\n want %v (the host's cert path and local find-links stay on the host)", got, want)
	}
}

func TestHostNetworkBundleChoice(t *testing.T) {
	if n := HostNetwork(context.Background(), "none"); n.CABundle != "" {
		t.Errorf(`ca_bundle "none" still adds %s`, n.CABundle)
	}
	if n := HostNetwork(context.Background(), "/corp/ca.pem"); n.CABundle != "/corp/ca.pem" || !strings.Contains(strings.Join(n.Env, " "), "PIP_CERT="+imageCABundle) {
		t.Errorf("explicit bundle: %+v", n)
	}
	if _, err := os.Stat(SystemCABundle); err == nil {
		if n := HostNetwork(context.Background(), ""); n.CABundle != SystemCABundle {
			t.Errorf("default bundle %q, want the system's", n.CABundle)
		}
	}
}

func TestIsBenchmark(t *testing.T) {
	for p, want := range map[string]bool{
		"bench/test_benchmarks.py": true, "benchmarks/test_x.py": true, "tests/test_benchmark_utils.py": true,
		"tests/test_make.py": false, "test/bench_test.go": false, "src/benchlib/test_a.py": false,
	} {
		if got := isBenchmark(p); got != want {
			t.Errorf("isBenchmark(%q) = %v, want %v", p, got, want)
		}
	}
}

func TestWithOverride(t *testing.T) {
	run := withOverride(Runner{Command: "go test ./...", LogFormat: "go"}, "make test TESTS='{tests}'", []string{"x_test.go"})
	if run.Command != "make test TESTS=''x_test.go''" {
		t.Errorf("test command %q", run.Command)
	}
}
