package java

import (
	"curate/pipeline/envgen"
	"curate/pipeline/envgen/ciconfig"
	"fmt"
	"path"
	"regexp"
	"sort"
	"strings"
)

// java plans Java tasks: Debian's OpenJDK 17 and Maven, the dependencies
// resolved from Maven Central by a first build at image build, Surefire's
// XML reports in the log. Gradle projects run their wrapper when its
// distribution can be had (Debian's Gradle 4.4 only for wrappers of 4.4).
type java struct{}

func init() { envgen.Register(java{}) }

func (java) Name() string { return "java" }

var javaTestRe = regexp.MustCompile(`@Test[\s\S]{0,200}?void\s+(\w+)\s*\(`)

func (java) TestNames(_, content string) []string { return envgen.NamesMatching(javaTestRe, content) }

// MavenCentral names the registry in evidence lines.
const MavenCentral = "Maven Central (${CURATE_MAVEN_MIRROR:-https://repo.maven.apache.org/maven2})"

// MavenMissing prints the artifacts Maven or Gradle could not find (sed -E).
const MavenMissing = `s/.*Could not find artifact ([^ ]+).*/\1/p; s/.*Failure to find ([^ ]+).*/\1/p; s/.*Could not find ([^ ]+:[^ ]+)\.$/\1/p`

// maxSelection bounds the -Dtest list (Dockerfile lines stop at 64 KiB).
const maxSelection = 16 << 10

// debianJDK is the JDK Debian 12 ships.
const debianJDK = 17

var (
	javaReleaseRe = regexp.MustCompile(`<(maven\.compiler\.release|maven\.compiler\.source|maven\.compiler\.target|java\.version|release|source|target)>\s*([\d.]+)\s*</`)
	gradleDistRe  = regexp.MustCompile(`(?m)^distributionUrl=.*gradle-([\d.]+)-(?:bin|all)\.zip`)
	gradleJavaRe  = regexp.MustCompile(`(?:JavaLanguageVersion\.of\(|JavaVersion\.VERSION_|sourceCompatibility\s*=\s*['"]?)(1\.)?(\d+)`)
)

// javaOpens open java.base's reflection-heavy packages to old libraries.
var javaOpens = []string{"--add-opens=java.base/java.lang=ALL-UNNAMED", "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED",
	"--add-opens=java.base/java.util=ALL-UNNAMED", "--add-opens=java.base/java.io=ALL-UNNAMED", "--add-opens=java.base/java.util.concurrent=ALL-UNNAMED",
	"--add-opens=java.base/java.text=ALL-UNNAMED", "--add-opens=java.base/java.net=ALL-UNNAMED", "--add-opens=java.base/java.nio=ALL-UNNAMED",
	"--add-opens=java.base/sun.nio.ch=ALL-UNNAMED"}

// errorProneOpens let javac plugins that reach into the compiler's
// internals (Error Prone, Lombok) run in Maven's JVM on JDK 17; harmless
// for projects without them.
var errorProneOpens = []string{"api", "file", "main", "model", "parser", "processing", "tree", "util", "code", "comp"}

