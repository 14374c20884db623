package python

import (
	"curate/pipeline/envgen"
	"curate/pipeline/envgen/ciconfig"
	_ "embed"
	"fmt"
	"path"
	"regexp"
	"sort"
	"strings"

	"github.com/pelletier/go-toml/v2"
)

// python plans Python tasks: Debian's interpreter in a venv that also sees
// Debian's python3-* packages, the project's runtime and test
// requirements from every common place installed with pip, the project
// itself installed editable (else its source folder on the path), and
// pytest (unittest when pytest cannot be had).
type python struct{}

func init() { envgen.Register(python{}) }

func (python) Name() string { return "python" }

var pyTestRe = regexp.MustCompile(`(?m)^\s*(?:async\s+)?def\s+(test\w*)\s*\(`)

func (python) TestNames(_, content string) []string { return envgen.NamesMatching(pyTestRe, content) }

var (
	//go:embed curate-pip.py
	pipHelper string
	//go:embed pydeb.csv
	pyDebianTable string
)

// pyMissingSed prints the requirement pip could not find.
const pyMissingSed = `s/.*No matching distribution found for ([^ ;]+).*/\1/p`

func (python) Plan(tree *envgen.Tree, tests envgen.Tests) (*envgen.Plan, error) {
	p := &envgen.Plan{Language: "python", Packages: []string{"python3", "python3-venv", "python3-pip"}}
	var pp map[string]any
	if text := tree.Text("pyproject.toml"); text != "" {
		if err := toml.Unmarshal([]byte(text), &pp); err != nil {
			p.Note("pyproject.toml does not parse (%v): its settings are skipped", firstLine(err.Error()))
		}
	}
	spec, from := requiresPython(tree, pp)
	version, why, ok := pyInterpreter(tree, spec, from)
	switch {
	case !ok:
		p.Toolchain = envgen.Toolchain{Name: "python", Version: DebianPython, Why: "Debian 12's python3"}
		p.Decide("python", DebianPython, fmt.Sprintf("Debian 12, the newest the Debian archive has; %s %q excludes it and %s (Debian 11)", from, spec, OlderPython))
		p.ToolchainSteps = append(p.ToolchainSteps, envgen.FailStep("toolchain_mismatch", "%s %q wants another Python; present %s (Debian 12) and %s (Debian 11), the only ones the Debian archive serves", from, spec, DebianPython, OlderPython))
	case version == OlderPython:
		p.Toolchain = envgen.Toolchain{Name: "python", Version: OlderPython, Why: "Debian 11's python3.9: " + why}
		p.Decide("python", OlderPython, "Debian 11's python3.9: "+why)
	case spec != "":
		p.Toolchain = envgen.Toolchain{Name: "python", Version: DebianPython, Why: "Debian 12's python3"}
		p.Decide("python", DebianPython, fmt.Sprintf("Debian 12's python3, which %s %q allows", from, spec))
	default:
		p.Toolchain = envgen.Toolchain{Name: "python", Version: DebianPython, Why: "Debian 12's python3"}
		if v, src, ok := ciconfig.Read(tree).Version(ciconfig.Python); ok {
			p.Decide("python", DebianPython, src+" "+v+" (no requires-python; Debian 12's python3)")
		} else {
			p.Decide("python", DebianPython, "Debian 12's python3 (the project states no requires-python)")
		}
	}
	dev := pyNeedsCompiler(tree)
	if dev {
		p.Packages = append(p.Packages, "gcc", "python3-dev")
		p.Note("C extensions (setup.py Extension or .pyx/.c sources): gcc and python3-dev installed")
	}
	if version == OlderPython {
		// Its own venv: Debian 12's python3-* packages are for 3.11.
		p.ToolchainSteps = append(p.ToolchainSteps, olderPythonSteps(why, dev)...)
	} else {
		p.ToolchainSteps = append(p.ToolchainSteps, "python3 -m venv --system-site-packages /opt/venv")
	}
	// A venv that sees Debian's packages (the air-gapped fallback), pip
	// upgraded once (old pips miss newer metadata) in a shared layer.
	p.ToolchainSteps = append(p.ToolchainSteps,
		envgen.RegistryStep("the package index (${PIP_INDEX_URL:-https://pypi.org/simple})", pyMissingSed, "/opt/venv/bin/python -m pip install -q --upgrade pip")+" || echo 'curate: note: pip not upgraded'")
	p.Env = []string{"VIRTUAL_ENV=/opt/venv", "PATH=/opt/venv/bin:$PATH", "PYTHONDONTWRITEBYTECODE=1", "PIP_DISABLE_PIP_VERSION_CHECK=1",
		"SETUPTOOLS_SCM_PRETEND_VERSION=" + pyPretendVersion(tree.Version)}

	srcLayout := false
	for _, f := range tree.Glob("src/*/__init__.py") {
		if !strings.HasPrefix(path.Base(path.Dir(f)), "test") {
			srcLayout = true
		}
	}
	if srcLayout {
		p.Env = append(p.Env, "PYTHONPATH=/app/src:/app")
		p.Note("src/ layout: /app/src on PYTHONPATH (importable even when the install fails)")
	} else {
		p.Env = append(p.Env, "PYTHONPATH=/app")
	}

	reqs := collectPyReqs(tree)
	// pyright, when the tests need it, has steps of its own (after these).
	list := append([]string{}, pyright(p, tree, tests, reqs.reqs)...)
	hasPytest := false
	for _, q := range list {
		if reqName(q) == "pytest" {
			hasPytest = true
		}
	}
	if !hasPytest {
		list = append(list, "pytest")
	}
	switch {
	case len(reqs.sources) > 0:
		p.Note("requirements from %s", strings.Join(reqs.sources, ", "))
	case len(reqs.extras) > 0:
		p.Note("requirements from the project's test extras only (installed with the project)")
	default:
		p.Note("no requirements declared anywhere; pytest only")
	}
	p.Files = map[string]string{"requirements.txt": strings.Join(list, "\n") + "\n", "curate-pip.py": pipHelper, "pydeb.csv": pyDebianTable}
	pipStep := envgen.CacheEnv("python /usr/local/share/curate/curate-pip.py /usr/local/share/curate/requirements.txt " + envgen.ShellQuote(envgen.UnreachableRe))
	if asOf, later, why := pyResolutionDates(tree.Date, p.Toolchain.Version); why != "" {
		// No lockfile: as of the revision, the versions its tests were
		// written against (today's pytest or a dependency's new major
		// breaks old suites); curate-pip falls back to today's.
		if later != "" {
			pipStep = "CURATE_INTERPRETER_RELEASED=" + later + " " + pipStep
		}
		pipStep = "CURATE_UPLOADED_PRIOR_TO=" + asOf + " " + pipStep
		p.Note("requirements resolved as of %s (pip --uploaded-prior-to; %s), today's versions when that fails", asOf, why)
	}
	p.DepSteps = append([]string{pipStep}, p.DepSteps...)

	installable := tree.Has("pyproject.toml") || tree.Has("setup.py")
	if installable {
		target := "."
		if len(reqs.extras) > 0 {
			target = ".[" + strings.Join(reqs.extras, ",") + "]"
			p.Note("project installed editable with its test extras %s", strings.Join(reqs.extras, ", "))
		} else {
			p.Note("project installed editable (pip install -e .)")
		}
		p.Install = []string{envgen.CacheEnv("python -m pip install -q -e "+envgen.ShellQuote(target)) + " || " + envgen.CacheEnv("python -m pip install -q --no-deps -e .") + " || echo 'curate: note: the project did not install; its source folder is on PYTHONPATH'"}
	} else {
		p.Note("no pyproject.toml or setup.py: the source folder is on PYTHONPATH")
	}
	p.Install = append(p.Install, "python -c 'import pytest' 2>/dev/null || echo 'curate: note: pytest is not importable: unittest runs the tests'")

	files, why := pyTestTargets(tree, tests.Files, pytestPythonFiles(tree, pp))
	if why != "" {
		p.Note("%s", why)
	}
	args := envgen.QuoteAll(files)
	capW, why := warningsCap(tree, p.Toolchain.Version)
	if why != "" {
		p.Note("%s", why)
	}
	noCov, why := coverageOff(tree)
	if why != "" {
		p.Note("%s", why)
	}
	p.Test = envgen.Runner{
		Command: pyTestEnv + "if python -c 'import pytest' 2>/dev/null; then " + pytestOverrideIni +
			"python -m pytest -rA -p no:cacheprovider $ini --junitxml=/logs/verifier/junit.xml " + capW + noCov + args + " 2>&1 | tee /logs/verifier/pytest.txt; " +
			"else python -m unittest -v " + args + " 2>&1 | tee /logs/verifier/unittest.txt; fi; test ${PIPESTATUS[0]} -eq 0",
		Check:     `{ grep -q '<testcase' /logs/verifier/junit.xml 2>/dev/null || grep -Eq '^Ran [1-9][0-9]* tests? in' /logs/verifier/unittest.txt 2>/dev/null; }`,
		LogFormat: "pytest",
	}
	p.Note("tests: pytest (the project's configuration honoured) on %s; unittest when pytest is missing", strings.Join(files, " "))
	ciconfig.AptPackages(p, tree)
	return p, nil
}

