package java

import (
	"curate/pipeline/envgen"
	"regexp"
	"strings"
	"testing"
)

const errorPronePom = `<project>
  <properties><java.version>1.8</java.version></properties>
  <build><plugins><plugin>
    <artifactId>maven-compiler-plugin</artifactId>
    <configuration><compilerId>javac-with-errorprone</compilerId><source>${java.version}</source></configuration>
  </plugin></plugins></build>
</project>`

func TestJavaMavenPlan(t *testing.T) {
	p, err := envgen.LanguageFor("java").Plan(envgen.MapTree("square/javapoet", map[string]string{"pom.xml": errorPronePom}),
		envgen.Tests{Files: []string{"src/test/java/com/squareup/javapoet/TypeNameTest.java", "src/test/java/com/squareup/javapoet/CodeBlockTest.java", "src/test/resources/x.txt"}})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.Join(p.Packages, " "), "openjdk-17-jdk-headless") || !strings.Contains(strings.Join(p.Packages, " "), "ca-certificates-java") {
		t.Errorf("packages %v", p.Packages)
	}
	cmd := p.Test.Command
	for _, want := range []string{"-o test", "-Dtest='CodeBlockTest,TypeNameTest'", "-Dmaven.compiler.fork=true", "/logs/verifier/surefire.xml", "rm -rf"} {
		if !strings.Contains(cmd, want) {
			t.Errorf("test command %q lacks %q", cmd, want)
		}
	}
	if strings.Contains(cmd, " -q") {
		t.Errorf("maven's -q hides the \"Tests run:\" lines: %q", cmd)
	}
	install := strings.Join(p.Install, "\n")
	if !strings.Contains(install, "javac-with-errorprone</compilerId>#<compilerId>javac</compilerId>") || !strings.Contains(install, "curate-step ") {
		t.Errorf("install %q", install)
	}
	// Truth's guava-android beside compile-testing's guava-jre: the test
	// JVM gets the JRE flavour through Surefire's own flags.
	for _, want := range []string{"dependency:list -DincludeGroupIds=com.google.guava", "-android:", "-Dartifact=com.google.guava:guava:$v-jre",
		`cp "$HOME/.m2/repository/com/google/guava/guava/$v-jre/guava-$v-jre.jar" "$HOME/.m2/repository/com/google/guava/guava/$v-android/guava-$v-android.jar"`} {
		if !strings.Contains(install, want) {
			t.Errorf("install lacks %q: %q", want, install)
		}
	}
	// The listing downloads the dependency plugin: through curate-step,
	// or curate's own builds (no direct network; the JVM reads no proxy
	// variable) skip the swap. Seen on square/javapoet #994 (merge
	// c9925e48): valid when built with open network, oracle_failed
	// "IllegalAccessError: failed to access class
	// com.google.common.collect.MoreCollectors" when built by curate on
	// the local engine, its build log saying "No plugin found for prefix
	// 'dependency'".
	if !regexp.MustCompile(`curate-step "[^"]*" '[^']*' mvn [^;]*-q dependency:list `).MatchString(install) {
		t.Errorf("the guava listing does not run through curate-step: %q", install)
	}
	if !strings.Contains(strings.Join(p.ToolchainSteps, "\n"), "update-ca-certificates -f") {
		t.Errorf("the Java trust store is not rebuilt from the CA bundle: %q", p.ToolchainSteps)
	}
	if p.Test.LogFormat != "surefire" {
		t.Errorf("log format %q", p.Test.LogFormat)
	}
	if env := strings.Join(p.Env, "\n"); !strings.Contains(env, "JAVA_TOOL_OPTIONS=-Dnet.bytebuddy.experimental=true --add-opens=java.base/java.lang=ALL-UNNAMED") {
		t.Errorf("test JVMs of a Java 8 project need Byte Buddy's experimental mode and java.base opened on JDK 17: %q", env)
	}
}

func TestJavaToolchainMismatch(t *testing.T) {
	pom := "<project><properties><maven.compiler.release>21</maven.compiler.release></properties></project>"
	p, err := envgen.LanguageFor("java").Plan(envgen.MapTree("o/r", map[string]string{"pom.xml": pom}), envgen.Tests{Files: []string{"src/test/java/ATest.java"}})
	if err != nil {
		t.Fatal(err)
	}
	if steps := strings.Join(p.ToolchainSteps, "\n"); !strings.Contains(steps, "curate: toolchain_mismatch: pom.xml wants Java 21, present OpenJDK 17") {
		t.Errorf("steps %q", steps)
	}
	if got := javaWanted(errorPronePom); got != 8 {
		t.Errorf("java.version 1.8 read as %d", got)
	}
}

func TestJavaGradle(t *testing.T) {
	wrapper := "distributionUrl=https\\://services.gradle.org/distributions/gradle-8.5-bin.zip\n"
	p, err := envgen.LanguageFor("java").Plan(envgen.MapTree("o/r", map[string]string{"build.gradle.kts": "plugins { java }", "gradlew": "#!/bin/sh",
		"gradle/wrapper/gradle-wrapper.properties": wrapper}), envgen.Tests{Files: []string{"src/test/java/ATest.java"}})
	if err != nil {
		t.Fatal(err)
	}
	install := strings.Join(p.Install, "\n")
	if !strings.Contains(install, "./gradlew --no-daemon --version") || !strings.Contains(install, "toolchain_mismatch: wanted Gradle 8.5") {
		t.Errorf("install %q: want the wrapper tried, else toolchain_mismatch naming its version", install)
	}
	if !strings.Contains(p.Test.Command, "--tests '*ATest'") {
		t.Errorf("test command %q", p.Test.Command)
	}
	_, err = envgen.LanguageFor("java").Plan(envgen.MapTree("o/r", map[string]string{"build.gradle": ""}), envgen.Tests{Files: []string{"src/test/java/ATest.java"}})
	if err == nil || !strings.Contains(err.Error(), "toolchain_mismatch") {
		t.Errorf("gradle without a wrapper: %v", err)
	}
}
