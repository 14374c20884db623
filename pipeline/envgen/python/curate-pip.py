#!/usr/bin/env python3
"""curate-pip REQUIREMENTS-FILE: install a task's Python requirements at
image build time (made by curate; see pipeline/envgen/python.go).

All together first; when they conflict, one by one (what cannot be had is
reported, not fatal: the tests then say what is missing). A requirement no
index has fails the build with "curate: deps_missing: NAME"; an index that
does not answer falls back to Debian packages (pydeb.csv) and, failing
that, says "curate: deps_unreachable: <index>" for the failure classifier.
A pinned version the index lists but that does not install here (an old
sdist that no longer builds, or whose metadata names another version) is
not missing: the pin is loosened to its major series and the build says so.
With CURATE_UPLOADED_PRIOR_TO set (the revision's commit date), every
attempt takes only releases uploaded before it (pip --uploaded-prior-to):
the versions the revision's tests were written against. A requirement
that does not install that way (no release that old, or one that does not
build here) is tried alone with today's releases, said in the log; the
others keep their date (one requirement that needs a compiler must not
bring today's pytest to a suite written against an older one). With
CURATE_INTERPRETER_RELEASED set too (a revision older than the image's
Python), that date comes between the two: the oldest releases made for
the interpreter. One the index no longer has at all is said in the log
and left out.
"""
import csv, os, re, subprocess, sys, tempfile, urllib.error, urllib.request

UNREACHABLE = re.compile(sys.argv[2] if len(sys.argv) > 2 else r"NewConnectionError|Max retries exceeded|SSLError|CERTIFICATE_VERIFY_FAILED|ProxyError|Temporary failure in name resolution", re.I)
MISSING = re.compile(r"No matching distribution found for ([^\s;]+)")
LISTED = re.compile(r"satisfies the requirement (\S+) \(from versions: ([^)]*)\)")
PIN = re.compile(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*(?:\[[^\]]*\])?)\s*==\s*(\d+)([0-9A-Za-z.!+-]*)\s*$")
HERE = os.path.dirname(os.path.abspath(__file__))
INDEX = os.environ.get("PIP_INDEX_URL") or "https://pypi.org/simple"


BEFORE = os.environ.get("CURATE_UPLOADED_PRIOR_TO") or ""
# The interpreter's release, when later than the revision: the date of
# the oldest releases made for it.
LATER = os.environ.get("CURATE_INTERPRETER_RELEASED") or ""


