package ciconfig_test

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"curate/internal/testenv"
	"curate/pipeline/envgen"
	_ "curate/pipeline/envgen/languages"
)

// The packages a Python project's CI installs with apt are planned for
// its image, except the toolchains curate decides itself (python3-dev,
// Ubuntu's nodejs) and what the plan already has.
func TestAptPackagesOfTheCI(t *testing.T) {
	workflow := "jobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - run: |\n          sudo apt-get update\n          sudo apt-get install -y --no-install-recommends libxml2-dev libxslt1-dev python3-dev nodejs git \\\n            graphviz\n      - run: pytest\n"
	tree := envgen.MapTree("o/r", map[string]string{
		"pyproject.toml":           "[project]\nname = \"r\"\n",
		"r/__init__.py":            "",
		"tests/test_r.py":          "def test_r():\n    pass\n",
		".github/workflows/ci.yml": workflow,
	})
	p, err := envgen.LanguageFor("python").Plan(tree, envgen.Tests{Files: []string{"tests/test_r.py"}})
	if err != nil {
		t.Fatal(err)
	}
	steps := strings.Join(p.ToolchainSteps, "\n")
	if !strings.Contains(steps, "curate-apt 'libxml2-dev' 'libxslt1-dev' 'graphviz'") {
		t.Errorf("toolchain steps lack the CI's packages:\n%s", steps)
	}
	if p.Tools["curate-apt"] == "" {
		t.Errorf("no curate-apt helper in the plan")
	}
	notes := strings.Join(p.Notes, "\n")
	if !strings.Contains(notes, "the CI installs libxml2-dev libxslt1-dev graphviz (.github/workflows/ci.yml job test run apt-get install)") {
		t.Errorf("notes:\n%s", notes)
	}
	// No CI apt line: no step, no helper.
	bare, err := envgen.LanguageFor("python").Plan(envgen.MapTree("o/r", map[string]string{"pyproject.toml": "", "tests/test_r.py": ""}), envgen.Tests{Files: []string{"tests/test_r.py"}})
	if err != nil {
		t.Fatal(err)
	}
	if bare.Tools["curate-apt"] != "" {
		t.Errorf("curate-apt without a CI apt line")
	}
}

// curate-apt in the base image: what Debian 12 has is installed, a
// package it lacks (an Ubuntu or vendor name) is a note, not a failure.
func TestAptScriptInDocker(t *testing.T) {
	base := testenv.BaseImage(t)
	script, err := filepath.Abs("curate-apt.sh")
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("docker", "run", "--rm", "-v", script+":/usr/local/bin/curate-apt:ro", base, "sh", "-c",
		"curate-apt libyaml-dev libfoo-curate-nosuch-dev && test -f /usr/include/yaml.h").CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	for _, want := range []string{"the CI installs libfoo-curate-nosuch-dev; Debian 12 has no such package, left out", "curate: the CI's packages: libyaml-dev"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}
