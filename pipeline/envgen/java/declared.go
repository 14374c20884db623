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

// debianMaven is the Maven Debian 12 ships.
const debianMaven = "3.8.7"

// fallbackMaven is fetched when the project asks for a newer Maven than
// Debian's and names no version of its own (no wrapper): a 3.9 release
// Maven Central serves.
const fallbackMaven = "3.9.9"

var (
	enforcerMavenRe = regexp.MustCompile(`(?s)<requireMavenVersion>.*?<version>\s*([^<]+?)\s*</version>`)
	enforcerJavaRe  = regexp.MustCompile(`(?s)<requireJavaVersion>.*?<version>\s*([^<]+?)\s*</version>`)
	wrapperMavenRe  = regexp.MustCompile(`(?m)^distributionUrl=.*/apache-maven-(\d+\.\d+\.\d+)-bin\.(?:zip|tar\.gz)`)
	propertyRe      = regexp.MustCompile(`(?s)<properties>(.*?)</properties>`)
	propertyItemRe  = regexp.MustCompile(`<([\w.-]+)>\s*([^<]*?)\s*</`)
	propertyRefRe   = regexp.MustCompile(`\$\{([\w.-]+)\}`)
	moduleRe        = regexp.MustCompile(`<module>\s*([^<]+?)\s*</module>`)
)

// requirement is a version a build-tool setting asks for at least, and
// where it is said ("pom.xml maven-enforcer-plugin requireMavenVersion [3.9,)").
type requirement struct {
	Min    envgen.SemVer
	Text   string // the version as written
	Source string
}

// pomFiles are the tree's pom.xml files, the root first.
func pomFiles(tree *envgen.Tree) []string {
	out := []string{}
	if tree.Has("pom.xml") {
		out = append(out, "pom.xml")
	}
	for _, f := range tree.Files {
		if f != "pom.xml" && path.Base(f) == "pom.xml" {
			out = append(out, f)
		}
	}
	return out
}

// enforcerRequirement is the highest lower bound any pom's enforcer rule
// (re) names, with properties of the same pom substituted.
func enforcerRequirement(tree *envgen.Tree, re *regexp.Regexp, rule string) *requirement {
	var best *requirement
	for _, f := range pomFiles(tree) {
		pom := tree.Text(f)
		for _, m := range re.FindAllStringSubmatch(pom, -1) {
			text := substitute(pom, m[1])
			lo, ok := lowerBound(text)
			if !ok {
				continue
			}
			if best == nil || best.Min.Less(lo) {
				best = &requirement{Min: lo, Text: text, Source: f + " maven-enforcer-plugin " + rule + " " + text}
			}
		}
	}
	return best
}

// substitute replaces ${name} with the pom's own <properties> values.
func substitute(pom, s string) string {
	props := map[string]string{}
	if m := propertyRe.FindStringSubmatch(pom); m != nil {
		for _, p := range propertyItemRe.FindAllStringSubmatch(m[1], -1) {
			props[p[1]] = p[2]
		}
	}
	return propertyRefRe.ReplaceAllStringFunc(s, func(ref string) string {
		if v, ok := props[ref[2:len(ref)-1]]; ok {
			return v
		}
		return ref
	})
}

// lowerBound reads a Maven version range's lower bound: "3.9" (enforcer
// reads a bare version as "at least"), "[3.9,)", "[3.6.3,4)"; "1.8" is
// Java 8. A range without a lower bound ("(,4)") has none.
func lowerBound(s string) (envgen.SemVer, bool) {
	s = strings.TrimLeft(strings.TrimSpace(s), "[(")
	v, n := envgen.ParseVersion(s)
	if n == 0 {
		return v, false
	}
	return v, true
}

// javaMajor is a Java version's feature release: 1.8 is 8.
func javaMajor(v envgen.SemVer) int {
	if v[0] == 1 && v[1] > 1 {
		return v[1]
	}
	return v[0]
}

// wrapperMaven is the Maven version .mvn/wrapper/maven-wrapper.properties
// names, "" when there is none.
func wrapperMaven(tree *envgen.Tree) string {
	if m := wrapperMavenRe.FindStringSubmatch(tree.Text(".mvn/wrapper/maven-wrapper.properties")); m != nil {
		return m[1]
	}
	return ""
}

