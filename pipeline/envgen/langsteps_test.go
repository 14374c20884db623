package envgen_test

import (
	"curate/pipeline/envgen"
	"curate/pipeline/envgen/java"
	"curate/pipeline/envgen/rust"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The evidence lines the JavaScript, Rust and Java dependency steps add
// when they fail, on output lines these tools printed in this project's
// runs on real repositories.
func TestLanguageStepEvidence(t *testing.T) {
	script := filepath.Join(t.TempDir(), "curate-step")
	if err := os.WriteFile(script, []byte(envgen.StepScript), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ registry, missing, output, want string }{
		{envgen.NPMRegistry, envgen.NPMMissing, "npm error 404 Not Found - GET https://registry.npmjs.org/top-sites/-/top-sites-1.1.225.tgz",
			"curate: deps_missing: top-sites-1.1.225 (not on the npm registry (https://registry.npmjs.org/))"},
		{envgen.NPMRegistry, envgen.NPMMissing, "npm ERR! request to https://registry.npmjs.org/zod failed, reason: getaddrinfo ENOTFOUND registry.npmjs.org",
			"curate: deps_unreachable: the npm registry (https://registry.npmjs.org/) did not answer: npm ERR! request to"},
		{rust.CratesIO, rust.CargoMissing, "error: no matching package named `serde_tesst` found",
			"curate: deps_missing: serde_tesst (not on crates.io (https://index.crates.io))"},
		{rust.CratesIO, rust.CargoMissing, "error[E0599]: no method named `extend_from_within` found for struct `BytesMut`",
			"curate: compile_error: the project does not build at the PR head: error[E0599]: no method named"},
		{java.MavenCentral, java.MavenMissing, "[ERROR] Failed to execute goal on project javapoet: Could not resolve dependencies for project com.squareup:javapoet:jar:1.14.0-SNAPSHOT: Could not find artifact com.google.truth:truth:jar:9.9.9 in central (https://repo.maven.apache.org/maven2)",
			"curate: deps_missing: com.google.truth:truth:jar:9.9.9 (not on Maven Central (https://repo.maven.apache.org/maven2))"},
		{java.MavenCentral, java.MavenMissing, "[ERROR] COMPILATION ERROR : ",
			"curate: compile_error: the project does not build at the PR head: [ERROR] COMPILATION ERROR"},
	} {
		cmd := exec.Command("sh", "-c", envgen.RegistryStep(c.registry, c.missing, "sh -c 'echo \"$0\"; exit 1' "+envgen.ShellQuote(c.output)))
		cmd.Env = append(os.Environ(), "NPM_CONFIG_REGISTRY=", "CURATE_MAVEN_MIRROR=", "PATH="+filepath.Dir(script)+":"+os.Getenv("PATH"))
		out, err := cmd.CombinedOutput()
		if err == nil {
			t.Errorf("%q: the step passed", c.output)
		}
		if !strings.Contains(string(out), c.want) {
			t.Errorf("output of a failing step:\n%s\nwant %q", out, c.want)
		}
	}
}
