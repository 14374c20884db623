#!/usr/bin/env python3
# curate-ctestids OUT CTESTS: makes the CTest report in OUT/ctest.xml agree
# with the frameworks' own reports beside it. Made by curate; called by
# curate-cbuild's test step.
#
# A GoogleTest, Catch2 or doctest case CTest ran on its own
# (gtest_discover_tests, catch_discover_tests) is in both reports, as the
# framework's Suite.Test or case and as CTest's test of that name: the
# framework's one stays. One the framework did not report (it crashed)
# keeps CTest's, under the same id: CTest names a test "Suite.Test" in
# both its name and its class, read "Suite.Test.Suite.Test", which made
# a test that crashed in one repeat a different test from itself.
# A case of a doctest or Catch2 binary CTest ran case by case (not run
# again) gets the id the framework's own report gives it: Catch2's
# "EXE.global.CASE", doctest's "EXE.CASE" (ParseAndAddCatchTests names
# the test "EXE:CASE"), not CTest's "CASE.CASE".
#
# A CTest test whose output is TAP (a plan "1..N" and "ok 1 - name" lines:
# one CTest test that runs a project's whole home-grown runner) is split
# into its TAP cases, "TEST.name": one case that fails in both states (it
# needs the network) no longer fails the whole suite with it. The test
# itself stays only when it failed and no case did (it crashed between
# cases).
import glob, os, re, sys, xml.etree.ElementTree as ET
out = sys.argv[1]
runs, exe_of, kind = {}, {}, {}
try:
    for line in open(sys.argv[2]):
        n, _, exe = line.rstrip("\n").split("\t", 2)
        runs[exe] = int(n)
    for line in open(sys.argv[2] + ".names"):
        name, _, exe = line.rstrip("\n").rpartition("\t")
        if runs.get(exe, 0) > 1:
            exe_of[name] = exe
except (OSError, ValueError):
    pass
for exe in set(exe_of.values()):
    try:
        data = open(exe, "rb").read()
    except OSError:
        continue
    if b"doctest" in data and b"--reporters" in data:
        kind[exe] = "doctest"
    elif b"Catch" in data and b"junit" in data and b"gtest_output" not in data:
        kind[exe] = "catch"
ids = set()
for f in glob.glob(os.path.join(out, "gtest*", "*.xml")) + glob.glob(os.path.join(out, "gtest-*.xml")):
    try:
        for c in ET.parse(f).iter("testcase"):
            ids.add(c.get("classname", "") + "." + c.get("name", ""))
    except ET.ParseError:
        pass
for f in glob.glob(os.path.join(out, "catch2-*.xml")) + glob.glob(os.path.join(out, "doctest-*.xml")):
    try:
        for c in ET.parse(f).iter("testcase"):
            ids.add(c.get("name", ""))
    except ET.ParseError:
        pass
path = os.path.join(out, "ctest.xml")
tree = ET.parse(path)
for suite in tree.iter("testsuite"):
    for c in list(suite.findall("testcase")):
        name = c.get("name") or ""
        exe = exe_of.get(name, "")
        if name in ids:
            suite.remove(c)
        elif kind.get(exe) and c.get("classname") == name:
            base = os.path.basename(exe)
            if name.startswith(base + ":"):
                name = name[len(base) + 1:]
            c.set("classname", base + (".global" if kind[exe] == "catch" else ""))
            c.set("name", name)
        elif "." in name and c.get("classname") == name:
            cls, _, rest = name.partition(".")
            c.set("classname", cls)
            c.set("name", rest)
plan_re = re.compile(r"^\s*1\.\.\d+", re.M)
tap_re = re.compile(r"^\s*(not ok|ok)\b[ \t]*(\d*)[ \t]*(?:-[ \t]*)?([^#\n]*?)[ \t]*(?:#[ \t]*(skip|todo)\b[^\n]*)?$", re.M | re.I)
for suite in tree.iter("testsuite"):
    for c in list(suite.findall("testcase")):
        text = c.findtext("system-out") or ""
        if not plan_re.search(text):
            continue
        cases, seen = [], set()
        for m in tap_re.finditer(text):
            name = m.group(3).strip() or "test " + (m.group(2) or str(len(cases) + 1))
            if name in seen:
                name += " #" + (m.group(2) or str(len(cases) + 1))
            seen.add(name)
            cases.append((name, m.group(1).lower(), (m.group(4) or "").lower()))
        if len(cases) < 2:
            continue
        failed = c.find("failure") is not None or c.find("error") is not None
        any_failed = False
        for name, result, directive in cases:
            e = ET.SubElement(suite, "testcase", {"classname": c.get("name") or "", "name": name})
            if directive:
                ET.SubElement(e, "skipped", {"message": directive})
            elif result == "not ok":
                ET.SubElement(e, "failure", {"message": "not ok"})
                any_failed = True
        if not failed or any_failed:
            suite.remove(c)
tree.write(path, encoding="unicode")
