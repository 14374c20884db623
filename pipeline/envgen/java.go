package envgen

import (
	"path"
	"regexp"
	"strings"
)

// java plans Java tasks (Maven, Gradle wrapper).
type java struct{}

func init() { register(java{}) }

func (java) Name() string { return "java" }

var javaTestRe = regexp.MustCompile(`@Test[\s\S]{0,200}?void\s+(\w+)\s*\(`)

func (java) TestNames(_, content string) []string { return namesMatching(javaTestRe, content) }

func (java) Plan(tree *Tree, tests Tests) (*Plan, error) {
	p := &Plan{Language: "java", Toolchain: Toolchain{Name: "java", Version: "17", Why: "Debian's OpenJDK"}, Packages: []string{"openjdk-17-jdk-headless", "maven"}}
	if tree.Has("pom.xml") {
		p.Install = []string{`mvn -q dependency:go-offline`}
	}
	var classes []string
	for _, f := range tests.Files {
		classes = append(classes, strings.TrimSuffix(path.Base(f), path.Ext(f)))
	}
	sel := shellQuote(strings.Join(classes, ","))
	p.Test = Runner{
		Command:   "if [ -f pom.xml ]; then mvn -o test -Dtest=" + sel + " -DfailIfNoTests=false -Dsurefire.failIfNoSpecifiedTests=false; else ./gradlew --offline test; fi; st=$?; mkdir -p /logs/verifier/surefire; cp target/surefire-reports/*.xml /logs/verifier/surefire/ 2>/dev/null; test $st -eq 0",
		Check:     `ls /logs/verifier/surefire/*.xml >/dev/null 2>&1`,
		LogFormat: "surefire",
	}
	return p, nil
}