def pip(args, dated=True, before=None):
    when = before or BEFORE
    if when and dated:
        args = ["--uploaded-prior-to", when] + args
    p = subprocess.run([sys.executable, "-m", "pip", "install", "--disable-pip-version-check", "--progress-bar", "off"] + args,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    sys.stdout.write(p.stdout)
    sys.stdout.flush()
    return p.returncode, p.stdout


def index_answers():
    """Whether the index answers at all: pip says "from versions: none"
    both for a project it lacks and, without retries, for an index it
    cannot reach."""
    try:
        urllib.request.urlopen(INDEX.rstrip("/") + "/", timeout=15).close()
        return True
    except urllib.error.HTTPError:
        return True
    except Exception:
        return False


def installed_pins(skip):
    """pip arguments constraining what is installed now but skip to its
    version: a later release of one requirement must not move what the
    others installed as of the date (a test runner's 2019 revision: today's
    twisted brought attrs 26, and its own pytest, written against attrs 19,
    no longer imported)."""
    p = subprocess.run([sys.executable, "-m", "pip", "freeze", "--disable-pip-version-check"],
                       stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    pins = [l.strip() for l in p.stdout.splitlines() if "==" in l and not l.startswith("-") and name(l) != skip]
    if p.returncode != 0 or not pins:
        return []
    f = tempfile.NamedTemporaryFile("w", prefix="curate-installed-", suffix=".txt", delete=False)
    f.write("\n".join(pins) + "\n")
    f.close()
    return ["-c", f.name]


def name(req):
    m = re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)", req)
    return re.sub(r"[-_.]+", "-", m.group(1)).lower() if m else ""


def loosen(reqs, out):
    """Pins whose version pip saw on the index yet could not install, each
    widened to the same major series from that version on ("x==1.0.0" to
    "x>=1.0.0,<2"); the rest as they were. Returns the new list and the
    (old, new) pairs changed."""
    listed = {}
    for req, versions in LISTED.findall(out):
        listed[name(req)] = {v.strip() for v in versions.split(",")}
    changed, result = [], []
    for r in reqs:
        m = PIN.match(r)
        if m and m.group(2) + m.group(3) in listed.get(name(r), ()):
            new = "%s>=%s%s,<%d" % (m.group(1), m.group(2), m.group(3), int(m.group(2)) + 1)
            changed.append((r, new))
            result.append(new)
        else:
            result.append(r)
    return result, changed


def debian(reqs, why):
    table = {}
    with open(os.path.join(HERE, "pydeb.csv")) as f:
        for row in csv.reader(line for line in f if not line.startswith("#")):
            if len(row) == 2:
                table[row[0].strip()] = row[1].strip()
    wanted = sorted({table[name(r)] for r in reqs if name(r) in table})
    unmapped = sorted({name(r) for r in reqs if name(r) not in table})
    if unmapped:
        print("curate: deps_unreachable: the package index %s did not answer: %s; no Debian package known for: %s" % (INDEX, why, " ".join(unmapped)), file=sys.stderr)
        sys.exit(1)
    print("curate: note: the package index %s did not answer; installing Debian packages: %s" % (INDEX, " ".join(wanted)))
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    ok = subprocess.run(["apt-get", "update", "-qq"], env=env).returncode == 0 and \
        subprocess.run(["apt-get", "install", "-y", "-qq", "--no-install-recommends"] + wanted, env=env).returncode == 0
    if not ok:
        print("curate: deps_unreachable: the package index %s and the Debian archive did not answer" % INDEX, file=sys.stderr)
        sys.exit(1)


def install():
    reqs = [l.strip() for l in open(sys.argv[1]) if l.strip() and not l.startswith("#")]
    if not reqs:
        return
    global BEFORE
    code, out = pip(reqs)
    if code == 0:
        if BEFORE:
            print("curate: note: requirements resolved as of %s (pip --uploaded-prior-to)" % BEFORE)
        return
    if BEFORE and "no such option" in out:
        print("curate: note: this pip lacks --uploaded-prior-to; today's versions instead")
        BEFORE = ""
        code, out = pip(reqs)
        if code == 0:
            return
    bad = UNREACHABLE.search(out)
    if bad or not index_answers():
        line = next((l for l in out.splitlines() if UNREACHABLE.search(l)), "no answer from " + INDEX)
        debian(reqs, line.strip()[:300])
        return
    reqs, changed = loosen(reqs, out)
    if changed:
        print("curate: note: on the package index but not installable here, so loosened: %s" %
              "; ".join("%s to %s" % c for c in changed))
        code, out = pip(reqs)
        if code == 0:
            return
    loosened = {name(new) for _, new in changed}
    missing = sorted({m for m in MISSING.findall(out) if name(m) not in loosened})
    if missing and not BEFORE:
        print("curate: deps_missing: %s (not on the package index %s)" % (" ".join(missing), INDEX), file=sys.stderr)
        sys.exit(1)
    failed, gone = [], []
    for r in reqs:
        code, out = pip([r])
        keep = installed_pins(name(r)) if code != 0 and BEFORE else []
        if code != 0 and BEFORE and LATER:
            code, out = pip([r] + keep, before=LATER)
            if code == 0:
                print("curate: note: %s: no release uploaded before %s installs here; as of %s (the interpreter's release) instead" % (r, BEFORE, LATER))
        if code != 0 and BEFORE:
            code, out = pip([r] + keep, dated=False)
            if code == 0:
                print("curate: note: %s: no release uploaded before %s installs here; today's instead (what the others installed kept)" % (r, BEFORE))
        if code != 0:
            missing = [m for m in MISSING.findall(out) if name(m) not in loosened]
            if missing and BEFORE:
                # An old revision's requirement the index has dropped since
                # (a nose plugin of 2012): the tests say whether it mattered.
                gone += missing
                continue
            if missing:
                print("curate: deps_missing: %s (not on the package index %s)" % (" ".join(missing), INDEX), file=sys.stderr)
                sys.exit(1)
            failed.append(r)
    if gone:
        print("curate: note: not on the package index %s now, in no release before %s nor today's: %s; the rest installed" % (INDEX, BEFORE, " ".join(gone)))
    if failed:
        print("curate: note: these requirements did not install (conflicts or build failures), the rest did: %s" % " ".join(failed))


def runner_starts():
    """Whether the installed pytest runs a one-line test, and its output."""
    d = tempfile.mkdtemp()
    with open(os.path.join(d, "test_curate_runner.py"), "w") as f:
        f.write("def test_runner():\n    assert True\n")
    p = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", d], cwd=d,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return p.returncode == 0, p.stdout


def check_runner():
    """A pytest pinned by an old revision can be older than the interpreter
    and not start at all (pytest 2.3.4 on Python 3.9: INTERNALERROR before
    any test); then pytest and its installed plugins move to the releases
    of the interpreter's date (else the revision's), said in the log."""
    if not BEFORE or subprocess.run([sys.executable, "-c", "import pytest"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode != 0:
        return
    ok, out = runner_starts()
    if ok:
        return
    from importlib import metadata
    plugins = sorted({n for n in (name(d.metadata["Name"] or "") for d in metadata.distributions()) if n.startswith("pytest-")})
    last = ([l for l in out.splitlines() if l.strip()] or ["no output"])[-1].strip()[:200]
    print("curate: note: the installed pytest does not run a test on this Python (%s): pytest%s as of %s instead" %
          (last, "".join(" " + p for p in plugins), LATER or BEFORE))
    pip(["--upgrade", "pytest"] + plugins, before=LATER)
    if not runner_starts()[0]:
        print("curate: note: pytest still does not run a test here")


def dated_setuptools():
    """The venv's setuptools as of the resolution date (no older than the
    interpreter): today's has no pkg_resources, which code of earlier years
    imports (a test runner of 2019 checks its minversion with it)."""
    if not BEFORE:
        return
    code, _ = pip(["--force-reinstall", "--no-deps", "setuptools"], before=LATER)
    if code == 0:
        print("curate: note: setuptools as of %s (today's has no pkg_resources)" % (LATER or BEFORE))


def main():
    dated_setuptools()
    install()
    check_runner()


main()
