package envgen

import (
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestStepScriptEvidence runs curate-step (the script builds use) on
// commands that fail the ways registries do, and checks the evidence line
// the failure classifier reads.
func TestStepScriptEvidence(t *testing.T) {
	script := filepath.Join(t.TempDir(), "curate-step")
	if err := os.WriteFile(script, []byte(stepScript), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ output, want string }{
		{`go: github.com/x/y@v1.2.3: Get "https://proxy.golang.org/github.com/x/y/@v/v1.2.3.mod": dial tcp: lookup proxy.golang.org: no such host`,
			"curate: deps_unreachable: the Go module proxy (https://proxy.example) did not answer: go: github.com/x/y@v1.2.3: Get"},
		{`go: github.com/x/nope@v0.0.9: reading https://proxy.golang.org/github.com/x/nope/@v/v0.0.9.mod: 404 Not Found`,
			"curate: deps_missing: github.com/x/nope@v0.0.9 (not on the Go module proxy (https://proxy.example))"},
		{`something else broke`, "curate: deps_missing: a dependency (see the lines above) (not on the Go module proxy (https://proxy.example))"},
	} {
		cmd := exec.Command("sh", "-c", registryStep("the Go module proxy ($GOPROXY)", goMissingSed, "sh -c 'echo \"$0\"; exit 1' "+shellQuote(c.output)))
		cmd.Env = append(os.Environ(), "GOPROXY=https://proxy.example", "PATH="+filepath.Dir(script)+":"+os.Getenv("PATH"))
		out, err := cmd.CombinedOutput()
		if err == nil {
			t.Errorf("%q: the step passed", c.output)
		}
		if !strings.Contains(string(out), c.want) || !strings.Contains(string(out), c.output) {
			t.Errorf("output of a failing step:\n%s\nwant the command's output and %q", out, c.want)
		}
	}
}

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

func TestDockerfileCarriesNetwork(t *testing.T) {
	p, err := LanguageFor("python").Plan(MapTree("o/n", nil), Tests{Files: []string{"test_x.py"}})
	if err != nil {
		t.Fatal(err)
	}
	net := Network{CABundle: "/host/ca.pem", Env: []string{"GOPROXY=https://proxy.example,direct", "HTTPS_PROXY=http://proxy:3128", "PIP_CERT=" + imageCABundle}}
	df := Dockerfile("o__n-1", DefaultBaseImage, p, net, RepoConfig{}, false)
	for _, want := range []string{"COPY curate-ca.crt /tmp/curate-ca.crt", "update-ca-certificates", "ENV GOPROXY=https://proxy.example,direct",
		"ENV HTTPS_PROXY=http://proxy:3128", "COPY curate-step.sh /usr/local/bin/curate-step"} {
		if !strings.Contains(df, want) {
			t.Errorf("Dockerfile lacks %q:\n%s", want, df)
		}
	}
	if strings.Index(df, "update-ca-certificates") > strings.Index(df, "apt-get install") {
		t.Error("the CA bundle must be trusted before anything is fetched")
	}
}