// chooseMaven decides which Maven runs the build: the wrapper's version
// when the project has one (what its developers run), else a 3.9 from
// Maven Central when an enforcer rule excludes Debian's, else Debian's.
// It returns "" for Debian's, with no decision recorded (the default).
func chooseMaven(p *envgen.Plan, tree *envgen.Tree) string {
	debian, _ := envgen.ParseVersion(debianMaven)
	need := enforcerRequirement(tree, enforcerMavenRe, "requireMavenVersion")
	if w := wrapperMaven(tree); w != "" {
		wv, _ := envgen.ParseVersion(w)
		if need == nil || !wv.Less(need.Min) {
			if w == debianMaven {
				return ""
			}
			if wv.Less(envgen.SemVer{3, 6, 3}) {
				// Maven older than 3.6.3 predates JDK 17; Debian's runs
				// the same poms.
				p.Note("maven: the wrapper names Maven %s, older than 3.6.3: Debian's %s runs the build", w, debianMaven)
				return ""
			}
			p.Decide("maven", w, ".mvn/wrapper/maven-wrapper.properties distributionUrl")
			return w
		}
	}
	if need != nil && debian.Less(need.Min) {
		p.Decide("maven", fallbackMaven, need.Source)
		return fallbackMaven
	}
	return ""
}

// mavenFetchStep installs Apache Maven's binary distribution from Maven
// Central with Debian's Maven (which knows the registry settings), and
// puts it first on PATH.
func mavenFetchStep(version string) string {
	tgz := "$HOME/.m2/repository/org/apache/maven/apache-maven/" + version + "/apache-maven-" + version + "-bin.tar.gz"
	return envgen.RegistryStep(MavenCentral, MavenMissing, "mvn -B -ntp -q dependency:get -Dartifact=org.apache.maven:apache-maven:"+version+":tar.gz:bin -Dtransitive=false") +
		" && tar -xzf " + tgz + " -C /opt && ln -sf /opt/apache-maven-" + version + "/bin/mvn /usr/local/bin/mvn && mvn -v | head -n1"
}

// chooseJava checks the Java release the project asks for against the one
// JDK Debian 12 has (17): enforcer's requireJavaVersion and the compiler's
// release/source/target. A newer one stops the build with
// toolchain_mismatch naming wanted and present; an older one runs on 17.
func chooseJava(p *envgen.Plan, tree *envgen.Tree, pomWant int) {
	want, where, source := pomWant, "pom.xml", "pom.xml maven.compiler release/source/target"
	if r := enforcerRequirement(tree, enforcerJavaRe, "requireJavaVersion"); r != nil && javaMajor(r.Min) > want {
		want, where, source = javaMajor(r.Min), r.Source, r.Source
		if want <= debianJDK {
			p.Decide("java", fmt.Sprint(debianJDK), source)
		}
	}
	if want == 0 {
		// The build names no Java: CI's setup-java is what the project
		// tests on; Debian's JDK is the nearest there is.
		if v, src, ok := ciconfig.Read(tree).Version(ciconfig.Java); ok {
			p.Decide("java", fmt.Sprint(debianJDK), fmt.Sprintf("%s %s (Debian 12's only JDK)", src, v))
		}
		return
	}
	if want > debianJDK {
		p.Decide("java", fmt.Sprint(want), source)
		p.ToolchainSteps = append(p.ToolchainSteps, envgen.FailStep("toolchain_mismatch", "%s wants Java %d, present OpenJDK %d (Debian 12 has no newer JDK)", where, want, debianJDK))
	}
}

// reactorModules are the folders (relative to the root, sorted) of the
// Maven modules holding the test files, when the root pom is a reactor
// and some test lives below the root module; nil otherwise.
func reactorModules(tree *envgen.Tree, files []string) []string {
	if !moduleRe.MatchString(tree.Text("pom.xml")) {
		return nil
	}
	seen := map[string]bool{}
	var out []string
	below := false
	inReactor := reactor(tree)
	for _, f := range files {
		if ext := path.Ext(f); ext != ".java" && ext != ".kt" {
			continue
		}
		dir := path.Dir(f)
		for dir != "." && !tree.Has(dir+"/pom.xml") {
			dir = path.Dir(dir)
		}
		if !inReactor[dir] {
			continue // a module only a profile builds: -pl would fail
		}
		if dir != "." {
			below = true
		}
		if !seen[dir] {
			seen[dir] = true
			out = append(out, dir)
		}
	}
	if !below {
		return nil
	}
	sort.Strings(out)
	return out
}

