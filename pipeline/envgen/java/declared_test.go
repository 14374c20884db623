package java

import (
	"strings"
	"testing"

	"curate/pipeline/envgen"
)

func plan(t *testing.T, files map[string]string, tests ...string) *envgen.Plan {
	t.Helper()
	p, err := envgen.LanguageFor("java").Plan(envgen.MapTree("o/r", files), envgen.Tests{Files: tests})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func decided(p *envgen.Plan, tool string) string {
	for _, d := range p.Decisions {
		if d.Tool == tool {
			return d.Version + " from " + d.Source
		}
	}
	return ""
}

// jackson-core at daf88a8f (PR 1442): Maven 3.9.9 in its wrapper, its
// parent jackson-base 2.20.0-SNAPSHOT; Debian's Maven stopped at the
// parent ("Non-resolvable parent POM for
// com.fasterxml.jackson.core:jackson-core:2.20.0-SNAPSHOT ... Unknown host
// central.sonatype.com"), and the parent's enforcer rule wants Maven 3.9.
const jacksonPom = `<project>
  <parent>
    <groupId>com.fasterxml.jackson</groupId>
    <artifactId>jackson-base</artifactId>
    <version>2.20.0-SNAPSHOT</version>
  </parent>
  <groupId>com.fasterxml.jackson.core</groupId>
  <artifactId>jackson-core</artifactId>
</project>`

func TestMavenFromWrapperAndSnapshotParent(t *testing.T) {
	p := plan(t, map[string]string{
		"pom.xml":                               jacksonPom,
		".mvn/wrapper/maven-wrapper.properties": "distributionUrl=https://repo.maven.apache.org/maven2/org/apache/maven/apache-maven/3.9.9/apache-maven-3.9.9-bin.zip\n",
		".github/workflows/main.yml":            "jobs:\n  build:\n    runs-on: ubuntu-24.04\n    strategy:\n      matrix:\n        java_version: ['8', '17', '21', '24']\n    steps:\n      - uses: actions/setup-java@v4\n        with:\n          java-version: ${{ matrix.java_version }}\n      - run: ./mvnw -B -q -ff -ntp verify\n",
	}, "src/test/java/com/fasterxml/jackson/core/JsonFactoryTest.java")
	if got := decided(p, "maven"); got != "3.9.9 from .mvn/wrapper/maven-wrapper.properties distributionUrl" {
		t.Errorf("maven %q", got)
	}
	if got := decided(p, "java"); got != "17 from .github/workflows/main.yml job build setup-java 24 (Debian 12's only JDK)" {
		t.Errorf("java %q: the pom names none, CI's nearest", got)
	}
	steps := strings.Join(p.ToolchainSteps, "\n")
	if !strings.Contains(steps, "dependency:get -Dartifact=org.apache.maven:apache-maven:3.9.9:tar.gz:bin") || !strings.Contains(steps, "ln -sf /opt/apache-maven-3.9.9/bin/mvn /usr/local/bin/mvn") {
		t.Errorf("no Maven 3.9.9 from Maven Central: %q", steps)
	}
	install := strings.Join(p.Install, "\n")
	for _, want := range []string{"cd /tmp && ", "-Dartifact=com.fasterxml.jackson:jackson-base:2.20.0:pom",
		"$HOME/.m2/repository/com/fasterxml/jackson/jackson-base/2.20.0-SNAPSHOT/jackson-base-2.20.0-SNAPSHOT.pom"} {
		if !strings.Contains(install, want) {
			t.Errorf("snapshot parent step lacks %q: %q", want, install)
		}
	}
	if !strings.HasPrefix(p.Install[0], "cd /tmp") {
		t.Errorf("the parent must be in place before the first build: %q", p.Install[0])
	}
}

// The Java repository A: the enforcer plugin asks for Maven
// [3.9,) and the image had Debian's 3.8.7 ("Rule 0:
// org.apache.maven.enforcer.rules.version.RequireMavenVersion failed");
// without a wrapper a 3.9 release is fetched.
func TestMavenFromEnforcer(t *testing.T) {
	pom := `<project>
<properties><maven.min>3.9</maven.min></properties>
<build><plugins><plugin><artifactId>maven-enforcer-plugin</artifactId><configuration><rules>
<requireMavenVersion><version>[${maven.min},)</version></requireMavenVersion>
<requireJavaVersion><version>[11,)</version></requireJavaVersion>
</rules></configuration></plugin></plugins></build></project>`
	p := plan(t, map[string]string{"pom.xml": pom}, "src/test/java/ATest.java")
	if got := decided(p, "maven"); got != fallbackMaven+" from pom.xml maven-enforcer-plugin requireMavenVersion [3.9,)" {
		t.Errorf("maven %q", got)
	}
	if got := decided(p, "java"); got != "17 from pom.xml maven-enforcer-plugin requireJavaVersion [11,)" {
		t.Errorf("java %q", got)
	}
	if strings.Contains(strings.Join(p.ToolchainSteps, "\n"), "toolchain_mismatch") {
		t.Errorf("Java 11+ runs on 17: %q", p.ToolchainSteps)
	}
	// A rule Debian's Maven meets: Debian's, nothing decided.
	p = plan(t, map[string]string{"pom.xml": strings.Replace(pom, "${maven.min}", "3.6.3", 1)}, "src/test/java/ATest.java")
	if got := decided(p, "maven"); got != "" || strings.Contains(strings.Join(p.ToolchainSteps, "\n"), "apache-maven") {
		t.Errorf("maven %q, steps %q", got, p.ToolchainSteps)
	}
	// Java 21 required: toolchain_mismatch with wanted and present.
	p = plan(t, map[string]string{"pom.xml": strings.Replace(pom, "[11,)", "21", 1)}, "src/test/java/ATest.java")
	if steps := strings.Join(p.ToolchainSteps, "\n"); !strings.Contains(steps, "curate: toolchain_mismatch: pom.xml maven-enforcer-plugin requireJavaVersion 21 wants Java 21, present OpenJDK 17") {
		t.Errorf("steps %q", steps)
	}
}

// assertj at 4c5ab486 (PR 4248): a reactor whose test module
// assertj-tests/assertj-integration-tests/assertj-core-tests reads
// assertj-core as a module (module-info.java "requires org.assertj.core");
// run from the root with -Dtest, every PR was compile_error ("module not
// found"). The test modules and what they need are built (-pl -am) and
// packaged; the reactor is installed at image build. A module only a
// profile builds (assertj-core-kotlin) is not selected: -pl would fail;
// module-info.java is no test class.
func TestMavenReactor(t *testing.T) {
	files := map[string]string{
		"assertj-parent/pom.xml": "<project><build><plugins><plugin><artifactId>spotless-maven-plugin</artifactId></plugin></plugins></build></project>",
		"pom.xml":                "<project><modules><module>assertj-core</module><module>assertj-tests</module></modules></project>",
		"assertj-core/pom.xml":   "<project/>",
		"assertj-tests/pom.xml":  "<project><modules><module>assertj-integration-tests</module></modules></project>",
		"assertj-tests/assertj-integration-tests/pom.xml":                     "<project><modules><module>assertj-core-tests</module></modules><profiles><profile><modules><module>assertj-core-kotlin</module></modules></profile></profiles></project>",
		"assertj-tests/assertj-integration-tests/assertj-core-kotlin/pom.xml": "<project/>",
		"assertj-tests/assertj-integration-tests/assertj-core-tests/pom.xml":  "<project/>",
	}
	p := plan(t, files,
		"assertj-core/src/test/java/org/assertj/core/testkit/CaseInsensitiveStringComparatorTest.java",
		"assertj-tests/assertj-integration-tests/assertj-core-tests/src/test/java/org/assertj/tests/core/api/SoftAssertionsTest.java",
		"assertj-tests/assertj-integration-tests/assertj-core-tests/src/test/java/module-info.java",
		"assertj-tests/assertj-integration-tests/assertj-core-kotlin/src/test/kotlin/KotlinTest.kt")
	cmd := p.Test.Command
	if !strings.Contains(cmd, " -o package -pl 'assertj-core,assertj-tests/assertj-integration-tests/assertj-core-tests' -am -Dtest='CaseInsensitiveStringComparatorTest,KotlinTest,SoftAssertionsTest' ") {
		t.Errorf("test command %q", cmd)
	}
	if !strings.Contains(cmd, " -Dspotless.check.skip=true") {
		t.Errorf("assertj 4129: spotless's P2 formatters are unreachable; the check must be skipped: %q", cmd)
	}
	if install := strings.Join(p.Install, "\n"); !strings.Contains(install, " install -DskipTests -pl ") {
		t.Errorf("the reactor is not installed at image build: %q", install)
	}
	// Tests at the root module only: no reactor selection.
	p = plan(t, files, "src/test/java/ATest.java")
	if strings.Contains(p.Test.Command, " -pl ") || !strings.Contains(p.Test.Command, " -o test ") {
		t.Errorf("root tests: %q", p.Test.Command)
	}
}

func TestLowerBound(t *testing.T) {
	for in, want := range map[string]envgen.SemVer{"3.9": {3, 9, 0}, "[3.6.3,4)": {3, 6, 3}, "(3.8,)": {3, 8, 0}, "1.8": {1, 8, 0}} {
		if got, ok := lowerBound(in); !ok || got != want {
			t.Errorf("lowerBound(%q) = %v %v", in, got, ok)
		}
	}
	if _, ok := lowerBound("(,4)"); ok {
		t.Error("(,4) has no lower bound")
	}
	if javaMajor(envgen.SemVer{1, 8, 0}) != 8 || javaMajor(envgen.SemVer{17, 0, 0}) != 17 {
		t.Error("javaMajor")
	}
}

// A Gradle multi-project build: the filter runs only in the projects
// holding the PR's tests (Gradle fails a --tests filter that matches
// nothing in a project). No dev repository uses Gradle; this is the shape.
func TestGradleProjects(t *testing.T) {
	files := map[string]string{
		"build.gradle": "", "settings.gradle": "include 'core', 'ext:json'",
		"core/build.gradle": "", "ext/json/build.gradle.kts": "",
		"gradle/wrapper/gradle-wrapper.properties": "distributionUrl=https\\://services.gradle.org/distributions/gradle-8.5-bin.zip\n", "gradlew": "",
	}
	p := plan(t, files, "core/src/test/java/a/CoreTest.java", "ext/json/src/test/kotlin/b/JsonTest.kt")
	if !strings.Contains(p.Test.Command, "./gradlew --no-daemon --offline :core:test :ext:json:test --tests '*CoreTest' --tests '*JsonTest'") {
		t.Errorf("test command %q", p.Test.Command)
	}
	p = plan(t, files, "src/test/java/RootTest.java")
	if !strings.Contains(p.Test.Command, "./gradlew --no-daemon --offline test --tests '*RootTest'") {
		t.Errorf("root project: %q", p.Test.Command)
	}
}
