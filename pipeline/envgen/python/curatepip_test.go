package python

import (
	"curate/pipeline/envgen"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// fakePip stands in for `python -m pip` (found first on PYTHONPATH): it
// logs the requirements it is asked for and fails the way pip does for a
// pinned version the index lists but that does not install (iniconfig
// 1.0.0's sdist reports version 1.1 when built today) and for one the
// index lacks.
const fakePip = `import os, sys
args = sys.argv[1:]
if args[:1] == ["freeze"]:
    print("\n".join(os.environ.get("FAKE_PIP_FROZEN", "").split()))
    sys.exit(0)
constrained = ""
if "-c" in args:
    i = args.index("-c")
    constrained = " -c " + ",".join(l.strip() for l in open(args[i + 1]))
    del args[i:i + 2]
before = ""
if "--uploaded-prior-to" in args:
    i = args.index("--uploaded-prior-to")
    before = args[i + 1]
    del args[i:i + 2]
reqs = [a for a in args if not a.startswith("-") and a not in ("install", "off")]
if "--upgrade" in args:
    open(os.environ["FAKE_PIP_LOG"] + ".upgraded", "w").close()
with open(os.environ["FAKE_PIP_LOG"], "a") as f:
    f.write(("before=%s " % before if before else "") + " ".join(reqs) + constrained + "\n")
fail = False
for r in reqs:
    if before and before < os.environ.get("FAKE_PIP_BUILDS_FROM", "9") and r in os.environ.get("FAKE_PIP_TOO_OLD", "").split():
        print("      FileNotFoundError: [Errno 2] No such file or directory: '%s/version.py'" % r)
        print("error: metadata-generation-failed (%s needs a compiler this image lacks)" % r)
        sys.exit(1)
for r in reqs:
    if r in os.environ["FAKE_PIP_BROKEN"].split():
        print("Discarding ... has inconsistent version: expected '%s', but metadata has '1.1'" % r.split("==")[1])
        print("ERROR: Could not find a version that satisfies the requirement %s (from versions: 0.1, %s, 1.0.1)" % (r, r.split("==")[1]))
        print("ERROR: No matching distribution found for %s" % r)
        fail = True
    if r in os.environ["FAKE_PIP_MISSING"].split():
        print("ERROR: Could not find a version that satisfies the requirement %s (from versions: none)" % r)
        print("ERROR: No matching distribution found for %s" % r)
        fail = True
sys.exit(1 if fail else 0)
`

// runCuratePip runs curate-pip.py on reqs against fakePip and an index
// that answers; it returns the script's output, whether it passed, and
// the pip calls made.
func runCuratePip(t *testing.T, reqs, broken, missing string, env ...string) (string, bool, []string) {
	t.Helper()
	if _, err := exec.LookPath("python3"); err != nil {
		t.Fatal("python3 is needed: the task images run curate-pip.py with it")
	}
	dir := t.TempDir()
	files := map[string]string{"fake/pip/__init__.py": "", "fake/pip/__main__.py": fakePip, "curate-pip.py": pipHelper, "requirements.txt": reqs}
	if slices.Contains(env, "FAKE_PYTEST=old") {
		files["fake/pytest/__init__.py"], files["fake/pytest/__main__.py"] = "", fakeOldPytest
	}
	for rel, body := range files {
		p := filepath.Join(dir, rel)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	index := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {}))
	defer index.Close()
	cmd := exec.Command("python3", filepath.Join(dir, "curate-pip.py"), filepath.Join(dir, "requirements.txt"), envgen.UnreachableRe)
	cmd.Env = append(os.Environ(), "PYTHONPATH="+filepath.Join(dir, "fake"), "PIP_INDEX_URL="+index.URL+"/simple",
		"FAKE_PIP_LOG="+filepath.Join(dir, "calls"), "FAKE_PIP_BROKEN="+broken, "FAKE_PIP_MISSING="+missing)
	cmd.Env = append(cmd.Env, env...)
	out, err := cmd.CombinedOutput()
	calls, _ := os.ReadFile(filepath.Join(dir, "calls"))
	return string(out), err == nil, strings.Split(strings.TrimSpace(string(calls)), "\n")
}

// A pin the index lists but that does not install is loosened to its
// major series, said in the build log, and the build goes on; a pin the
// index lacks still fails the build as deps_missing, naming it
// (pallets/itsdangerous #186 pins iniconfig==1.0.0).
func TestCuratePipLoosensUninstallablePins(t *testing.T) {
	out, ok, calls := runCuratePip(t, "pytest==7.0.1\niniconfig==1.0.0\n", "iniconfig==1.0.0", "")
	if !ok || !strings.Contains(out, "loosened: iniconfig==1.0.0 to iniconfig>=1.0.0,<2") {
		t.Errorf("passed %v, output:\n%s", ok, out)
	}
	if len(calls) != 2 || calls[1] != "pytest==7.0.1 iniconfig>=1.0.0,<2" {
		t.Errorf("pip calls %q, want the list again with the pin loosened", calls)
	}
	if strings.Contains(out, "deps_missing") {
		t.Errorf("a listed version is not missing:\n%s", out)
	}

	out, ok, _ = runCuratePip(t, "pytest==7.0.1\ncurate-no-such-4b7e==1.0\n", "", "curate-no-such-4b7e==1.0")
	if ok || !strings.Contains(out, "curate: deps_missing: curate-no-such-4b7e==1.0 (not on the package index") || strings.Contains(out, "loosened") {
		t.Errorf("passed %v, output:\n%s", ok, out)
	}
}