// pyTestEnv: the image writes no bytecode (PYTHONDONTWRITEBYTECODE), the
// tests run as the project's CI runs them, with it: a test runner's own
// tests remove the __pycache__ its assertion rewriting writes.
const pyTestEnv = "unset PYTHONDONTWRITEBYTECODE; "

// pytestOverrideIni sets $ini to the junit_family override when the
// image's pytest has -o (pytest 3.0 on): a revision's dated pytest may be
// 2.x, which stops at "unrecognized arguments: -o". The = form keeps
// pytest 3.0's -o (nargs='*') from taking the test paths as more options.
const pytestOverrideIni = `ini=$(python -c 'import pytest; print("--override-ini=junit_family=xunit1" if int(pytest.__version__.split(".")[0]) >= 3 else "")'); `

// pyTestTargets are what pytest runs for the PR's test files: its test
// modules (by pytest's default names or the project's python_files); when it changed only helpers or data (conftest.py, a helper
// module, tests/data/x.json), pytest's collection of the package that
// holds them: the nearest folder above each with test modules in it (a
// data folder holds none, and pytest on it collects nothing).
func pyTestTargets(tree *envgen.Tree, files, pythonFiles []string) ([]string, string) {
	var mods []string
	dirs := map[string]bool{}
	for _, f := range files {
		if isPyTestModule(f) || (strings.HasSuffix(f, ".py") && matchesPythonFiles(pythonFiles, f)) {
			mods = append(mods, f)
			continue
		}
		dirs[pyPackageWithTests(tree, path.Dir(f))] = true
	}
	if len(mods) > 0 {
		return mods, ""
	}
	var out []string
	for d := range dirs {
		out = append(out, d)
	}
	sort.Strings(out)
	if len(out) == 0 {
		return []string{"."}, ""
	}
	return out, "the PR changes test helpers or data only: pytest collects the folders holding them (" + strings.Join(out, " ") + ")"
}

