#!/usr/bin/env python3
# curate-cmakeoff SRC BUILD LOG [CMAKE ARGS...]: after a CMake configure
# that failed, names the option to turn off: the one whose if() block the
# error (or a call on its stack) is in, when the cache has it on and the
# command line did not turn it on; for if(A OR B), each that is on.
# add_subdirectory() is not on CMake's call stack, so a directory's
# CMakeLists.txt also counts as called where its parent adds it.
# Prints "FILE:LINE NAME...", or nothing.
# Made by curate; called by curate-cbuild's configure step.
#
# A project's optional part that is on by default and stops the configure
# when its toolchain is missing (Java bindings with no javac: "disable
# ... using the -DX=False CMake option") is not what a task tests; the
# build goes on without it, and the note says so.
import os
import re
import sys

TRUE = {"1", "on", "yes", "true", "y"}
AT = re.compile(r"^CMake Error at (.+?):(\d+) \(")
STACK = re.compile(r"^\s+(.+?):(\d+) \(")
CMD = re.compile(r"^\s*(if|elseif|else|endif)\s*\(", re.I)
NAME = re.compile(r"^(?:\$\{)?([A-Za-z_][A-Za-z0-9_]*)\}?$")


def locations(log):
    """The source locations an error names: its own, then its call stack."""
    out, in_stack = [], False
    for line in log.splitlines():
        m = AT.match(line)
        if m:
            out.append((m.group(1), int(m.group(2))))
            in_stack = False
            continue
        if line.startswith("Call Stack (most recent call first):"):
            in_stack = True
            continue
        m = STACK.match(line) if in_stack else None
        if m:
            out.append((m.group(1), int(m.group(2))))
        elif in_stack and line.strip():
            in_stack = False
    return out


SUBDIR = re.compile(r"^\s*add_subdirectory\s*\(\s*\"?([^\s\")]+)", re.I)


def added_at(src, full):
    """Where the nearest parent directory's CMakeLists.txt adds the
    directory of full (a CMakeLists.txt): (path, line), or None."""
    if os.path.basename(full) != "CMakeLists.txt":
        return None
    d = os.path.dirname(full)
    parent = d
    while parent != src:
        parent = os.path.dirname(parent)
        lists = os.path.join(parent, "CMakeLists.txt")
        if not os.path.isfile(lists):
            continue
        with open(lists, errors="replace") as f:
            for n, line in enumerate(f, 1):
                m = SUBDIR.match(line.split("#", 1)[0])
                if not m:
                    continue
                arg = re.sub(r"^\$\{CMAKE_CURRENT_(?:SOURCE|LIST)_DIR\}/", "", m.group(1))
                if os.path.normpath(os.path.join(parent, arg)) == d:
                    return (os.path.relpath(lists, src), n)
    return None


def enclosing(text, lineno):
    """The conditions of the if() blocks whose first branch holds lineno,
    innermost first."""
    stack, lines, i = [], text.splitlines(), 0
    while i < min(lineno - 1, len(lines)):
        line = lines[i].split("#", 1)[0]
        m = CMD.match(line)
        i += 1
        if not m:
            continue
        word = m.group(1).lower()
        cond = line[m.end():]
        while cond.count("(") + 1 > cond.count(")") and i < len(lines):
            cond += " " + lines[i].split("#", 1)[0]
            i += 1
        cond = cond[: cond.rfind(")")] if ")" in cond else cond
        if word == "if":
            stack.append([cond, True])
        elif word in ("elseif", "else") and stack:
            stack[-1][1] = False
        elif word == "endif" and stack:
            stack.pop()
    return [c for c, first in reversed(stack) if first]


def tests(name):
    """Whether an option's name has a word about tests (not LATEST)."""
    return any(w.startswith("TEST") or w.endswith("TESTS") or w == "GTEST" for w in name.upper().split("_"))


def cache(build):
    values = {}
    try:
        with open(os.path.join(build, "CMakeCache.txt"), errors="replace") as f:
            for line in f:
                m = re.match(r"^([A-Za-z_][A-Za-z0-9_]*):BOOL=(.*)$", line.strip())
                if m:
                    values[m.group(1)] = m.group(2).strip().lower()
    except OSError:
        pass
    return values


def main():
    src, build, log = os.path.realpath(sys.argv[1]), sys.argv[2], sys.argv[3]
    asked = set()
    for arg in sys.argv[4:]:
        m = re.match(r"^-D([A-Za-z_][A-Za-z0-9_]*)(?::BOOL)?=(.*)$", arg)
        if m and m.group(2).lower() in TRUE:
            asked.add(m.group(1))
    with open(log, errors="replace") as f:
        text = f.read()
    values = cache(build)
    todo = locations(text)
    for path, lineno in todo:
        full = os.path.realpath(os.path.join(src, path))
        if not full.startswith(src + os.sep) or not os.path.isfile(full):
            continue  # CMake's own modules, or outside the project
        parent = added_at(src, full)
        if parent and parent not in todo and len(todo) < 100:
            todo.append(parent)
        with open(full, errors="replace") as f:
            conds = enclosing(f.read(), lineno)
        for cond in conds:
            terms = re.split(r"\s+OR\s+", cond.strip())
            names = [NAME.match(t).group(1) for t in terms if NAME.match(t)]
            if len(names) < len(terms):
                continue  # not a plain option, or options joined by OR
            off = [n for n in names if n not in asked and not tests(n) and values.get(n) in TRUE]
            if off and not any(n in asked for n in names):
                # The shell reads the location as one word.
                where = re.sub(r"\s", "_", os.path.relpath(full, src))
                print("%s:%d" % (where, lineno), *off)
                return

if __name__ == "__main__":
    main()