func (java) Plan(tree *envgen.Tree, tests envgen.Tests) (*envgen.Plan, error) {
	p := &envgen.Plan{Language: "java", Packages: []string{"openjdk-17-jdk-headless", "ca-certificates-java"}}
	p.Toolchain = envgen.Toolchain{Name: "java", Version: fmt.Sprint(debianJDK), Why: "Debian's OpenJDK 17"}
	// The trust store is rebuilt from the CA bundle once Java is in, so
	// Maven reaches Central through a TLS-intercepting proxy.
	p.ToolchainSteps = append(p.ToolchainSteps, `update-ca-certificates -f >/dev/null 2>&1; test -s /etc/ssl/certs/java/cacerts || { `+
		envgen.FailStep("deps_unreachable", "no Java trust store (/etc/ssl/certs/java/cacerts) was made from the CA bundle: Maven Central's certificate cannot be checked")+`; }`)
	var opens []string
	for _, pkg := range errorProneOpens {
		opens = append(opens, "--add-opens=jdk.compiler/com.sun.tools.javac."+pkg+"=ALL-UNNAMED")
	}
	// Test JVMs too (Surefire forks them): libraries of the Java 8 era
	// reach into the JDK by reflection (cglib, old Mockito), and Byte
	// Buddy refuses class files newer than it knows unless told to try
	// ("Mockito cannot mock this class ... Java: 17").
	p.Env = append(p.Env, "JAVA_TOOL_OPTIONS="+strings.Join(append([]string{"-Dnet.bytebuddy.experimental=true"}, javaOpens...), " "))
	p.Note("JAVA_TOOL_OPTIONS lets Java 8 era test libraries run on JDK 17 (Byte Buddy experimental, java.base opened)")
	classes := javaTestClasses(tests.Files)
	if len(classes) == 0 {
		return nil, fmt.Errorf("none of the PR's test files is a Java or Kotlin source (%s)", strings.Join(tests.Files, ", "))
	}
	switch {
	case tree.Has("pom.xml"):
		p.Packages = append(p.Packages, "maven")
		mvnTool(p)
		p.Env = append(p.Env, "MAVEN_OPTS="+strings.Join(opens, " "))
		want := javaWanted(tree.Text("pom.xml"))
		maven := chooseMaven(p, tree)
		if maven == "" {
			p.Note("JDK %d and Maven 3.8 from Debian (pom.xml: %s)", debianJDK, javaWantedText(want))
		} else {
			p.Note("JDK %d from Debian (pom.xml: %s), Maven %s from Maven Central", debianJDK, javaWantedText(want), maven)
			p.ToolchainSteps = append(p.ToolchainSteps, mavenFetchStep(maven))
		}
		chooseJava(p, tree, want)
		// Pooled connections expire after 25 s idle: the first build
		// resolves Surefire's provider only after compiling and running
		// tests for minutes, and a pooled connection that a
		// TLS-intercepting proxy dropped meanwhile stalled the download
		// (javapoet sat 18 minutes on surefire-booter's pom). No pooling
		// at all opens bursts of connections the proxy refuses under load
		// ("Connect timed out"). A download that hangs anyway fails after
		// 2 minutes and is tried again.
		mvn := "mvn -B -ntp -Dmaven.wagon.httpconnectionManager.ttlSeconds=25 -Dmaven.wagon.rto=120000 -Dmaven.wagon.http.retryHandler.count=3 -Daether.connector.requestTimeout=120000 -Daether.connector.connectTimeout=60000"
		if len(tree.Grep("spotless-maven-plugin", "pom.xml")) > 0 {
			// Spotless provisions its formatters from outside Maven
			// Central (Eclipse's P2 site: a real PR's image build died
			// on "Failed to provision P2 dependencies:
			// java.net.UnknownHostException"); a format check decides no test.
			mvn += " -Dspotless.check.skip=true -Dspotless.apply.skip=true"
			p.Note("spotless-maven-plugin: its format check is skipped (its formatters come from outside Maven Central; formatting decides no test)")
		}
		if strings.Contains(tree.Text("pom.xml"), "javac-with-errorprone") {
			// plexus-compiler-javac-errorprone runs Error Prone 2.x on its
			// own Java 9 javac, which cannot read JDK 17's class files
			// ("class file has wrong version 61.0"), even as plain javac
			// in Maven's JVM. Error Prone only adds lint checks: javac,
			// forked (JDK 17's own), builds the same classes.
			p.Install = append(p.Install, `find . -name pom.xml -exec sed -i 's#<compilerId>javac-with-errorprone</compilerId>#<compilerId>javac</compilerId>#' {} +`)
			mvn += " -Dmaven.compiler.fork=true"
			p.Note("pom.xml compiles with javac-with-errorprone (a Java 9 javac that cannot run on JDK 17): forked plain javac in the image")
		}
		if step := snapshotParentStep(p, tree); step != "" {
			p.Install = append(p.Install, step)
		}
		sel := "-Dtest=" + envgen.ShellQuote(strings.Join(classes, ",")) + " -DfailIfNoTests=false -Dsurefire.failIfNoSpecifiedTests=false"
		if len(sel) > maxSelection {
			// Every test class (a repository's environment check): the
			// whole suite, as a list would pass Docker's line limit
			// (64 KiB; a large core module has thousands of classes).
			sel = "-DfailIfNoTests=false -Dsurefire.failIfNoSpecifiedTests=false"
			p.Note("%d test classes: the whole suite runs, without -Dtest", len(classes))
		}
		phase := "test"
		if mods := reactorModules(tree, tests.Files); mods != nil {
			// A reactor: only the test modules and what they depend on
			// are built, packaged so that modules which read another's
			// jar (a module path, a bundle) find it, and installed at the
			// head into the image's local repository. A member the tests
			// do not need never stops the build (a Spring Boot
			// test module wanted a Hibernate that Maven Central here lacks).
			pl := "-pl " + envgen.ShellQuote(strings.Join(mods, ",")) + " -am"
			sel = pl + " " + sel
			phase = "package"
			p.Install = append(p.Install, envgen.RegistryStep(MavenCentral, MavenMissing, "curate-mvn "+mvn+" install -DskipTests "+pl))
			p.Note("maven reactor: the PR's tests are in %s; those modules and what they depend on (-pl ... -am) are built, and installed into the image's local repository", strings.Join(mods, ", "))
		}
		// A first build at the head resolves everything the test phase
		// needs: it runs the PR's test classes (they pass at the head;
		// failures do not fail the build), because Surefire resolves its
		// JUnit provider only when tests run, which go-offline misses.
		p.Install = append(p.Install, envgen.RegistryStep(MavenCentral, MavenMissing, "curate-mvn "+mvn+" "+phase+" "+sel+" -Dmaven.test.failure.ignore=true"))
		p.Note("dependencies resolved by a first build at image build (mvn %s of the PR's test classes at the head)", phase)
		p.Install = append(p.Install, guavaFlavorStep(mvn))
		p.Note("an Android-flavoured Guava on the test classpath is served as the JRE flavour of the same version (a superset on JDK 17)")
		p.Test = envgen.Runner{
			// Reports of the image's first build must not pass for this run.
			Command: "find . -type d -path '*/target/surefire-reports' -prune -exec rm -rf {} +; " + mvn + " -o " + phase + " " + sel + "; st=$?; " +
				surefireCollect("target/surefire-reports") + "; test $st -eq 0",
			Check:     `grep -q '<testcase' /logs/verifier/surefire.xml`,
			LogFormat: "surefire",
		}
	case tree.Has("build.gradle") || tree.Has("build.gradle.kts"):
		build := tree.Text("build.gradle") + tree.Text("build.gradle.kts")
		if m := gradleJavaRe.FindStringSubmatch(build); m != nil {
			if v, n := envgen.ParseVersion(m[2]); n > 0 && v[0] > debianJDK {
				p.ToolchainSteps = append(p.ToolchainSteps, envgen.FailStep("toolchain_mismatch", "the Gradle build wants Java %d, present OpenJDK %d (Debian)", v[0], debianJDK))
			}
		}
		m := gradleDistRe.FindStringSubmatch(tree.Text("gradle/wrapper/gradle-wrapper.properties"))
		switch {
		case m != nil && tree.Has("gradlew") && strings.HasPrefix(m[1], "4.4"):
			p.Packages = append(p.Packages, "gradle")
			p.Note("Gradle %s from Debian (the wrapper's version)", m[1])
			p.Install = []string{envgen.RegistryStep(MavenCentral, MavenMissing, "gradle --no-daemon testClasses")}
			p.Test = gradleRunner("gradle", classes, gradleProjects(p, tree, tests.Files))
		case m != nil && tree.Has("gradlew"):
			p.Note("Gradle %s from the wrapper; its distribution comes from services.gradle.org, which must answer", m[1])
			p.Install = []string{
				`chmod +x gradlew; ./gradlew --no-daemon --version > /tmp/curate-gradle.log 2>&1 || { cat /tmp/curate-gradle.log; ` +
					envgen.FailStep("toolchain_mismatch", "wanted Gradle %s (gradle/wrapper/gradle-wrapper.properties), present Gradle 4.4 (Debian): the wrapper's distribution could not be downloaded", m[1]) + `; }`,
				envgen.RegistryStep(MavenCentral, MavenMissing, "./gradlew --no-daemon testClasses"),
			}
			p.Test = gradleRunner("./gradlew", classes, gradleProjects(p, tree, tests.Files))
		default:
			return nil, fmt.Errorf("toolchain_mismatch: a Gradle build without a wrapper version (gradle/wrapper/gradle-wrapper.properties): set [repos.%q] test_command and install in curate.toml", tree.Repo)
		}
	default:
		return nil, fmt.Errorf("no pom.xml or build.gradle at the repository root: set [repos.%q] test_command and install in curate.toml", tree.Repo)
	}
	p.Note("tests: %s (Surefire/JUnit XML reports parsed per test)", strings.Join(classes, ", "))
	p.BuildTimeoutSec = 1800 // JDK, Maven and a first build
	ciconfig.AptPackages(p, tree)
	return p, nil
}

