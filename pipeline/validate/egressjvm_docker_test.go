package validate_test

import (
	"context"
	"os"
	"strings"
	"testing"

	"curate/internal/testenv"
	"curate/pipeline/envgen"
)

// A Maven build through curate-step (the JVM gets the proxy as system
// properties, no credentials: a JVM sends none on CONNECT) downloads from
// Maven Central, and the build log's hosts reached name it (issue 51: the
// notes left Maven Central out, as the proxy knew a build only by the
// proxy URL's user name).
func TestBuildNetworkNamesMavenCentral(t *testing.T) {
	_, r := testValidator(t)
	ca, err := os.ReadFile(envgen.SystemCABundle)
	if err != nil {
		t.Skipf("no CA bundle: %v", err)
	}
	img := testenv.PackagesImage(t, "maven", "ca-certificates-java")
	// The machine's registries may be behind a TLS-intercepting proxy: the
	// JVM's trust store gets the host's CAs, as envgen's builds do.
	// One certificate a file: update-ca-certificates reads the first of each.
	script := `awk '/BEGIN CERT/{n++; f=sprintf("/usr/local/share/ca-certificates/t%04d.crt", n)} n>0{print > f} /END CERT/{close(f)}' /ca.crt && update-ca-certificates >/dev/null 2>&1; ` +
		"chmod +x /curate-step.sh && /curate-step.sh 'Maven Central' '' mvn -B -ntp " +
		"org.apache.maven.plugins:maven-dependency-plugin:3.6.1:get -Dartifact=junit:junit:4.13.2 -Dtransitive=false; echo MVN-EXIT=$?"
	dir := hostileBuildTask(t, img, "", script, map[string]string{"ca.crt": string(ca), "curate-step.sh": envgen.StepScript})
	var log strings.Builder
	if _, _, err := r.Image(context.Background(), dir, &log); err != nil {
		t.Fatalf("build: %v\n%s", err, log.String())
	}
	out := log.String()
	if !strings.Contains(out, "MVN-EXIT=0") {
		t.Fatalf("Maven did not download through the proxy:\n%s", out)
	}
	i := strings.Index(out, "curate: network: build reached ")
	if i < 0 {
		t.Fatalf("no hosts-reached line:\n%s", out)
	}
	line, _, _ := strings.Cut(out[i:], "\n")
	if !strings.Contains(line, "repo.maven.apache.org") {
		t.Errorf("the build's hosts reached leave out Maven Central: %q", line)
	}
}