var (
	parentRe   = regexp.MustCompile(`(?s)<parent>(.*?)</parent>`)
	groupRe    = regexp.MustCompile(`<groupId>\s*([^<\s]+)\s*</groupId>`)
	artifactRe = regexp.MustCompile(`<artifactId>\s*([^<\s]+)\s*</artifactId>`)
	versionRe  = regexp.MustCompile(`<version>\s*([^<\s]+)\s*</version>`)
	relPathRe  = regexp.MustCompile(`<relativePath>\s*([^<]*?)\s*</relativePath>`)
)

// snapshotParentStep serves a parent POM that is a -SNAPSHOT from outside
// the tree, which only a snapshot repository has (Maven Central serves no
// snapshots): its release of the same number, from Maven Central, is put
// in the local repository under the snapshot's coordinates. pom.xml stays
// as written, so the PR's patches apply. "" when the parent is not such.
func snapshotParentStep(p *envgen.Plan, tree *envgen.Tree) string {
	m := parentRe.FindStringSubmatch(tree.Text("pom.xml"))
	if m == nil {
		return ""
	}
	g, a, v := groupRe.FindStringSubmatch(m[1]), artifactRe.FindStringSubmatch(m[1]), versionRe.FindStringSubmatch(m[1])
	if g == nil || a == nil || v == nil || !strings.HasSuffix(v[1], "-SNAPSHOT") {
		return ""
	}
	rel := "../pom.xml"
	if r := relPathRe.FindStringSubmatch(m[1]); r != nil {
		rel = r[1]
	}
	if local := path.Clean(strings.TrimSuffix(rel, "/pom.xml") + "/pom.xml"); rel != "" && !strings.HasPrefix(local, "../") && tree.Has(local) {
		return "" // the parent is in the tree
	}
	release := strings.TrimSuffix(v[1], "-SNAPSHOT")
	dir := "$HOME/.m2/repository/" + strings.ReplaceAll(g[1], ".", "/") + "/" + a[1]
	p.Note("pom.xml's parent %s:%s:%s is a snapshot only a snapshot repository serves: its release %s from Maven Central stands in (in the image's local repository)", g[1], a[1], v[1], release)
	// The release's own <version> (the first after its </parent>) is
	// rewritten, so the POM matches the coordinates it is stored under.
	return "cd /tmp && " + envgen.RegistryStep(MavenCentral, MavenMissing, "mvn -B -ntp -q dependency:get -Dartifact="+g[1]+":"+a[1]+":"+release+":pom -Dtransitive=false") +
		" && mkdir -p " + dir + "/" + v[1] + " && awk -v r=" + envgen.ShellQuote("<version>"+release+"</version>") + " -v s=" + envgen.ShellQuote("<version>"+v[1]+"</version>") +
		` '/<\/parent>/{p=1} p==1 && index($0, r) {sub(r, s); p=2} {print}' ` + dir + "/" + release + "/" + a[1] + "-" + release + ".pom > " + dir + "/" + v[1] + "/" + a[1] + "-" + v[1] + ".pom"
}

var profilesRe = regexp.MustCompile(`(?s)<profiles>.*?</profiles>`)

// reactor is the set of module folders the default build has: the root
// and every <module> reachable from it outside <profiles>.
func reactor(tree *envgen.Tree) map[string]bool {
	in := map[string]bool{".": true}
	queue := []string{"."}
	for len(queue) > 0 && len(in) < 1000 {
		dir := queue[0]
		queue = queue[1:]
		pom := profilesRe.ReplaceAllString(tree.Text(path.Join(dir, "pom.xml")), "")
		for _, m := range moduleRe.FindAllStringSubmatch(pom, -1) {
			sub := path.Clean(path.Join(dir, m[1]))
			if strings.HasSuffix(sub, ".xml") {
				sub = path.Dir(sub)
			}
			if !in[sub] && tree.Has(path.Join(sub, "pom.xml")) {
				in[sub] = true
				queue = append(queue, sub)
			}
		}
	}
	return in
}
