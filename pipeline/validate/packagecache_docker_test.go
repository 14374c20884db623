package validate_test

import (
	"context"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"curate/internal/testenv"
	"curate/pipeline/envgen"
	"curate/pipeline/validate/egress"
)

// installScript installs one package per registry through curate-step,
// as envgen's install steps do, each in a folder of its own: pip (six),
// npm (left-pad), Maven (junit, then again offline, as the tests' runs
// resolve it) and cargo (itoa, then again offline, as
// later steps and the tests' runs build), with the host's CAs trusted.
const installScript = `awk '/BEGIN CERT/{n++; f=sprintf("/usr/local/share/ca-certificates/t%04d.crt", n)} n>0{print > f} /END CERT/{close(f)}' /ca.crt && update-ca-certificates >/dev/null 2>&1; ` +
	`chmod +x /curate-step.sh; export SSL_CERT_FILE=/etc/ssl/certs/ca-certificates.crt PIP_CERT=/etc/ssl/certs/ca-certificates.crt NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt; ` +
	`/curate-step.sh PyPI '' python3 -m pip install -q --no-deps --target /tmp/py six==1.16.0 && echo PIP-"OK"; ` +
	`mkdir -p /tmp/js && cd /tmp/js && /curate-step.sh npm '' npm install --no-audit --no-fund --no-save left-pad@1.3.0 && echo NPM-"OK"; ` +
	`/curate-step.sh 'Maven Central' '' mvn -B -ntp org.apache.maven.plugins:maven-dependency-plugin:3.6.1:get -Dartifact=junit:junit:4.13.2 -Dtransitive=false && echo MVN-"OK" && ` +
	`mvn -B -ntp -o org.apache.maven.plugins:maven-dependency-plugin:3.6.1:get -Dartifact=junit:junit:4.13.2 -Dtransitive=false && echo MVNOFF-"OK"; ` +
	`mkdir -p /tmp/rs/src && cd /tmp/rs && printf '[package]\nname = "r"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\nitoa = "=1.0.11"\n' > Cargo.toml && : > src/lib.rs && ` +
	`/curate-step.sh crates.io '' cargo fetch && echo CARGO-"OK" && cargo fetch --offline && echo OFFLINE-"OK"; ` +
	`test -e /root/.m2/settings.xml && echo SETTINGS-"LEFT"; true`

var cacheCountRe = regexp.MustCompile(`package cache: (\d+) from the cache \([^)]*\), (\d+) fetched`)

// pip, npm, Maven and cargo install through curate's package cache when the
// build is given it (a build arg, as envgen's Dockerfiles declare it): a
// first build fetches six's wheel, left-pad's tarball, junit's jar and
// Maven's plugins, and itoa's crate into the cache, a second build of another image gets
// them all from there, and neither leaves the cache's Maven settings in
// the image (issue 53: each image downloaded its dependencies again).
func TestPipNpmMavenCargoInstallThroughThePackageCache(t *testing.T) {
	_, r := testValidator(t)
	ca, err := os.ReadFile(envgen.SystemCABundle)
	if err != nil {
		t.Skipf("no CA bundle: %v", err)
	}
	cache := egress.NewCache(t.TempDir(), egress.Routes("", "", "", ""))
	r.SetPackageCache(func() (*egress.Cache, error) { return cache, nil })
	img := testenv.PackagesImage(t, "python3-pip", "npm", "maven", "ca-certificates-java", "cargo-web")
	var fetched [2]string
	for i := range 2 {
		// Another echo each build and each run: no layer of the engine's
		// cache stands in for the installs.
		script := installScript + fmt.Sprintf("; echo build %d of %d", i, time.Now().UnixNano())
		dir := hostileBuildTask(t, img, "", "true", map[string]string{"ca.crt": string(ca), "curate-step.sh": envgen.StepScript})
		df, _ := os.ReadFile(dir + "/environment/Dockerfile")
		os.WriteFile(dir+"/environment/Dockerfile", []byte(strings.Replace(string(df), "RUN true", "ARG "+envgen.PackageCacheArg+"\nRUN "+script, 1)), 0o644)
		var log strings.Builder
		if _, _, err := r.Image(context.Background(), dir, &log); err != nil {
			t.Fatalf("build %d: %v\n%s", i, err, log.String())
		}
		out := log.String()
		for _, ok := range []string{"PIP-OK", "NPM-OK", "MVN-OK", "MVNOFF-OK", "CARGO-OK", "OFFLINE-OK"} {
			if !strings.Contains(out, ok) {
				t.Errorf("build %d: no %s:\n%s", i, ok, out)
			}
		}
		if strings.Contains(out, "SETTINGS-LEFT") {
			t.Errorf("build %d: the cache's Maven settings stayed in the image", i)
		}
		m := cacheCountRe.FindStringSubmatch(out)
		if m == nil {
			t.Fatalf("build %d: no package cache line:\n%s", i, out)
		}
		t.Logf("build %d: %s", i, m[0])
		if os.Getenv("CURATE_TEST_SHOW") != "" {
			t.Log(out)
		}
		fetched[i] = m[2]
		for _, reg := range []string{"Maven", "PyPI", "crates", "npm"} {
			if !regexp.MustCompile(`; files: .*\b` + reg + ` [1-9]`).MatchString(out) {
				t.Errorf("build %d: no file of %s through the cache:\n%s", i, reg, out)
			}
		}
		if i == 0 && (m[2] == "0" || m[1] != "0") {
			t.Errorf("the first build fetched nothing into an empty cache: %s", m[0])
		}
		if i == 1 && (m[2] != "0" || m[1] == "0") {
			t.Errorf("the second build fetched again what the first had: %s\n%s", m[0], out)
		}
	}
}
