package envgen

import "regexp"

// python plans Python tasks.
type python struct{}

func init() { register(python{}) }

func (python) Name() string { return "python" }

var pyTestRe = regexp.MustCompile(`(?m)^\s*(?:async\s+)?def\s+(test\w*)\s*\(`)

func (python) TestNames(_, content string) []string { return namesMatching(pyTestRe, content) }

func (python) Plan(tree *Tree, tests Tests) (*Plan, error) {
	p := &Plan{Language: "python", Toolchain: Toolchain{Name: "python", Version: "3.11", Why: "Debian 12's python3"},
		Packages: []string{"python3", "python3-pip", "python3-pytest"}}
	p.Env = []string{"PYTHONPATH=/app", "PYTHONDONTWRITEBYTECODE=1"}
	if tree.Has("requirements.txt") {
		p.Install = append(p.Install, "python3 -m pip install -q -r requirements.txt")
	}
	if tree.Has("pyproject.toml") || tree.Has("setup.py") {
		p.Install = append(p.Install, "python3 -m pip install -q --no-deps --no-build-isolation -e .")
	}
	p.Test = Runner{
		Command:   "python3 -m pytest -rA -p no:cacheprovider -o junit_family=xunit1 --junitxml=/logs/verifier/junit.xml " + quoteAll(tests.Files),
		Check:     `grep -q '<testcase' /logs/verifier/junit.xml`,
		LogFormat: "pytest",
	}
	return p, nil
}
