package python

import (
	"curate/pipeline/envgen"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The junit_family override goes to pytest only when it has -o (3.0 on),
// as one argument: the same PR #2931 (merge b32c3bc1, 2015-12-16) of an
// HTTP client ran its dated pytest 2.8.1, which stopped at "pytest.py:
// error: unrecognized arguments: -o test_requests.py"; pytest 3.0's -o
// takes any number of values, so a separate one would swallow the paths.
// The plan's test command runs here against a stand-in pytest module
// that records its arguments.
func TestPytestOverrideOnlyWhereItExists(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Fatal("python3 is needed: the task images run the test command with it")
	}
	p, err := envgen.LanguageFor("python").Plan(envgen.MapTree("o/n", map[string]string{"setup.py": "", "n.py": ""}),
		envgen.Tests{Files: []string{"test_n.py"}})
	if err != nil {
		t.Fatal(err)
	}
	for version, want := range map[string]string{"2.8.1": "", "3.0.0": "--override-ini=junit_family=xunit1", "8.3.4": "--override-ini=junit_family=xunit1"} {
		dir := t.TempDir()
		python, _ := exec.LookPath("python3")
		files := map[string]string{
			"fake/pytest/__init__.py": "__version__ = " + `"` + version + `"` + "\n",
			"fake/pytest/__main__.py": "import os, sys\nopen(os.environ['ARGS_LOG'], 'w').write('\\n'.join(sys.argv[1:]))\n" +
				"open(os.environ['ARGS_LOG'] + '.env', 'w').write(os.environ.get('PYTHONDONTWRITEBYTECODE', ''))\n",
		}
		for rel, body := range files {
			os.MkdirAll(filepath.Dir(filepath.Join(dir, rel)), 0o755)
			if err := os.WriteFile(filepath.Join(dir, rel), []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		os.MkdirAll(filepath.Join(dir, "bin"), 0o755)
		os.MkdirAll(filepath.Join(dir, "logs"), 0o755)
		if err := os.Symlink(python, filepath.Join(dir, "bin", "python")); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command("bash", "-c", strings.ReplaceAll(p.Test.Command, "/logs/verifier", filepath.Join(dir, "logs")))
		cmd.Env = append(os.Environ(), "PATH="+filepath.Join(dir, "bin")+":"+os.Getenv("PATH"), "PYTHONPATH="+filepath.Join(dir, "fake"), "ARGS_LOG="+filepath.Join(dir, "args"),
			"PYTHONDONTWRITEBYTECODE=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("pytest %s: %v\n%s", version, err, out)
		}
		args, _ := os.ReadFile(filepath.Join(dir, "args"))
		var got []string
		for _, a := range strings.Split(string(args), "\n") {
			if a == "-o" || strings.HasPrefix(a, "--override-ini") || strings.Contains(a, "junit_family") {
				got = append(got, a)
			}
		}
		if strings.Join(got, " ") != want || !strings.Contains(string(args), "test_n.py") {
			t.Errorf("pytest %s got the arguments %q, want the override %q and the test path", version, args, want)
		}
		// A test runner's PR #5555 (merge b1928f87, 2019-07-04): its new
		// test_xfail_handling removes the __pycache__ pytest writes, and
		// failed in both states with "py.error.ENOENT: [No such file or
		// directory]: remove(.../__pycache__)" under the image's
		// PYTHONDONTWRITEBYTECODE=1.
		if env, _ := os.ReadFile(filepath.Join(dir, "args.env")); len(env) != 0 {
			t.Errorf("pytest %s ran with PYTHONDONTWRITEBYTECODE=%s: no bytecode written", version, env)
		}
	}
}

// pytest runs the PR's modules its python_files names: a test runner's PR
// #5631 (merge ec4ca59b, 2019-07-23) changed testing/python/integration.py,
// a module by tox.ini's "python_files = test_*.py *_test.py
// testing/*/*.py"; taken for a helper, it sent pytest to the whole
// testing/ folder. Without the setting, a helper still does.
func TestPytestTargetsFollowPythonFiles(t *testing.T) {
	files := map[string]string{"setup.py": "", "src/_pytest/compat.py": "", "testing/test_main.py": "", "testing/python/integration.py": "",
		"tox.ini": "[tox]\nenvlist = py37\n\n[pytest]\nminversion = 2.0\npython_files = test_*.py *_test.py testing/*/*.py\npython_classes = Test Acceptance\n"}
	for _, c := range []struct {
		ini, want string
	}{{files["tox.ini"], "'testing/python/integration.py'"}, {"", "'testing' "}} {
		files["tox.ini"] = c.ini
		p, err := envgen.LanguageFor("python").Plan(envgen.MapTree("o/n", files), envgen.Tests{Files: []string{"testing/python/integration.py"}})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(p.Test.Command, "--junitxml=/logs/verifier/junit.xml "+c.want) {
			t.Errorf("tox.ini %q: test command %q, want pytest on %s", c.ini, p.Test.Command, c.want)
		}
	}
}
