#!/usr/bin/env python3
# curate-pydeps SYSTEM BUILD: the Python scripts the project's tests run
# (CTest's or Meson's test commands, read from the configured BUILD),
# the modules they import that this python3 lacks, installed from Debian
# through curate-cdeps (py:NAME). Made by curate; run once, after the
# configure step, while the image build has the network.
#
# A calendar library's GLib tests are Python scripts that `import gi`; a
# CI machine has python3-gi, and without it 14 tests failed after the fix.
# An import inside try: is optional and left alone, as are relative
# imports and modules the script's own folder has.
import ast
import importlib.util
import json
import os
import re
import subprocess
import sys

NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def commands(system, build):
    try:
        if system == "cmake":
            out = subprocess.run(["ctest", "--show-only=json-v1"], cwd=build, capture_output=True, text=True, timeout=120).stdout
            return [t.get("command") or [] for t in json.loads(out or "{}").get("tests", [])]
        if system == "meson":
            out = subprocess.run(["meson", "introspect", "--tests", build], capture_output=True, text=True, timeout=120).stdout
            return [t.get("cmd") or [] for t in json.loads(out or "[]")]
    except (OSError, ValueError, subprocess.SubprocessError):
        pass
    return []


def imports(script):
    """Top-level module names script imports outside try: blocks."""
    try:
        with open(script, errors="replace") as f:
            tree = ast.parse(f.read())
    except (OSError, SyntaxError, ValueError):
        return set()
    optional = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Try):
            for inner in ast.walk(node):
                optional.add(id(inner))
    out = set()
    for node in ast.walk(tree):
        if id(node) in optional:
            continue
        if isinstance(node, ast.Import):
            out.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            out.add(node.module.split(".")[0])
    here = os.path.dirname(script)
    return {m for m in out if NAME.match(m) and not os.path.exists(os.path.join(here, m + ".py")) and not os.path.isdir(os.path.join(here, m))}


def main():
    scripts = set()
    for cmd in commands(sys.argv[1], sys.argv[2]):
        for arg in cmd:
            if isinstance(arg, str) and arg.endswith(".py") and os.path.isfile(arg):
                scripts.add(os.path.realpath(arg))
    wanted = set()
    for s in sorted(scripts):
        wanted |= imports(s)
    missing = sorted(m for m in wanted if importlib.util.find_spec(m) is None)
    if not missing:
        return
    print("curate: note: the tests' Python scripts import %s, which python3 lacks: looked up in Debian" % ", ".join(missing))
    sys.stdout.flush()
    subprocess.run(["curate-cdeps"] + ["py:" + m for m in missing])


if __name__ == "__main__":
    main()
