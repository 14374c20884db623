package java

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"curate/pipeline/envgen"
)

// runMvnTool runs curate-mvn as the plan writes it, with HOME, the
// build-notes file and the folders it installs Maven into under dir, and
// dir/bin first on PATH (where it links a fetched Maven).
func runMvnTool(t *testing.T, dir string, args ...string) (string, error) {
	t.Helper()
	p := &envgen.Plan{}
	mvnTool(p)
	tool := filepath.Join(dir, "curate-mvn")
	if err := os.WriteFile(tool, []byte(p.Tools["curate-mvn"]), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{"bin", "opt", "home", "fake"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(tool, args...)
	cmd.Env = append(os.Environ(), "HOME="+filepath.Join(dir, "home"), "CURATE_MVN_BIN="+filepath.Join(dir, "bin"),
		"CURATE_MVN_OPT="+filepath.Join(dir, "opt"), "CURATE_BUILD_NOTES="+filepath.Join(dir, "notes"),
		"CURATE_MVN_LOG="+filepath.Join(dir, "mvn.log"),
		"PATH="+filepath.Join(dir, "bin")+":"+filepath.Join(dir, "fake")+":"+os.Getenv("PATH"))
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// TestMvnToolRetriesTransfers runs curate-mvn with a stand-in command: a
// transfer failure is tried again (its output not shown once a retry
// passes), another failure is not, and three transfer failures fail.
func TestMvnToolRetriesTransfers(t *testing.T) {
	for _, c := range []struct {
		name     string
		fails    int    // attempts that fail before one passes
		message  string // what a failing attempt prints
		wantRuns string
		ok       bool
	}{
		{"transfer once", 1, "Connect to repo.maven.apache.org:443 failed: Connect timed out", "2", true},
		{"compile error", 1, "COMPILATION ERROR", "1", false},
		{"transfer always", 9, "Could not transfer artifact x", "3", false},
	} {
		dir := t.TempDir()
		script := fmt.Sprintf(`n=$(( $(cat %[1]s/runs 2>/dev/null || echo 0) + 1 )); echo $n > %[1]s/runs; if [ $n -gt %[2]d ]; then echo BUILD SUCCESS; else echo "%[3]s"; exit 1; fi`, dir, c.fails, c.message)
		out, err := runMvnTool(t, dir, "sh", "-c", script)
		runs, _ := os.ReadFile(filepath.Join(dir, "runs"))
		if (err == nil) != c.ok || strings.TrimSpace(string(runs)) != c.wantRuns {
			t.Errorf("%s: err %v, runs %s, output:\n%s", c.name, err, runs, out)
		}
		if c.ok && strings.Contains(out, c.message) {
			t.Errorf("%s: a transfer error a retry got past is shown:\n%s", c.name, out)
		}
		if !c.ok && !strings.Contains(out, c.message) {
			t.Errorf("%s: the failing attempt's output is hidden:\n%s", c.name, out)
		}
	}
}

// fakeDebianMaven stands in for Debian's Maven 3.8.7 under a project whose
// parent POM's enforcer rule wants more: it fails as maven-enforcer-plugin
// 3.x does (apache/commons-lang at its 2025 head, parent
// org.apache.commons:commons-parent from Maven Central: "[ERROR] Detected
// Maven Version: 3.8.7 is not in the allowed range [3.9,)."), and its
// dependency:get of org.apache.maven:apache-maven:V:tar.gz:bin puts a
// distribution whose mvn passes into the local repository.
const fakeDebianMaven = `#!/bin/sh
case "$*" in
*dependency:get*apache-maven:*)
  v=$(echo "$*" | sed -E 's/.*apache-maven:([^:]+):tar.gz.*/\1/')
  if [ "$v" = 9.9.9 ]; then echo "[ERROR] Could not find artifact org.apache.maven:apache-maven:tar.gz:bin:$v"; exit 1; fi
  d=$(mktemp -d); mkdir -p $d/apache-maven-$v/bin
  printf '#!/bin/sh\necho "BUILD SUCCESS with Maven %s: $*"\n' $v > $d/apache-maven-$v/bin/mvn; chmod +x $d/apache-maven-$v/bin/mvn
  r=$HOME/.m2/repository/org/apache/maven/apache-maven/$v; mkdir -p $r
  tar -czf $r/apache-maven-$v-bin.tar.gz -C $d apache-maven-$v ;;
-v)
  echo "Apache Maven 3.8.7" ;;
*)
  if [ -n "$PLUGIN" ]; then
    echo "[ERROR] Failed to execute goal $PLUGIN:generate-test (default) on project proto: The plugin $PLUGIN requires Maven version 3.9.6 -> [Help 1]"
    exit 1
  fi
  echo "[INFO] --- maven-enforcer-plugin:3.5.0:enforce (enforce-maven-version) @ commons-lang3 ---"
  echo "[ERROR] Rule 0: org.apache.maven.enforcer.rules.version.RequireMavenVersion failed with message:"
  echo "[ERROR] Detected Maven Version: 3.8.7 is not in the allowed range $RANGE."
  exit 1 ;;
esac
`

// TestMvnToolMeetsParentEnforcerRule: a requireMavenVersion rule the plan
// could not read (it is in the parent POM) is met by fetching a Maven it
// allows, noted as a build note; one that no fetchable Maven meets is
// toolchain_mismatch naming the rule.
func TestMvnToolMeetsParentEnforcerRule(t *testing.T) {
	for _, c := range []struct{ rng, want, note string }{
		{"[3.9,)", "BUILD SUCCESS with Maven " + fallbackMaven + ": -B -ntp test", "curate: note: maven " + fallbackMaven + " from maven-enforcer-plugin requireMavenVersion [3.9,)"},
		{"[3.9.11,4)", "BUILD SUCCESS with Maven 3.9.11: -B -ntp test", "curate: note: maven 3.9.11 from maven-enforcer-plugin requireMavenVersion [3.9.11,4)"},
		{"[9.9.9,)", "curate: toolchain_mismatch: maven-enforcer-plugin requireMavenVersion [9.9.9,) wants a newer Maven than 3.8.7, and Apache Maven 9.9.9 could not be fetched from Maven Central", ""},
	} {
		dir := t.TempDir()
		if err := os.MkdirAll(filepath.Join(dir, "fake"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "fake", "mvn"), []byte(fakeDebianMaven), 0o755); err != nil {
			t.Fatal(err)
		}
		t.Setenv("RANGE", c.rng)
		out, err := runMvnTool(t, dir, "mvn", "-B", "-ntp", "test")
		if !strings.Contains(out, c.want) || (err == nil) != (c.note != "") {
			t.Errorf("%s: err %v, output:\n%s", c.rng, err, out)
		}
		notes, _ := os.ReadFile(filepath.Join(dir, "notes"))
		if c.note != "" && !strings.HasPrefix(string(notes), c.note) {
			t.Errorf("%s: build notes %q, want %q", c.rng, notes, c.note)
		}
	}
}

// A plugin whose own POM needs a newer Maven than Debian's (google/gson's
// PRs 3061 and 3092, held out: "The plugin
// io.github.ascopes:protobuf-maven-plugin:5.1.7 requires Maven version
// 3.9.6", which curate read as a dependency missing from Maven Central) is
// met the same way: that Maven is fetched and the build runs again.
func TestMvnToolMeetsAPluginsMavenPrerequisite(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "fake"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "fake", "mvn"), []byte(fakeDebianMaven), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PLUGIN", "io.github.ascopes:protobuf-maven-plugin:5.1.7")
	want := fallbackMaven
	if v, _ := envgen.ParseVersion(want); v.Less(envgen.SemVer{3, 9, 6}) {
		want = "3.9.6"
	}
	out, err := runMvnTool(t, dir, "mvn", "-B", "-ntp", "test")
	if err != nil || !strings.Contains(out, "BUILD SUCCESS with Maven "+want) {
		t.Fatalf("err %v, output:\n%s", err, out)
	}
	notes, _ := os.ReadFile(filepath.Join(dir, "notes"))
	if !strings.Contains(string(notes), "maven "+want+" from the POM of plugin io.github.ascopes:protobuf-maven-plugin:5.1.7: Maven [3.9.6,)") {
		t.Errorf("build notes %q", notes)
	}
}
