#!/usr/bin/env python3
"""curate-testlines OUT.xml LOG DIR STAMP [TAPDIR]: per-test results of a
test harness of another ecosystem (a rakefile, prove, make check, a
script) as JUnit XML, read from its output LOG and from the text files it
wrote under DIR since STAMP was made (a harness that keeps each binary's
output in a result file and prints only failures). Lines read:
  Unity:    FILE:LINE:NAME[(PARAMS)]:PASS | :FAIL[: why] | :IGNORE[: why], anywhere
            in a line: a test that checks an assertion fails prints that
            FAIL and then, on the same line, its own PASS
  TAP:      ok N [- name] | not ok N [- name] [# SKIP|TODO]
  Automake: PASS: NAME | FAIL: | XFAIL: | XPASS: | SKIP: | ERROR: (its serial
            harness, which leaves no .trs), in LOG
TAPDIR holds the raw TAP of each script prove ran (prove and make test
write it there when PERL_TEST_HARNESS_DUMP_TAP names it): a script's cases
are named after it, LOG's TAP lines (prove -v prints the same) are not
read, and each script is a test of its own, failed when prove's summary
report in LOG names it (a failed case, a non-zero exit, a broken plan).
A test is FILE's base name (no extension) and NAME for Unity, "tap" and
the name (or number) for TAP, the script's path and the name for a
dumped script, "prove" and the script's path for the script itself,
"automake" and NAME for Automake; in one file or log a test's last result
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
AUTOMAKE = re.compile(r"^(PASS|FAIL|XFAIL|XPASS|SKIP|ERROR): (\S.*?)\s*$")
AUTOMAKE_STATE = {"PASS": "passed", "XFAIL": "passed", "SKIP": "skipped", "FAIL": "failed", "XPASS": "failed", "ERROR": "failed"}
# prove's summary report names each script that did not pass:
# "t/basic.t (Wstat: 256 (exited 1) Tests: 2 Failed: 1)".
PROVE_FAILED = re.compile(r"^(\S.*?) \(Wstat: \d+.*Tests: \d+ Failed: \d+\)\s*$")
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


def scan(lines, results, tap_class="tap", tap=True, automake=False):
    """Reads one file's or log's lines into results: its last result for
    each test, merged so that a failure elsewhere stands. TAP lines are
    named under tap_class, and read only when tap is set; Automake's lines
    when automake is."""
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
        m = TAP.match(line) if tap else None
        if m:
            state = "failed" if m.group(1) and not m.group(4) else "passed"
            if (m.group(4) or "").upper() == "SKIP":
                state = "skipped"
            last[(tap_class, m.group(3) or m.group(2))] = (state, "")
            continue
        m = AUTOMAKE.match(line) if automake else None
        if m:
            last[("automake", m.group(2))] = (AUTOMAKE_STATE[m.group(1)], m.group(1))
    for key, (state, why) in last.items():
        record(results, key, state, why)


def record(results, key, state, why):
    old = results.get(key)
    if old is None or RANK[state] > RANK[old[0]]:
        results[key] = (state, why)


def scan_dump(tapdir, log_lines, results):
    """Reads the TAP prove dumped per script under tapdir; says whether
    there was any."""
    failed = {m.group(1).removeprefix("./") for m in map(PROVE_FAILED.match, log_lines) if m}
    found = False
    for root, _, files in os.walk(tapdir):
        for f in sorted(files):
            script = os.path.relpath(os.path.join(root, f), tapdir)
            found = True
            scan(read_lines(os.path.join(root, f)), results, tap_class=script)
            state = "failed" if script in failed else "passed"
            record(results, ("prove", script), state, "prove's summary report names it" if state == "failed" else "")
    return found


def main(argv):
    if len(argv) not in (5, 6):
        sys.stderr.write("usage: curate-testlines OUT.xml LOG DIR STAMP [TAPDIR]\n")
        return 2
    out, log, top, stamp = argv[1:5]
    since = os.stat(stamp).st_mtime
    results = {}
    log_lines = read_lines(log)
    dumped = len(argv) == 6 and scan_dump(argv[5], log_lines, results)
    scan(log_lines, results, tap=not dumped, automake=True)
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
