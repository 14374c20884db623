#!/usr/bin/env python3
"""curate-cargo-git [DATE]: take the crate's git dependencies from crates.io
(made by curate; see pipeline/envgen/rust/gitdeps.go).

The image's cargo (Debian's cargo-web) checks out no git dependency at all:
its libgit2 stops at "invalid version 0 on git_proxy_options", with a
file:// repository too; and builds here reach the registries, not git hosts.
So each manifest's `name = { git = "URL", ... }` becomes a crates.io
dependency of the same crate: its own `version` requirement when it has
one, else `=V` with V the newest release published by DATE (the revision's
commit date), or the oldest after it (the first release of a crate that was
still only in git then). branch, tag and rev go with the git key. Only
those lines change, before the task's patches apply; each choice is said in
the build log.
"""
import json, os, re, sys, tomllib, urllib.request

INDEX = os.environ.get("CURATE_CRATES_INDEX", "https://index.crates.io").rstrip("/")
DATE = sys.argv[1] if len(sys.argv) > 1 else ""
SECTIONS = ("dependencies", "dev-dependencies", "build-dependencies")
REF_KEYS = ("git", "branch", "tag", "rev")
HEADER = re.compile(r"^\s*\[+\s*([^\]]+?)\s*\]+\s*(#.*)?$")


def manifests():
    for root, dirs, files in os.walk("."):
        dirs[:] = sorted(d for d in dirs if d not in ("target", ".git"))
        if "Cargo.toml" in files:
            yield os.path.join(root, "Cargo.toml")


def git_deps(doc):
    """{dependency key: spec} of every dependency table's git dependencies."""
    tables = [doc.get(s, {}) for s in SECTIONS]
    tables += [t.get(s, {}) for t in doc.get("target", {}).values() if isinstance(t, dict) for s in SECTIONS]
    tables.append(doc.get("workspace", {}).get("dependencies", {}))
    found = {}
    for table in tables:
        for key, spec in table.items():
            if isinstance(spec, dict) and isinstance(spec.get("git"), str):
                found[key] = spec
    return found


def index_path(name):
    n = name.lower()
    if len(n) <= 2:
        return "%d/%s" % (len(n), n)
    if len(n) == 3:
        return "3/%s/%s" % (n[0], n)
    return "%s/%s/%s" % (n[:2], n[2:4], n)


def pick(name):
    """crates.io's release of name nearest DATE: (version, publish time)."""
    with urllib.request.urlopen("%s/%s" % (INDEX, index_path(name)), timeout=60) as r:
        lines = r.read().decode().splitlines()
    releases = sorted((e["pubtime"], e["vers"]) for e in map(json.loads, filter(str.strip, lines))
                      if not e.get("yanked") and e.get("pubtime"))
    if not releases:
        return None
    before = [r for r in releases if not DATE or r[0] <= DATE]
    when, vers = before[-1] if before else releases[0]
    return vers, when


def drop_keys(text):
    """An inline table's text without its git, branch, tag and rev keys."""
    for k in REF_KEYS:
        text = re.sub(r'\b%s\s*=\s*"[^"]*"' % k, "", text)
    text = re.sub(r",(\s*,)+", ",", text)
    return re.sub(r",\s*\}$", " }", re.sub(r"^\{\s*,?\s*", "{ ", text))


def rewrite(path, specs, versions):
    """The manifest's text with each git dependency a crates.io one."""
    out, table = [], ""
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    for line in lines:
        h = HEADER.match(line)
        if h:
            table = h.group(1).replace('"', "").replace("'", "")
            out.append(line)
            continue
        key = table.rsplit(".", 1)[-1]
        dotted = key in specs and any(table.endswith(s + "." + key) for s in SECTIONS)
        if dotted and re.match(r"\s*(%s)\s*=" % "|".join(REF_KEYS), line):
            if re.match(r"\s*git\s*=", line) and "version" not in specs[key]:
                out.append('version = "=%s"' % versions[key])
            continue
        m = re.match(r'^(\s*"?([A-Za-z0-9_-]+)"?\s*=\s*)(\{.*\})(.*)$', line)
        if m and m.group(2) in specs and re.search(r"\bgit\s*=", m.group(3)):
            spec = drop_keys(m.group(3))
            if "version" not in specs[m.group(2)]:
                rest = spec[1:].strip()
                spec = '{ version = "=%s"%s' % (versions[m.group(2)], " }" if rest == "}" else ", " + rest)
            line = m.group(1) + spec + m.group(4)
        out.append(line)
    return "\n".join(out)


def main():
    for path in manifests():
        try:
            with open(path, "rb") as f:
                specs = git_deps(tomllib.load(f))
        except (OSError, tomllib.TOMLDecodeError) as e:
            print("curate: note: %s not read for git dependencies: %s" % (path, e))
            continue
        versions = {}
        for key, spec in sorted(specs.items()):
            name = spec.get("package", key)
            if "version" in spec:
                print("curate: note: %s: git dependency %s (%s) taken from crates.io at its own requirement %s" % (path, name, spec["git"], spec["version"]))
                continue
            try:
                got = pick(name)
            except Exception as e:  # cargo then says what it could not get
                print("curate: note: %s: git dependency %s (%s) left as it is: crates.io did not answer for it: %s" % (path, name, spec["git"], e))
                continue
            if got is None:
                print("curate: note: %s: git dependency %s (%s) left as it is: crates.io has no release of it" % (path, name, spec["git"]))
                continue
            versions[key] = got[0]
            as_of = "the release nearest the revision's date, %s" % DATE[:10] if DATE else "the newest release"
            print("curate: note: %s: git dependency %s (%s) taken from crates.io: %s %s, published %s (%s)" % (path, name, spec["git"], name, got[0], got[1][:10], as_of))
        specs = {k: s for k, s in specs.items() if k in versions or "version" in s}
        if specs:
            text = rewrite(path, specs, versions)
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)


main()
