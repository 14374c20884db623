#!/usr/bin/env python3
"""curate-pip REQUIREMENTS-FILE: install a task's Python requirements at
image build time (made by curate; see pipeline/envgen/python.go).

All together first; when they conflict, one by one (what cannot be had is
reported, not fatal: the tests then say what is missing). A requirement no
index has fails the build with "curate: deps_missing: NAME"; an index that
does not answer falls back to Debian packages (pydeb.csv) and, failing
that, says "curate: deps_unreachable: <index>" for the failure classifier.
"""
import csv, os, re, subprocess, sys

UNREACHABLE = re.compile(sys.argv[2] if len(sys.argv) > 2 else r"NewConnectionError|Max retries exceeded|SSLError|CERTIFICATE_VERIFY_FAILED|ProxyError|Temporary failure in name resolution", re.I)
MISSING = re.compile(r"No matching distribution found for ([^\s;]+)")
HERE = os.path.dirname(os.path.abspath(__file__))
INDEX = os.environ.get("PIP_INDEX_URL") or "https://pypi.org/simple"


def pip(args):
    p = subprocess.run([sys.executable, "-m", "pip", "install", "--disable-pip-version-check", "--progress-bar", "off"] + args,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    sys.stdout.write(p.stdout)
    sys.stdout.flush()
    return p.returncode, p.stdout


def name(req):
    m = re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)", req)
    return re.sub(r"[-_.]+", "-", m.group(1)).lower() if m else ""


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


def main():
    reqs = [l.strip() for l in open(sys.argv[1]) if l.strip() and not l.startswith("#")]
    if not reqs:
        return
    code, out = pip(reqs)
    if code == 0:
        return
    bad = UNREACHABLE.search(out)
    if bad:
        line = next(l for l in out.splitlines() if UNREACHABLE.search(l))
        debian(reqs, line.strip()[:300])
        return
    missing = sorted(set(MISSING.findall(out)))
    if missing:
        print("curate: deps_missing: %s (not on the package index %s)" % (" ".join(missing), INDEX), file=sys.stderr)
        sys.exit(1)
    failed = []
    for r in reqs:
        code, out = pip([r])
        if code != 0:
            missing = MISSING.findall(out)
            if missing:
                print("curate: deps_missing: %s (not on the package index %s)" % (" ".join(missing), INDEX), file=sys.stderr)
                sys.exit(1)
            failed.append(r)
    if failed:
        print("curate: note: these requirements did not install (conflicts or build failures), the rest did: %s" % " ".join(failed))


main()
