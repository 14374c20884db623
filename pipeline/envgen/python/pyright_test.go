package python

import (
	"curate/pipeline/envgen"
	"curate/pipeline/envgen/envgentest"
	"strings"
	"testing"
	"time"
)

const pyrightTest = `import shutil, subprocess
import pytest

pytestmark = pytest.mark.skipif(shutil.which("pyright") is None, reason="Requires pyright.")

def test_baseline():
    out = subprocess.run(["pyright", "--outputjson", "x.py"], capture_output=True)
`

func TestPyrightWhenTheTestsRunIt(t *testing.T) {
	tree := envgen.MapTree("o/n", map[string]string{
		"pyproject.toml":        "[project]\nname = \"n\"\n[project.optional-dependencies]\ntests = [\"hypothesis\"]\n",
		"tox.ini":               "[testenv]\nextras = tests\ncommands = pytest {posargs}\n\n[testenv:pyright]\nextras = tests\ndeps = pyright>=1.1.380\ncommands = pytest tests/test_pyright.py -vv\n",
		"n/__init__.py":         "",
		"tests/test_pyright.py": pyrightTest,
	})
	tree.Date = time.Date(2024, 12, 9, 14, 3, 4, 0, time.FixedZone("CET", 3600))
	p, err := envgen.LanguageFor("python").Plan(tree, envgen.Tests{Files: []string{"tests/test_pyright.py"}})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(p.ToolchainSteps[len(p.ToolchainSteps)-1], "curate-node 22 ") || p.Tools["curate-node"] == "" {
		t.Errorf("node is not in the toolchain: %q", p.ToolchainSteps)
	}
	for _, e := range []string{"PYRIGHT_PYTHON_CACHE_DIR=/opt/pyright", "PYRIGHT_PYTHON_IGNORE_WARNINGS=1", "NPM_CONFIG_CACHE=/opt/pyright/npm", "NPM_CONFIG_PREFER_OFFLINE=true"} {
		if !envgentest.HasEnv(p, e) {
			t.Errorf("env lacks %s: %v", e, p.Env)
		}
	}
	if len(p.DepSteps) != 3 || !strings.Contains(p.DepSteps[0], "curate-pip.py") ||
		!strings.HasPrefix(p.DepSteps[1], "python -m pip install -q --uploaded-prior-to 2024-12-09T13:03:04Z 'pyright>=1.1.380' || ") ||
		!strings.Contains(p.DepSteps[2], "pyright --version") || !strings.Contains(p.DepSteps[2], "the npm registry") {
		t.Errorf("dependency steps: requirements, pyright as of the commit date (UTC), then pyright primed:\n%s", strings.Join(p.DepSteps, "\n"))
	}
	if strings.Contains(p.Files["requirements.txt"], "pyright") {
		t.Errorf("pyright is installed by its own step, not from requirements.txt: %q", p.Files["requirements.txt"])
	}
	notes := strings.Join(p.Notes, "\n")
	if !strings.Contains(notes, "pyright (tests/test_pyright.py run pyright; tox.ini [testenv:pyright] asks for pyright>=1.1.380)") ||
		!strings.Contains(notes, "before 2024-12-09T13:03:04Z (the revision's commit date)") {
		t.Errorf("the note must say why and which pyright:\n%s", notes)
	}
	// In the Dockerfile: node, then the cache's ENV, then the install and
	// the priming run, all before the repository.
	df := envgen.Dockerfile("o__n-1", "curate/base:bookworm", p, envgen.Network{}, envgen.RepoConfig{}, false)
	order := []string{"COPY tools/ /usr/local/bin/", "RUN curate-node 22 ", "ENV PYRIGHT_PYTHON_CACHE_DIR=/opt/pyright", "--uploaded-prior-to 2024-12-09T13:03:04Z 'pyright", "' pyright --version", "ADD repo.tar"}
	at := -1
	for _, s := range order {
		i := strings.Index(df, s)
		if i <= at {
			t.Fatalf("Dockerfile: %q missing or out of order (%v):\n%s", s, order, df)
		}
		at = i
	}
}

func TestPyrightWhenATestGroupNamesIt(t *testing.T) {
	p, err := envgen.LanguageFor("python").Plan(envgen.MapTree("o/n", map[string]string{
		"pyproject.toml":   "[project]\nname = \"n\"\n[dependency-groups]\ntests = [\"pytest\", \"pyright[nodejs]==1.1.400\"]\n",
		"tests/test_ok.py": "def test_ok():\n    pass\n",
	}), envgen.Tests{Files: []string{"tests/test_ok.py"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.DepSteps) != 3 || p.DepSteps[1] != envgen.RegistryStep("the package index (${PIP_INDEX_URL:-https://pypi.org/simple})", pyMissingSed, "python -m pip install -q 'pyright[nodejs]==1.1.400'") {
		t.Errorf("without a commit date: the declared requirement as is:\n%s", strings.Join(p.DepSteps, "\n"))
	}
	if p.Files["requirements.txt"] != "pytest\n" {
		t.Errorf("requirements.txt %q", p.Files["requirements.txt"])
	}
	if !strings.Contains(strings.Join(p.Notes, "\n"), "pyright (the test requirements name pyright)") {
		t.Errorf("notes %v", p.Notes)
	}
}

func TestNoPyrightUnlessNeeded(t *testing.T) {
	p, err := envgen.LanguageFor("python").Plan(envgen.MapTree("o/n", map[string]string{
		"pyproject.toml":        "[project]\nname = \"n\"\n[dependency-groups]\npyright = [\"pyright\"]\n",
		"tox.ini":               "[testenv:typing-pyright]\ndependency_groups = pyright\ncommands =\n    pyright\n",
		"tests/test_pyright.py": pyrightTest,
		"tests/test_mypy.py":    "import subprocess\n\ndef test_mypy():\n    subprocess.run([\"mypy\", \"x.py\"])\n",
	}), envgen.Tests{Files: []string{"tests/test_mypy.py"}})
	if err != nil {
		t.Fatal(err)
	}
	all := strings.Join(append(append(append([]string{}, p.ToolchainSteps...), p.DepSteps...), p.Env...), "\n")
	if strings.Contains(all, "pyright") || strings.Contains(all, "node --version") {
		t.Errorf("no test of the PR runs pyright and no test requirement names it, yet:\n%s", all)
	}
}

func TestPyrightDeclared(t *testing.T) {
	for _, c := range []struct {
		name        string
		files       map[string]string
		spec, where string
	}{
		{"dependency group of its own", map[string]string{"pyproject.toml": "[dependency-groups]\npyright = [\"pyright>=1.1.390\", {include-group = \"tests\"}]\n"},
			"pyright>=1.1.390", "pyproject.toml dependency-groups.pyright"},
		{"tox env, factor-conditional", map[string]string{"tox.ini": "[testenv:typing]\ndeps =\n    mypy\n    py312: pyright==1.1.311  # pinned\ncommands = pyright\n"},
			"pyright==1.1.311", "tox.ini [testenv:typing]"},
		{"a command is not a requirement", map[string]string{"tox.ini": "[testenv:typing-pyright]\ndependency_groups = pyright\ncommands =\n    pyright\n    pytest tests/test_pyright.py\n"},
			"", ""},
		{"nothing", map[string]string{"setup.py": "setup(name='x')\n"}, "", ""},
	} {
		spec, where := pyrightDeclared(envgen.MapTree("o/n", c.files))
		if spec != c.spec || where != c.where {
			t.Errorf("%s: %q from %q, want %q from %q", c.name, spec, where, c.spec, c.where)
		}
	}
}