// guavaFlavorStep keeps test libraries built against Guava's JRE flavour
// working when Maven's nearest-wins picks its Android flavour: Truth
// 1.2 brings guava 32/33-android, compile-testing needs the JRE flavour,
// and the Android flavour of those versions hides the Java 8 APIs
// (MoreCollectors is package private), so the tests die with
// "IllegalAccessError: failed to access class
// com.google.common.collect.MoreCollectors". On JDK 17 the JRE flavour of
// the same version is a superset, so the image's local repository serves
// it under the Android file name. Surefire 2.12 (Maven 3.8's default) has
// no command-line switch for its classpath, and pom.xml stays as written
// so the PR's patches apply.
func guavaFlavorStep(mvn string) string {
	repo := "$HOME/.m2/repository/com/google/guava/guava"
	// The listing needs the dependency plugin from the registry: through
	// curate-step, like every step that downloads (a bare mvn has no proxy
	// on curate's own builds, and the swap was silently skipped there while
	// a build with open network made it). A listing that fails still only
	// skips the swap.
	list := envgen.RegistryStep(MavenCentral, MavenMissing, mvn+` -q dependency:list -DincludeGroupIds=com.google.guava -DincludeArtifactIds=guava -DoutputFile=/tmp/curate-guava.txt -DappendOutput=true`)
	return `{ ` + list + ` >/dev/null 2>&1; ` +
		`v=$(sed -n -E 's/.*com\.google\.guava:guava:jar:([0-9.]+)-android:.*/\1/p' /tmp/curate-guava.txt 2>/dev/null | sort -V | tail -n1); rm -f /tmp/curate-guava.txt; ` +
		`if [ -n "$v" ]; then ` + envgen.RegistryStep(MavenCentral, MavenMissing, mvn+` dependency:get -Dartifact=com.google.guava:guava:$v-jre -Dtransitive=false`) + ` && ` +
		`cp "` + repo + `/$v-jre/guava-$v-jre.jar" "` + repo + `/$v-android/guava-$v-android.jar" && ` +
		`echo "curate: note: guava $v-android on the test classpath: the image serves guava $v-jre in its place"; fi; }`
}

