package ciconfig

import (
	"os"
	"strings"
	"testing"

	"curate/pipeline/envgen"
)

func tree(files map[string]string) *envgen.Tree { return envgen.MapTree("o/r", files) }

// TestWorkflowMatrixInclude: FasterXML/jackson-core's main.yml at
// b367da1c: java_version [8, 17, 21, 24] on ubuntu, include entries that
// extend java 8 on ubuntu (release_build) and add java 8 on Windows. The
// Linux entries tie, so the newest runs; ./mvnw verify is the test.
func TestWorkflowMatrixInclude(t *testing.T) {
	data, err := os.ReadFile("testdata/jackson-core-main.yml")
	if err != nil {
		t.Fatal(err)
	}
	c := Read(tree(map[string]string{".github/workflows/main.yml": string(data)}))
	if v, src, _ := c.Version(Java); v != "24" || src != ".github/workflows/main.yml job build setup-java" {
		t.Errorf("java %q from %q", v, src)
	}
	if len(c.Tests) == 0 || c.Tests[0].Value != "./mvnw -B -q -ff -ntp verify" {
		t.Errorf("tests %v", c.Tests)
	}
}

// TestWorkflowOSMatrix: assertj/assertj's main.yml at 4c5ab486: the java
// job runs on [ubuntu-latest, macOS-latest, windows-latest] with Java 25;
// the Linux entry is read, and the test command is ./mvnw ... verify.
func TestWorkflowOSMatrix(t *testing.T) {
	data, err := os.ReadFile("testdata/assertj-main.yml")
	if err != nil {
		t.Fatal(err)
	}
	c := Read(tree(map[string]string{".github/workflows/main.yml": string(data)}))
	if v, src, _ := c.Version(Java); v != "25" || !strings.HasPrefix(src, ".github/workflows/main.yml job ") {
		t.Errorf("java %q from %q", v, src)
	}
	if len(c.Tests) == 0 || !strings.Contains(c.Tests[0].Value, "./mvnw $MAVEN_ARGS verify") {
		t.Errorf("tests %v", c.Tests)
	}
}

func TestWorkflowShapes(t *testing.T) {
	wf := `
on: [push]
jobs:
  docs:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/setup-python@v5
        with: {python-version: "3.8"}
      - run: make docs
  test:
    runs-on: ${{ matrix.os }}
    strategy:
      matrix:
        os: [ubuntu-latest, windows-latest]
        node: [18, 20, 22]
        exclude:
          - {os: ubuntu-latest, node: 22}
        include:
          - {os: ubuntu-latest, node: 20, extra: yes}
    services:
      postgres:
        image: postgres:16
      redis: {image: "redis:7"}
    steps:
      - uses: actions/setup-node@v4
        with:
          node-version: ${{ matrix.node }}
      - uses: dtolnay/rust-toolchain@1.74
      - run: |
          sudo apt-get update
          sudo apt-get install -y --no-install-recommends libpq-dev \
            protobuf-compiler=3.21 && echo ok
      - name: Run tests
        run: npm run ci-check
`
	c := Read(tree(map[string]string{".github/workflows/ci.yml": wf}))
	// node 18 and 20 on Linux once each (22 excluded): the newest.
	if v, src, _ := c.Version(Node); v != "20" || src != ".github/workflows/ci.yml job test setup-node" {
		t.Errorf("node %q from %q", v, src)
	}
	if v, _, _ := c.Version(Rust); v != "1.74" {
		t.Errorf("rust %q", v)
	}
	if v, src, _ := c.Version(Python); v != "3.8" || !strings.Contains(src, "job docs") {
		t.Errorf("python %q from %q: the docs job's, as no other job sets one", v, src)
	}
	var pk, sv []string
	for _, p := range c.Packages {
		pk = append(pk, p.Value)
	}
	for _, s := range c.Services {
		sv = append(sv, s.Value)
	}
	if strings.Join(pk, " ") != "libpq-dev protobuf-compiler" || strings.Join(sv, " ") != "postgres:16 redis:7" {
		t.Errorf("packages %v services %v", pk, sv)
	}
	if len(c.Tests) != 1 || c.Tests[0].Value != "npm run ci-check" {
		t.Errorf("tests %v", c.Tests)
	}
}

