package python

import (
	"curate/pipeline/envgen"
	"curate/pipeline/envgen/envgentest"
	"encoding/csv"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestPyRequirementsFromEveryPlace(t *testing.T) {
	tree := envgen.MapTree("o/n", map[string]string{
		"pyproject.toml": `[project]
name = "My_Pkg"
dependencies = ["six>=1"]
[project.optional-dependencies]
tests = ["my-pkg[tests-no-zope]", "zope.interface"]
tests-no-zope = ["hypothesis", "pytest>=7"]
dev = ["ruff"]
docs = ["sphinx"]
[dependency-groups]
testing = ["coverage", {include-group = "base"}]
base = ["pympler"]
`,
		"setup.cfg":                  "[options.extras_require]\ntest =\n    mock\n    freezegun  # time\n",
		"requirements.txt":           "requests==2.31\n",
		"requirements/tests.txt":     "-r base.txt\n-e .\npytest-xdist --hash=sha256:abc\n",
		"requirements/base.txt":      "attrs\n",
		"requirements/docs.txt":      "sphinx\n",
		"tox.ini":                    "[testenv]\ndeps =\n    py38: typing-extensions\n    -r{toxinidir}/requirements/tests.txt\n    {posargs}\ncommands = pytest\n",
		"noxfile.py":                 "def tests(session):\n    session.install(\"-e\", \".\", \"pytest-mock\")\n",
		"src/my_pkg/__init__.py":     "",
		"tests/test_a.py":            "",
		"requirements-dev-extra.txt": "git+https://github.com/x/y\n",
	})
	r := collectPyReqs(tree)
	want := []string{"six>=1", "hypothesis", "pytest>=7", "zope.interface", "coverage", "pympler", "mock", "freezegun",
		"requests==2.31", "attrs", "pytest-xdist", "typing-extensions", "pytest-mock"}
	if !reflect.DeepEqual(r.reqs, want) {
		t.Errorf("requirements\n got  %q\n want %q", r.reqs, want)
	}
	if !reflect.DeepEqual(r.extras, []string{"test", "tests", "tests-no-zope"}) {
		t.Errorf("extras %v", r.extras)
	}
	for _, s := range []string{"pyproject.toml optional-dependencies.tests", "pyproject.toml dependency-groups.testing (PEP 735)", "setup.cfg extras_require.test", "requirements/tests.txt", "tox.ini [testenv] deps", "noxfile.py session.install"} {
		if !strings.Contains(strings.Join(r.sources, "|"), s) {
			t.Errorf("sources %v lack %q", r.sources, s)
		}
	}
}

func TestPyRequiresPython(t *testing.T) {
	for _, c := range []struct {
		spec string
		ok   bool
	}{
		{">=3.8", true}, {">=3.8,<3.11", false}, {"<3.8", false}, {"~=3.9", true}, {"~=3.9.0", false},
		{"==3.11.*", true}, {"!=3.11.*", false}, {">=3.12", false}, {">=2.7, !=3.0.*, !=3.1.*", true}, {"==3.11.2", true}, {"==3.11", false},
	} {
		if got := pySatisfies(DebianPython, c.spec); got != c.ok {
			t.Errorf("%s satisfies %q = %v, want %v", DebianPython, c.spec, got, c.ok)
		}
	}
	p, err := envgen.LanguageFor("python").Plan(envgen.MapTree("o/n", map[string]string{"setup.py": "setup(name='x', python_requires='>=2.6,<3.8')\n"}), envgen.Tests{Files: []string{"test_x.py"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.ToolchainSteps) == 0 || !strings.Contains(p.ToolchainSteps[0], "curate: toolchain_mismatch: setup.py python_requires \">=2.6,<3.8\" wants another Python; present 3.11.2 (Debian 12) and 3.9.2 (Debian 11)") {
		t.Errorf("a revision no Debian Python fits must fail with toolchain_mismatch naming wanted and present: %v", p.ToolchainSteps)
	}
}

func TestPyOlderInterpreter(t *testing.T) {
	for _, c := range []struct {
		name  string
		files map[string]string
		date  string // the revision's commit date; "" = unknown
		want  string
	}{
		{"requires-python excludes 3.11", map[string]string{"pyproject.toml": "[project]\nname = \"n\"\nrequires-python = \">=3.7,<3.11\"\n"}, "", OlderPython},
		{"classifiers end at 3.9", map[string]string{"setup.py": "setup(name='x', classifiers=['Programming Language :: Python :: 3.8', 'Programming Language :: Python :: 3.9'])\n"}, "", OlderPython},
		{"classifiers reach 3.11", map[string]string{"setup.cfg": "[metadata]\nclassifiers =\n    Programming Language :: Python :: 3.9\n    Programming Language :: Python :: 3.11\n"}, "", DebianPython},
		{"classifiers end at 3.9 but requires-python wants 3.10", map[string]string{"pyproject.toml": "[project]\nname = \"n\"\nrequires-python = \">=3.10\"\nclassifiers = [\"Programming Language :: Python :: 3.9\"]\n"}, "", DebianPython},
		// pallets/itsdangerous #186 (2020): requires-python >=3.6, no
		// versioned classifiers, pytest pinned at a release that does not
		// import on 3.11.
		{"a revision older than Python 3.11", map[string]string{"setup.cfg": "[options]\npython_requires = >= 3.6\n"}, "2020-08-31", OlderPython},
		{"a revision newer than Python 3.11", map[string]string{"setup.cfg": "[options]\npython_requires = >= 3.6\n"}, "2022-11-02", DebianPython},
		{"an old revision that wants 3.10", map[string]string{"setup.cfg": "[options]\npython_requires = >= 3.10\n"}, "2022-06-01", DebianPython},
	} {
		tree := envgen.MapTree("o/n", c.files)
		if c.date != "" {
			tree.Date, _ = time.Parse("2006-01-02", c.date)
		}
		p, err := envgen.LanguageFor("python").Plan(tree, envgen.Tests{Files: []string{"test_x.py"}})
		if err != nil {
			t.Fatal(err)
		}
		if p.Toolchain.Version != c.want {
			t.Errorf("%s: Python %s, want %s", c.name, p.Toolchain.Version, c.want)
		}
		steps := strings.Join(p.ToolchainSteps, "\n")
		older := strings.Contains(steps, "bullseye main") && strings.Contains(steps, "virtualenv -q -p python3.9 /opt/venv")
		if older != (c.want == OlderPython) {
			t.Errorf("%s: steps install Debian 11's python3.9 = %v, want %v:\n%s", c.name, older, c.want == OlderPython, steps)
		}
		if strings.Contains(steps, "toolchain_mismatch: ") && !strings.Contains(steps, "could not be installed") {
			t.Errorf("%s: a fitting interpreter must not fail the plan: %s", c.name, steps)
		}
	}
}

func TestPyPlanLayoutAndTargets(t *testing.T) {
	p, err := envgen.LanguageFor("python").Plan(envgen.MapTree("o/n", map[string]string{
		"pyproject.toml": "[project]\nname = \"n\"\n[project.optional-dependencies]\ntest = [\"hypothesis\"]\n", "src/n/__init__.py": "",
	}), envgen.Tests{Files: []string{"tests/test_n.py", "tests/conftest.py"}})
	if err != nil {
		t.Fatal(err)
	}
	if !envgentest.HasEnv(p, "PYTHONPATH=/app/src:/app") {
		t.Errorf("src layout not on the path: %v", p.Env)
	}
	if !strings.Contains(p.Install[0], "pip install -q -e '.[test]'") {
		t.Errorf("install %v", p.Install)
	}
	if !strings.Contains(p.Test.Command, "pytest -rA -p no:cacheprovider $ini --junitxml=/logs/verifier/junit.xml 'tests/test_n.py' ") || !strings.Contains(p.Test.Command, "unittest -v") {
		t.Errorf("test command %q", p.Test.Command)
	}
	if p.Files["requirements.txt"] != "hypothesis\npytest\n" {
		t.Errorf("requirements.txt %q", p.Files["requirements.txt"])
	}
	// A data folder holds no test module: pytest collects the package
	// above it (pytest on tests/data alone collects nothing).
	helpers := envgen.MapTree("o/r", map[string]string{"tests/conftest.py": "", "tests/data/x.json": "", "tests/test_n.py": ""})
	if got, why := pyTestTargets(helpers, []string{"tests/conftest.py", "tests/data/x.json"}, nil); !reflect.DeepEqual(got, []string{"tests"}) || why == "" {
		t.Errorf("helpers only: %v", got)
	}
}

func TestPyDebianTableIsData(t *testing.T) {
	var lines []string
	for _, l := range strings.Split(pyDebianTable, "\n") {
		if l != "" && !strings.HasPrefix(l, "#") {
			lines = append(lines, l)
		}
	}
	rows, err := csv.NewReader(strings.NewReader(strings.Join(lines, "\n"))).ReadAll()
	if err != nil {
		t.Fatalf("pydeb.csv: %v", err)
	}
	seen := map[string]bool{}
	for i, r := range rows {
		if len(r) != 2 || pyNormalize(r[0]) != r[0] || seen[r[0]] || r[1] == "" {
			t.Errorf("pydeb.csv row %d %q: want a normalised, unique PyPI name and a Debian package", i+1, r)
		}
		seen[r[0]] = true
	}
	if len(rows) < 50 || !seen["pytest"] || !seen["hypothesis"] || !seen["simplejson"] {
		t.Errorf("pydeb.csv has %d rows", len(rows))
	}
}

// setup.py may pass extras_require a dict it built above (attrs until
// 2023): the test extras are read from that dict.
func TestPySetupPyExtrasFromAVariable(t *testing.T) {
	tree := envgen.MapTree("python-attrs/attrs", map[string]string{
		"setup.py": `import os
from setuptools import setup
EXTRAS_REQUIRE = {
    "docs": ["furo", "sphinx"],
    "tests-no-zope": [
        "hypothesis",
        "pytest>=4.3.0",
    ],
    "tests": [
        "attrs[tests-no-zope]",
        "zope.interface",
    ],
}
EXTRAS_REQUIRE["tests_no_zope"] = EXTRAS_REQUIRE["tests-no-zope"]

if __name__ == "__main__":
    setup(
        name="attrs",
        python_requires=">=3.6",
        install_requires=[],
        extras_require=EXTRAS_REQUIRE,
    )
`,
		"src/attr/__init__.py": "",
		"tests/test_make.py":   "",
	})
	if r := collectPyReqs(tree); !reflect.DeepEqual(r.extras, []string{"tests", "tests-no-zope"}) {
		t.Errorf("extras %v, want the test extras of EXTRAS_REQUIRE", r.extras)
	}
}

// pytest 5262 (c8f7e50c, merged 2019-05-15): setup.py's "testing" extra
// (hypothesis>=3.56) was installed by `pip install -e .[testing]` at
// today's versions, and a test asserting empty stderr got hypothesis
// 6.141's warning that pytest 4.5 is too old. The test extras are
// requirements now, installed as of the revision; install_requires (here
// a variable) is left to the install, within its bounds.
func TestPySetupPyListsAreDated(t *testing.T) {
	tree := envgen.MapTree("o/n", map[string]string{
		"setup.py": `from setuptools import setup

# don't list py here: see below
INSTALL_REQUIRES = [
    "py>=1.5.0",
    'more-itertools>=4.0.0;python_version>"2.7"',  # it's split
    "pluggy>=0.9,!=0.10,<1.0",
]


def main():
    setup(
        extras_require={
            "testing": [
                "argcomplete",
                "hypothesis>=3.56",
                "other[extra]",
                "mock;python_version=='2.7'",
            ],
            "docs": ["sphinx"],
        },
        install_requires=INSTALL_REQUIRES,
    )
`,
		"testing/test_x.py": "",
	})
	r := collectPyReqs(tree)
	want := []string{"argcomplete", "hypothesis>=3.56", "other[extra]", "mock;python_version=='2.7'"}
	if !reflect.DeepEqual(r.reqs, want) {
		t.Errorf("requirements %q\nwant %q", r.reqs, want)
	}
	if !reflect.DeepEqual(r.extras, []string{"testing"}) {
		t.Errorf("extras %v, want [testing]", r.extras)
	}
	if got := setupPyList("setup(install_requires=['a'])", `install_requires\s*=`); got != "'a'" {
		t.Errorf("a literal list: %q", got)
	}
	if got := setupPyList("setup(install_requires=DEPS)", `install_requires\s*=`); got != "" {
		t.Errorf("a variable never assigned: %q", got)
	}
}