// javaTestClasses are the simple class names of the PR's test sources.
func javaTestClasses(files []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, f := range files {
		if ext := path.Ext(f); ext != ".java" && ext != ".kt" {
			continue
		}
		c := strings.TrimSuffix(path.Base(f), path.Ext(f))
		if c == "module-info" || c == "package-info" {
			continue // descriptors, not classes
		}
		if !seen[c] {
			seen[c] = true
			out = append(out, c)
		}
	}
	sort.Strings(out)
	return out
}

// javaWanted is the highest Java release a pom.xml names (1.8 is 8), 0
// when it names none.
func javaWanted(pom string) int {
	want := 0
	for _, m := range javaReleaseRe.FindAllStringSubmatch(pom, -1) {
		v, n := envgen.ParseVersion(m[2])
		if n == 0 {
			continue
		}
		major := v[0]
		if major == 1 && n > 1 {
			major = v[1]
		}
		if major > want && major < 100 {
			want = major
		}
	}
	return want
}

func javaWantedText(want int) string {
	if want == 0 {
		return "no Java release named"
	}
	return fmt.Sprintf("Java %d", want)
}

// surefireCollect copies every module's XML reports into one file in
// /logs/verifier (the validator collects that folder's files).
func surefireCollect(dir string) string {
	return `find . -path '*/` + dir + `/TEST-*.xml' -exec cat {} + > /logs/verifier/surefire.xml 2>/dev/null`
}

func gradleRunner(gradle string, classes, tasks []string) envgen.Runner {
	var sel []string
	for _, c := range classes {
		sel = append(sel, "--tests "+envgen.ShellQuote("*"+c))
	}
	return envgen.Runner{
		Command: "find . -type d -path '*/build/test-results' -prune -exec rm -rf {} +; " + gradle + " --no-daemon --offline " + strings.Join(tasks, " ") + " " + strings.Join(sel, " ") + "; st=$?; " +
			`find . -path '*/build/test-results/*' -name 'TEST-*.xml' -exec cat {} + > /logs/verifier/surefire.xml 2>/dev/null; test $st -eq 0`,
		Check:     `grep -q '<testcase' /logs/verifier/surefire.xml`,
		LogFormat: "surefire",
	}
}

// gradleProjects are the test tasks of the projects holding the PR's test
// files in a multi-project build (":core:test", the folder as the
// project path, Gradle's default), so a --tests filter never runs in a
// project where nothing matches (Gradle fails there: "No tests found for
// given includes"); ["test"] when the tests are in the root project.
func gradleProjects(p *envgen.Plan, tree *envgen.Tree, files []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, f := range files {
		if ext := path.Ext(f); ext != ".java" && ext != ".kt" {
			continue
		}
		dir := path.Dir(f)
		for dir != "." && !tree.Has(dir+"/build.gradle") && !tree.Has(dir+"/build.gradle.kts") {
			dir = path.Dir(dir)
		}
		task := "test"
		if dir != "." {
			task = ":" + strings.ReplaceAll(dir, "/", ":") + ":test"
		}
		if !seen[task] {
			seen[task] = true
			out = append(out, task)
		}
	}
	sort.Strings(out)
	if len(out) == 0 {
		return []string{"test"}
	}
	if len(out) > 1 || out[0] != "test" {
		p.Note("gradle multi-project: the PR's tests run in %s", strings.Join(out, ", "))
	}
	return out
}
