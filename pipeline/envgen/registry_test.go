package envgen_test

import (
	"curate/pipeline/envgen"
	"curate/pipeline/envgen/golang"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestStepScriptEvidence runs curate-step (the script builds use) on
// commands that fail the ways registries do, and checks the evidence line
// the failure classifier reads.
func TestStepScriptEvidence(t *testing.T) {
	script := filepath.Join(t.TempDir(), "curate-step")
	if err := os.WriteFile(script, []byte(envgen.StepScript), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ output, want string }{
		{`go: github.com/x/y@v1.2.3: Get "https://proxy.golang.org/github.com/x/y/@v/v1.2.3.mod": dial tcp: lookup proxy.golang.org: no such host`,
			"curate: deps_unreachable: the Go module proxy (https://proxy.example) did not answer: go: github.com/x/y@v1.2.3: Get"},
		{`go: github.com/x/nope@v0.0.9: reading https://proxy.golang.org/github.com/x/nope/@v/v0.0.9.mod: 404 Not Found`,
			"curate: deps_missing: github.com/x/nope@v0.0.9 (not on the Go module proxy (https://proxy.example))"},
		{`something else broke`, "curate: deps_missing: a dependency (see the lines above) (not on the Go module proxy (https://proxy.example))"},
		// A test runner's PR #6197 (merge 19a15a94, 2019-11-15): numpy's
		// 2019 sdist failing to build is no registry out of reach, though
		// "FileNotFoundError" holds "enotfound".
		{`FileNotFoundError: [Errno 2] No such file or directory: 'numpy/version.py'`,
			"curate: deps_missing: a dependency (see the lines above) (not on the Go module proxy (https://proxy.example))"},
		{`npm ERR! request to https://registry.npmjs.org/x failed, reason: getaddrinfo ENOTFOUND registry.npmjs.org`,
			"curate: deps_unreachable: the Go module proxy (https://proxy.example) did not answer: npm ERR! request"},
	} {
		cmd := exec.Command("sh", "-c", envgen.RegistryStep("the Go module proxy ($GOPROXY)", golang.GoMissingSed, "sh -c 'echo \"$0\"; exit 1' "+envgen.ShellQuote(c.output)))
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

func TestDockerfileCarriesNetwork(t *testing.T) {
	p, err := envgen.LanguageFor("python").Plan(envgen.MapTree("o/n", nil), envgen.Tests{Files: []string{"test_x.py"}})
	if err != nil {
		t.Fatal(err)
	}
	net := envgen.Network{CABundle: "/host/ca.pem", Env: []string{"GOPROXY=https://proxy.example,direct", "HTTPS_PROXY=http://proxy:3128", "PIP_CERT=" + "/etc/ssl/certs/ca-certificates.crt"}}
	df := envgen.Dockerfile("o__n-1", envgen.DefaultBaseImage, p, net, envgen.RepoConfig{}, false)
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

// A JVM step gets the build's proxy as system properties (Maven and Gradle
// read no proxy variable), without the proxy URL's user name; a step
// without a proxy gets none.
func TestStepScriptGivesTheJVMTheProxy(t *testing.T) {
	script := filepath.Join(t.TempDir(), "curate-step")
	if err := os.WriteFile(script, []byte(envgen.StepScript), 0o755); err != nil {
		t.Fatal(err)
	}
	for proxy, want := range map[string]string{
		"http://build-2:x@172.19.0.1:42231": "-Dhttp.proxyHost=172.19.0.1 -Dhttp.proxyPort=42231 -Dhttps.proxyHost=172.19.0.1 -Dhttps.proxyPort=42231",
		"http://proxy.internal":             "-Dhttp.proxyHost=proxy.internal -Dhttp.proxyPort=80",
		"":                                  "",
	} {
		cmd := exec.Command("sh", "-c", envgen.RegistryStep("Maven Central", "", `sh -c 'echo "opts=[$JAVA_TOOL_OPTIONS] args=[$MAVEN_ARGS]"'`))
		cmd.Env = append(os.Environ(), "HTTPS_PROXY="+proxy, "JAVA_TOOL_OPTIONS=", "MAVEN_ARGS=", "PATH="+filepath.Dir(script)+":"+os.Getenv("PATH"))
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s: %v\n%s", proxy, err, out)
		}
		if !strings.Contains(string(out), "opts=["+want) || want == "" && !strings.Contains(string(out), "opts=[]") {
			t.Errorf("HTTPS_PROXY=%q: %s, want %q", proxy, out, want)
		}
		// Maven 3.9 (fetched when a POM or plugin needs it) reads no
		// system property with its own transport: gson PR 3092's build
		// fetched 3.9.9, which then "could not reach the registry".
		wantArgs := "args=[-Dmaven.resolver.transport=wagon]"
		if want == "" {
			wantArgs = "args=[]"
		}
		if !strings.Contains(string(out), wantArgs) {
			t.Errorf("HTTPS_PROXY=%q: %s, want %s", proxy, out, wantArgs)
		}
	}
}
