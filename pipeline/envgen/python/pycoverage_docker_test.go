package python

import (
	"os/exec"
	"strings"
	"testing"

	"curate/internal/testenv"
	"curate/pipeline/envgen"
)

// A project that turns pytest-cov on with a coverage bar in its pytest
// configuration (the shape of a held-out Python repository whose three
// PRs were all `unclassified` with "Coverage failure: total of 71 is less
// than fail-under=99"): the task runs one test file, which passes, and the
// run must pass too. Run in Debian's pytest and pytest-cov.
func TestCoverageBarDoesNotFailTheRun(t *testing.T) {
	files := map[string]string{
		"pyproject.toml": "[tool.pytest.ini_options]\naddopts = \"--cov=calc --cov-fail-under=99\"\n",
		"calc.py":        "def add(a, b):\n    return a + b\n\n\ndef sub(a, b):\n    return a - b\n",
		"test_add.py":    "from calc import add\n\n\ndef test_add():\n    assert add(1, 2) == 3\n",
	}
	p, err := envgen.LanguageFor("python").Plan(envgen.MapTree("o/n", files), envgen.Tests{Files: []string{"test_add.py"}})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.Join(p.Notes, "\n"), "pyproject.toml turns pytest-cov on (--cov): runs pass --no-cov") {
		t.Errorf("notes %q do not say coverage is off", p.Notes)
	}
	for name, tree := range map[string]map[string]string{
		"no coverage":        {"pyproject.toml": "[tool.pytest.ini_options]\naddopts = \"-ra\"\n"},
		"coverage elsewhere": {"tox.ini": "[testenv]\ncommands = pytest --cov=calc\n"},
	} {
		q, err := envgen.LanguageFor("python").Plan(envgen.MapTree("o/n", tree), envgen.Tests{Files: []string{"test_add.py"}})
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(q.Test.Command, "no-cov") {
			t.Errorf("%s: --no-cov in %q", name, q.Test.Command)
		}
	}
	img := testenv.PackagesImage(t, "python3-pytest", "python3-pytest-cov")
	script := "ln -sf /usr/bin/python3 /usr/local/bin/python && mkdir -p /p /logs/verifier && cd /p"
	for name, text := range files {
		script += " && printf '%s' " + envgen.ShellQuote(strings.ReplaceAll(text, "%", "%%")) + " > " + name
	}
	script += " && { python -m pytest -q test_add.py >/dev/null 2>&1 && echo 'bar met without the option'; true; } && " + p.Test.Command
	out, err := exec.Command("docker", "run", "--rm", "--network", "none", img, "bash", "-c", script).CombinedOutput()
	if err != nil {
		t.Fatalf("the run failed: %v\n%s", err, out)
	}
	if strings.Contains(string(out), "bar met without the option") || !strings.Contains(string(out), "1 passed") {
		t.Errorf("want the project's own run to fail on its bar and the task's run to pass:\n%s", out)
	}
}