// With the revision's date every attempt takes releases uploaded before
// it; a requirement that does not install that way is tried alone with
// today's releases, and the others keep their date (agronholm/anyio at
// 2026-08-11: rsloop needs a Rust nightly to build, and the whole list
// undated brought pytest 9, whose PytestRemovedIn10Warning anyio's
// filterwarnings = error turned into "Error while loading plugin anyio").
func TestCuratePipAsOfDate(t *testing.T) {
	out, ok, calls := runCuratePip(t, "pytest>=7\n", "", "", "CURATE_UPLOADED_PRIOR_TO=2024-03-05T10:11:12Z")
	if !ok || len(calls) != 2 || calls[1] != "before=2024-03-05T10:11:12Z pytest>=7" || !strings.Contains(out, "resolved as of 2024-03-05T10:11:12Z") {
		t.Errorf("passed %v, calls %q, output:\n%s", ok, calls, out)
	}
	out, ok, calls = runCuratePip(t, "pytest>=7\nrsloop>=0.1.30\n", "", "", "CURATE_UPLOADED_PRIOR_TO=2024-03-05T10:11:12Z", "FAKE_PIP_TOO_OLD=rsloop>=0.1.30")
	want := []string{"before=2024-03-05T10:11:12Z setuptools", "before=2024-03-05T10:11:12Z pytest>=7 rsloop>=0.1.30", "before=2024-03-05T10:11:12Z pytest>=7", "before=2024-03-05T10:11:12Z rsloop>=0.1.30", "rsloop>=0.1.30"}
	if !ok || strings.Join(calls, "|") != strings.Join(want, "|") || !strings.Contains(out, "rsloop>=0.1.30: no release uploaded before 2024-03-05T10:11:12Z installs here; today's instead") {
		t.Errorf("passed %v, calls %q, want %q, output:\n%s", ok, calls, want, out)
	}
}

// A dated revision's requirement the index has dropped since is said in
// the log and left out, the rest installed: an HTTP client's PR #863
// (merge 6a4062a8, 2012-09-22) lists the nose plugin rudolf2, which PyPI
// no longer has, and its build stopped at "curate: deps_missing: rudolf2".
// Undated, a requirement no index has still fails the build (above).
func TestCuratePipDatedLeavesOutDroppedProjects(t *testing.T) {
	out, ok, calls := runCuratePip(t, "nose\nrudolf2\npytest\n", "", "rudolf2", "CURATE_UPLOADED_PRIOR_TO=2020-10-05T00:00:00Z")
	if !ok || strings.Contains(out, "deps_missing") || !strings.Contains(out, "not on the package index") || !strings.Contains(out, ": rudolf2; the rest installed") {
		t.Errorf("passed %v, output:\n%s", ok, out)
	}
	if got := strings.Join(calls, "|"); !strings.Contains(got, "before=2020-10-05T00:00:00Z nose|") || !strings.Contains(got, "before=2020-10-05T00:00:00Z pytest") {
		t.Errorf("pip calls %q: nose and pytest not installed one by one as of the date", calls)
	}
}

// fakeOldPytest is a pytest pinned by a revision of 2014 (2.3.4) that
// does not start on the image's Python until pip upgrades it.
const fakeOldPytest = `import os, sys
if not os.path.exists(os.environ["FAKE_PIP_LOG"] + ".upgraded"):
    print("INTERNALERROR> AssertionError")
    sys.exit(3)
`

// A pinned pytest that does not run a test on the image's Python moves,
// with its plugins, to the releases of the resolution date, said in the
// log: an HTTP client's PR #2148 (merge 3eb69be8, 2014-07-27) pins
// pytest==2.3.4 and py==1.4.12 in requirements.txt, and that pytest does
// not run on Python 3.9 (released 2020-10-05).
func TestCuratePipOldRunnerMovesToTheDate(t *testing.T) {
	out, ok, calls := runCuratePip(t, "py==1.4.12\npytest==2.3.4\n", "", "", "CURATE_UPLOADED_PRIOR_TO=2014-07-27T13:59:08Z",
		"CURATE_INTERPRETER_RELEASED=2020-10-05T00:00:00Z", "FAKE_PYTEST=old")
	if !ok || !strings.Contains(out, "the installed pytest does not run a test on this Python (INTERNALERROR> AssertionError): pytest") || strings.Contains(out, "still does not run") {
		t.Errorf("passed %v, output:\n%s", ok, out)
	}
	if len(calls) != 3 || calls[1] != "before=2014-07-27T13:59:08Z py==1.4.12 pytest==2.3.4" || !strings.HasPrefix(calls[2], "before=2020-10-05T00:00:00Z pytest") {
		t.Errorf("pip calls %q, want the pins, then pytest again as of the date", calls)
	}
}