func TestGitLabTravisToxNox(t *testing.T) {
	c := Read(tree(map[string]string{".gitlab-ci.yml": `
image: python:3.11-slim
stages: [lint, test]
lint:
  stage: lint
  script: [ruff check .]
unit:
  stage: test
  image: {name: "node:18-bullseye"}
  services: [postgres:15]
  before_script: ["apt-get install -y graphviz"]
  script:
    - npm ci
    - npm test
`}))
	if v, src, _ := c.Version(Node); v != "18" || src != ".gitlab-ci.yml job unit image node:18-bullseye" {
		t.Errorf("node %q from %q", v, src)
	}
	if v, _, _ := c.Version(Python); v != "3.11" {
		t.Errorf("python %q (the default image)", v)
	}
	if len(c.Tests) != 1 || c.Tests[0].Value != "npm test" || len(c.Packages) != 1 || c.Packages[0].Value != "graphviz" || len(c.Services) != 1 {
		t.Errorf("tests %v packages %v services %v", c.Tests, c.Packages, c.Services)
	}

	c = Read(tree(map[string]string{".travis.yml": "language: java\njdk:\n  - openjdk8\n  - openjdk11\naddons:\n  apt:\n    packages: [libxml2-utils]\nservices: [mysql]\nscript: mvn -B test\n"}))
	if v, src, _ := c.Version(Java); v != "8" || src != ".travis.yml jdk" {
		t.Errorf("travis jdk %q from %q", v, src)
	}
	if len(c.Packages) != 1 || len(c.Services) != 1 || len(c.Tests) != 1 || c.Tests[0].Value != "mvn -B test" {
		t.Errorf("travis %+v", c)
	}

	c = Read(tree(map[string]string{"tox.ini": "[tox]\nenvlist = py39, py310,\n    lint\n\n[testenv]\ndeps = pytest\ncommands =\n    pytest {posargs}\n"}))
	if v, _, _ := c.Version(Python); v != "3.9" || len(c.Tests) != 1 || c.Tests[0].Value != "pytest {posargs}" {
		t.Errorf("tox: python %q tests %v", v, c.Tests)
	}
	c = Read(tree(map[string]string{"noxfile.py": "import nox\n\n@nox.session(python=[\"3.10\", \"3.12\"])\ndef tests(session):\n    session.install('.')\n    session.run(\"pytest\", \"-q\")\n"}))
	if v, _, _ := c.Version(Python); v != "3.10" || len(c.Tests) != 1 || c.Tests[0].Value != "pytest -q" {
		t.Errorf("nox: python %q tests %v", v, c.Tests)
	}
}

// The first CI file that names a version wins; a file that is not YAML,
// or a job on macOS only, adds nothing.
func TestPrecedenceAndJunk(t *testing.T) {
	c := Read(tree(map[string]string{
		".github/workflows/a-release.yml": "jobs:\n  r:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/setup-go@v5\n        with: {go-version: '1.20'}\n",
		".github/workflows/test.yml":      "jobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/setup-go@v5\n        with: {go-version: '1.22'}\n      - run: go test ./...\n",
		".github/workflows/mac.yml":       "jobs:\n  m:\n    runs-on: macos-14\n    steps:\n      - uses: actions/setup-java@v4\n        with: {java-version: 21}\n",
		".github/workflows/bad.yml":       "jobs: [: oops",
		".travis.yml":                     "go: ['1.10']\n",
	}))
	if v, src, _ := c.Version(Go); v != "1.22" || src != ".github/workflows/test.yml job t setup-go" {
		t.Errorf("go %q from %q", v, src)
	}
	if _, _, ok := c.Version(Java); ok {
		t.Errorf("java from a macOS-only job: %v", c.Versions)
	}
}

// A cmake command's -D settings are read with the chosen matrix entry in
// place; a value nobody can read here (env, secrets) is left out.
func TestWorkflowCMakeDefines(t *testing.T) {
	wf := `on: [push]
jobs:
  docs:
    runs-on: ubuntu-latest
    steps:
      - run: echo no cmake here -DNOT=1
  test:
    runs-on: ubuntu-latest
    strategy:
      matrix:
        std: [17, 20]
    steps:
      - run: |
          cmake -S . -B build -G Ninja \
            -DCMAKE_CXX_STANDARD=${{ matrix.std }} -DWITH_X:BOOL=ON -DFLAGS="-O2 -g" -DSECRET=${{ secrets.K }}
          ctest --test-dir build
`
	c := Read(tree(map[string]string{".github/workflows/ci.yml": wf}))
	var got []string
	for _, d := range c.Defines {
		got = append(got, d.Value)
		if d.Source != ".github/workflows/ci.yml job test run cmake" {
			t.Errorf("source %q", d.Source)
		}
	}
	if strings.Join(got, " ") != "CMAKE_CXX_STANDARD=20 WITH_X=ON FLAGS=-O2 -g" {
		t.Errorf("defines %q", got)
	}
}