func isPyTestModule(f string) bool {
	base := path.Base(f)
	return strings.HasSuffix(base, ".py") && (strings.HasPrefix(base, "test") || strings.HasSuffix(base, "_test.py") || strings.HasSuffix(base, "_tests.py"))
}

// pyPackageWithTests is dir, or the nearest folder above it whose tree
// holds a test module ("." at the top).
func pyPackageWithTests(tree *envgen.Tree, dir string) string {
	for {
		prefix := dir + "/"
		if dir == "." {
			return "."
		}
		for _, f := range tree.Files {
			if strings.HasPrefix(f, prefix) && isPyTestModule(f) {
				return dir
			}
		}
		dir = path.Dir(dir)
	}
}

// pyNeedsCompiler: C extensions are built at install time.
func pyNeedsCompiler(tree *envgen.Tree) bool {
	if strings.Contains(tree.Text("setup.py"), "Extension(") {
		return true
	}
	for _, f := range tree.Files {
		if strings.HasSuffix(f, ".pyx") || (strings.HasSuffix(f, ".c") && !strings.Contains(f, "test")) {
			return true
		}
	}
	return false
}

var pyReleaseRe = regexp.MustCompile(`^v?(\d+(?:\.\d+)*)`)

// pyPretendVersion is the version setuptools-scm and hatch-vcs report
// (the image has no git history): the nearest tag's release, else 0.0.0.
func pyPretendVersion(describe string) string {
	if m := pyReleaseRe.FindStringSubmatch(describe); m != nil {
		return m[1]
	}
	return "0.0.0"
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
