#!/usr/bin/env python3
"""curate-testlines OUT.xml LOG DIR STAMP: per-test results of a test
harness of another ecosystem (a rakefile, a script) as JUnit XML, read
from its output LOG and from the text files it wrote under DIR since
STAMP was made (a harness that keeps each binary's output in a result
file and prints only failures). Lines read:
  Unity:  FILE:LINE:NAME[(PARAMS)]:PASS | :FAIL[: why] | :IGNORE[: why], anywhere
          in a line: a test that checks an assertion fails prints that
          FAIL and then, on the same line, its own PASS
  TAP:    ok N [- name] | not ok N [- name] [# SKIP|TODO]
A test is FILE's base name (no extension) and NAME for Unity, "tap" and
the name (or number) for TAP; in one file or log a test's last result
stands (Unity concludes a test last), across them a failure wins. Exit 0 when it
wrote at least one test, 1 when it found none. Made by curate."""
import os
import re
import sys
from xml.sax.saxutils import quoteattr

UNITY = re.compile(r"([\w./-]+\.\w+):(\d+):([A-Za-z_]\w*(?:\([^()]*\))?):(PASS|FAIL|IGNORE)\b")
TAP = re.compile(r"^(not )?ok (\d+)\b\s*(?:-\s*)?(.*?)\s*(?:#\s*(SKIP|TODO)\b.*)?$", re.IGNORECASE)
# Colour codes a harness prints around its lines (a rakefile's colour
# reporter) and the control characters XML cannot hold.
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
RANK = {"skipped": 0, "passed": 1, "failed": 2}
MAX_FILE = 4 << 20


def read_lines(path):
    try:
        with open(path, "rb") as f:
            data = f.read(MAX_FILE)
    except OSError:
        return []
    if b"\0" in data[:8192]:
        return []
    return ANSI.sub("", data.decode("utf-8", "replace")).splitlines()


def scan(lines, results):
    """Reads one file's or log's lines into results: its last result for
    each test, merged so that a failure elsewhere stands."""
    last = {}
    for line in lines:
        line = line.rstrip("\r")
        found = list(UNITY.finditer(line))
        for i, m in enumerate(found):
            base = os.path.splitext(os.path.basename(m.group(1)))[0]
            state = {"PASS": "passed", "FAIL": "failed", "IGNORE": "skipped"}[m.group(4)]
            end = found[i + 1].start() if i + 1 < len(found) else len(line)
            why = line[m.end():end].lstrip(": ").strip()
            last[(base, m.group(3))] = (state, why)
        if found:
            continue
        m = TAP.match(line)
        if m:
            state = "failed" if m.group(1) and not m.group(4) else "passed"
            if (m.group(4) or "").upper() == "SKIP":
                state = "skipped"
            last[("tap", m.group(3) or m.group(2))] = (state, "")
    for key, (state, why) in last.items():
        record(results, key, state, why)


def record(results, key, state, why):
    old = results.get(key)
    if old is None or RANK[state] > RANK[old[0]]:
        results[key] = (state, why)


def main(argv):
    if len(argv) != 5:
        sys.stderr.write("usage: curate-testlines OUT.xml LOG DIR STAMP\n")
        return 2
    out, log, top, stamp = argv[1:]
    since = os.stat(stamp).st_mtime
    results = {}
    scan(read_lines(log), results)
    for root, dirs, files in os.walk(top):
        dirs[:] = [d for d in dirs if d != ".git"]
        for f in sorted(files):
            p = os.path.join(root, f)
            try:
                st = os.stat(p)
            except OSError:
                continue
            if p != log and st.st_mtime >= since and st.st_size < MAX_FILE:
                scan(read_lines(p), results)
    if not results:
        return 1
    cases = []
    for (cls, name), (state, why) in sorted(results.items()):
        body = "/>"
        if state == "failed":
            body = "><failure message=%s/></testcase>" % quoteattr(why[:300] or "failed")
        elif state == "skipped":
            body = "><skipped message=%s/></testcase>" % quoteattr(why[:300] or "ignored")
        cases.append("<testcase classname=%s name=%s%s" % (quoteattr(cls), quoteattr(name), body))
    with open(out, "w", encoding="utf-8") as f:
        f.write('<testsuite name="harness">\n' + "\n".join(cases) + "\n</testsuite>\n")
    print("curate: %d tests from the harness's own lines" % len(cases))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