// A requirement that does not install as of an old revision's date is
// tried as of the interpreter's release before today's: the same PR
// #2931's coverage and Flask, dated 2015, are sdists whose build needs
// setuptools>=40.8.0 (2019), and today's Flask 3 and Werkzeug 3 then came
// in beside the dated httpbin 0.4 it was written for. A test runner's PR
// #6197 (merge 19a15a94, 2019-11-15) asks for numpy, whose sdist of that
// date fails with "FileNotFoundError: ... 'numpy/version.py'": the build
// stopped at "curate: deps_unreachable" (FileNotFoundError holds
// "enotfound", node's ENOTFOUND without case).
func TestCuratePipInterpreterDateBeforeToday(t *testing.T) {
	out, ok, calls := runCuratePip(t, "pytest\nnumpy\n", "", "", "CURATE_UPLOADED_PRIOR_TO=2019-11-15T21:19:48Z",
		"CURATE_INTERPRETER_RELEASED=2020-10-05T00:00:00Z", "FAKE_PIP_TOO_OLD=numpy", "FAKE_PIP_BUILDS_FROM=2020-01-01")
	want := []string{"before=2020-10-05T00:00:00Z setuptools", "before=2019-11-15T21:19:48Z pytest numpy", "before=2019-11-15T21:19:48Z pytest", "before=2019-11-15T21:19:48Z numpy", "before=2020-10-05T00:00:00Z numpy"}
	if !ok || strings.Join(calls, "|") != strings.Join(want, "|") || !strings.Contains(out, "numpy: no release uploaded before 2019-11-15T21:19:48Z installs here; as of 2020-10-05T00:00:00Z (the interpreter's release) instead") {
		t.Errorf("passed %v, calls %q, want %q, output:\n%s", ok, calls, want, out)
	}
}

// The venv's setuptools is the one of the resolution date, no older than
// the interpreter: a test runner's PR #5262 (merge c8f7e50c, 2019-05-15)
// checks its minversion with pkg_resources, which today's setuptools no
// longer has, and every run stopped at "ModuleNotFoundError: No module
// named 'pkg_resources'".
func TestCuratePipSetuptoolsAsOfTheDate(t *testing.T) {
	_, ok, calls := runCuratePip(t, "pytest\n", "", "", "CURATE_UPLOADED_PRIOR_TO=2019-05-15T08:56:36Z", "CURATE_INTERPRETER_RELEASED=2020-10-05T00:00:00Z")
	if !ok || len(calls) < 1 || calls[0] != "before=2020-10-05T00:00:00Z setuptools" {
		t.Errorf("passed %v, pip calls %q, want setuptools as of Python 3.9's release first", ok, calls)
	}
	_, _, calls = runCuratePip(t, "pytest\n", "", "")
	if calls[0] != "pytest" {
		t.Errorf("undated pip calls %q, want the requirements only", calls)
	}
}

// A test runner's PR 5356 (merge e4fe41eb, 2019-06-01): its tox.ini asks
// for twisted, whose 2019 sdist does not build on Python 3.9; today's
// twisted came instead and brought attrs 26 over the attrs 19.1 the
// revision's requirements had installed, and the project's own pytest
// (attr.s(cmp=...)) no longer imported: no test ran in either state. A
// later release of one requirement is now constrained to what the others
// installed.
func TestCuratePipFallbackKeepsWhatIsInstalled(t *testing.T) {
	out, ok, calls := runCuratePip(t, "attrs>=17.4.0\ntwisted\n", "", "", "CURATE_UPLOADED_PRIOR_TO=2019-06-01T22:09:43Z",
		"CURATE_INTERPRETER_RELEASED=2020-10-05T00:00:00Z", "FAKE_PIP_TOO_OLD=twisted", "FAKE_PIP_BUILDS_FROM=2020-01-01",
		"FAKE_PIP_FROZEN=attrs==19.1.0 twisted==1.0 -e_git+x#egg=y")
	want := []string{"before=2020-10-05T00:00:00Z setuptools", "before=2019-06-01T22:09:43Z attrs>=17.4.0 twisted",
		"before=2019-06-01T22:09:43Z attrs>=17.4.0", "before=2019-06-01T22:09:43Z twisted",
		"before=2020-10-05T00:00:00Z twisted -c attrs==19.1.0"}
	if !ok || strings.Join(calls, "|") != strings.Join(want, "|") {
		t.Errorf("passed %v, calls %q\nwant %q, output:\n%s", ok, calls, want, out)
	}
}
