#!/bin/bash
# curate-cbuild STEP SYSTEM BUILD-DIR [ARGS...]: configure, build and test a
# C or C++ project in /app out of tree (BUILD-DIR stays in the image, so a
# rebuild after a patch is incremental). Made by curate.
#   configure: cmake/meson setup, or configure (autotools); ARGS are cmake's
#   build:     build everything; --lenient only notes a failure (the bug may not compile)
#   test:      rebuild, run the tests, leave JUnit XML in /logs/verifier/c-junit.xml;
#              ARGS are the base names of the PR's test files (ctest names to run)
set -u
step=$1; sys=$2; b=$3; shift 3
# CURATE_SRC: the folder with the build files when it is not the root.
src=${CURATE_SRC:-/app}
# CURATE_CMAKE_GENERATOR: Ninja unless the plan chose Make (an
# ExternalProject whose outputs Ninja cannot know), or configure fell back to it.
gen=${CURATE_CMAKE_GENERATOR:-Ninja}
grep -qs '^CMAKE_GENERATOR:INTERNAL=Unix Makefiles$' "$b/CMakeCache.txt" && gen="Unix Makefiles"
out=/tmp/curate-junit
first_error() { grep -m1 -E ': (fatal )?error:|: undefined reference|^ninja: build stopped|Error [0-9]+|(^|: )ERROR: ' "$1" | cut -c1-300; }

# Linked outputs of an earlier build go before each build: a target that
# no longer compiles must not leave the fixed tree's binary to be tested.
# Make is chosen only for a CMake build with an ExternalProject, whose
# installed libraries the build never makes again once they are there:
# only executables go then. Libtool (Autotools): Make's target is the
# library's .la, its .so sits in .libs/; both go, or Make thinks the
# library up to date and the link fails ("cannot find ./.libs/libx.so").
drop_binaries() {
  [ -d "$b" ] || return 0
  local libs=(-o -name '*.so' -o -name '*.so.*' -o -name '*.a' -o -name '*.la')
  [ "$gen" = Ninja ] || [ "$sys" != cmake ] || libs=()
  find "$b" -type f \( -perm -u+x "${libs[@]}" \) \
    ! -path '*/CMakeFiles/*' ! -path '*/_deps/*' ! -path '*/meson-private/*' 2>/dev/null |
    while read -r f; do
      case $f in *.so|*.so.*|*.a|*.la) [ ${#libs[@]} -gt 0 ] || continue ;; esac
      if [ "$(head -c4 "$f" 2>/dev/null | od -An -c | tr -d ' ')" = '177ELF' ] || [ "${f%.a}" != "$f" ] ||
        { [ "$sys" = autotools ] && [ "${f%.la}" != "$f" ]; }; then rm -f "$f"; fi
    done
}

# make_goals: what to build of a plain Makefile. Its default goal often
# builds the test binaries and then runs them ("all : test" with "./test"
# as its recipe): then only the goal's prerequisites are built, since the
# runner runs each test binary itself, with a report, and a suite run at
# build time (twice per verifier) only costs time. The binaries the
# recipe runs are listed in $runs, and the runner runs only those (not a
# second build of the suite that only checks it links).
runs=/tmp/curate-make-runs
make_goals() {
  local db goal pre p dry
  rm -f "$runs"
  db=$(make -C "$src" -pn 2>/dev/null)
  goal=$(printf '%s\n' "$db" | sed -n 's/^\.DEFAULT_GOAL := //p' | head -n1)
  [ -n "$goal" ] || return 0
  pre=$(printf '%s\n' "$db" | sed -n "s/^$(printf '%s' "$goal" | sed 's/[.[\*^$/]/\\&/g'): *//p" | head -n1 | sed 's/|.*//')
  dry=$(make -C "$src" -n "$goal" 2>/dev/null)
  for p in $pre; do
    if printf '%s\n' "$dry" | grep -qE "^\./$p( |\$)"; then echo "$p" >> "$runs"; fi
  done
  [ -s "$runs" ] && echo "$pre"
}

build() {
  case $sys in
    cmake) drop_binaries; if [ "$gen" = Ninja ]; then cmake --build "$b" -j2 -- -k 0; else cmake --build "$b" -j2 -- -k; fi
      # CURATE_BUILD_TARGETS: targets the CI builds for its tests beyond
      # the default one (a compile-fail suite's "testit").
      local bst=$?; for t in ${CURATE_BUILD_TARGETS:-}; do cmake --build "$b" -j2 --target "$t" || echo "curate: note: the CI's target $t did not build"; done; return $bst ;;
    meson) drop_binaries; ninja -C "$b" -k 0 ;;
    autotools) drop_binaries; make -C "$b" -k -j2 all ;;
    make) make -C "$src" clean >/dev/null 2>&1; make -C "$src" -k -j2 $(make_goals) ;;
  esac
}

# failed_objects LOG: the object files a build could not make, as paths
# under the build folder: Ninja's "FAILED: x.o" and Make's
# "make[2]: *** [dir/build.make:90: x.o] Error 1".
failed_objects() {
  sed -nE 's#^FAILED: ([^ ]+\.o)[[:space:]]*$#\1#p; s#^g?make(\[[0-9]+\])?: \*\*\* \[([^]]*: )?([^] ]+\.o)\] Error [0-9]+.*$#\3#p' "$1" | sort -u
}

# download_failures LOG: the ExternalProject or FetchContent steps that
# could not download at build time (".../NAME-stamp/NAME-download"), when
# nothing else failed: no object and no compiler error. Offline here, they
# fail the same in both states.
download_failures() {
  [ -z "$(failed_objects "$1")" ] || return 0
  grep -qaE ': (fatal )?error:|undefined reference' "$1" && return 0
  grep -aoE -- '-stamp/[A-Za-z0-9_.+-]+-(download|update|gitclone)\]? ' "$1" | sed -E 's#^-stamp/(.*)-(download|update|gitclone).*#\1#' | sort -u | paste -sd' ' -
}

# leave_out_failed_tests LOG: a test source that did not compile (a PR's
# new test against the buggy tree) is left out of its target and the
# target built again, so the target's other test files still run: one
# test binary built from many files (doctest, Catch2) no longer loses
# every case to one file. CMake only, through a project include that
# marks those sources HEADER_FILE_ONLY in every directory (Ninja or Make).
leave_out_failed_tests() {
  local skip="" obj dir rel f
  while read -r obj; do
    dir=${obj%%CMakeFiles/*}; rel=${obj#*CMakeFiles/*.dir/}; rel=${rel%.o}
    f="$src/$dir$(printf '%s' "$rel" | sed 's#__/#../#g')"
    [ -f "$f" ] || continue
    case $(printf '%s' "$rel" | tr 'A-Z' 'a-z') in *test*) skip="$skip${skip:+;}$(realpath "$f")" ;; esac
  done < <(failed_objects "$1" | grep -E 'CMakeFiles/[^/]+\.dir/.+\.o$')
  [ -n "$skip" ] || return 0
  cat > /tmp/curate-leave-out.cmake <<'CMAKE'
function(_curate_dirs dir out)
  set(all "${dir}")
  get_property(subs DIRECTORY "${dir}" PROPERTY SUBDIRECTORIES)
  foreach(s IN LISTS subs)
    _curate_dirs("${s}" sub)
    list(APPEND all ${sub})
  endforeach()
  set(${out} ${all} PARENT_SCOPE)
endfunction()
function(_curate_leave_out)
  _curate_dirs("${CMAKE_SOURCE_DIR}" dirs)
  foreach(d IN LISTS dirs)
    set_source_files_properties(${CURATE_LEAVE_OUT} DIRECTORY "${d}" PROPERTIES HEADER_FILE_ONLY ON)
  endforeach()
endfunction()
get_property(_curate_deferred GLOBAL PROPERTY CURATE_LEAVE_OUT_DEFERRED)
if(NOT _curate_deferred)
  set_property(GLOBAL PROPERTY CURATE_LEAVE_OUT_DEFERRED ON)
  cmake_language(DEFER DIRECTORY "${CMAKE_SOURCE_DIR}" CALL _curate_leave_out)
endif()
CMAKE
  echo "curate: left out of their targets (they do not compile), so the other tests still run: ${skip//;/ }"
  if cmake -S "$src" -B "$b" -DCMAKE_PROJECT_INCLUDE=/tmp/curate-leave-out.cmake "-DCURATE_LEAVE_OUT=$skip" >/tmp/curate-leave-out.log 2>&1; then
    build >>/tmp/curate-leave-out.log 2>&1
  fi
  tail -n 20 /tmp/curate-leave-out.log
}

# A test run that never ends (a bug that loops) is stopped after
# CURATE_TEST_TIMEOUT seconds: what it was running fails, the tests that
# finished keep their results, and it is not the container's limit that
# ends the whole run (no result at all, classed timeout).
tlimit=${CURATE_TEST_TIMEOUT:-900}
# CURATE_VERIFIER_TIMEOUT (test.sh passes task.toml's [verifier]
# timeout_sec): the tests stop a margin before that limit, so a test that
# loops (the bug) fails with the others' results kept, where the
# container's limit would have cut the run with none (classed timeout).
if [ -z "${CURATE_TEST_DEADLINE:-}" ] && [ "${CURATE_VERIFIER_TIMEOUT:-0}" -gt 0 ] 2>/dev/null; then
  margin=$((CURATE_VERIFIER_TIMEOUT / 10)); [ "$margin" -lt 60 ] && margin=60
  export CURATE_TEST_DEADLINE=$(($(date +%s) + CURATE_VERIFIER_TIMEOUT - margin))
fi
# cap_tlimit: tlimit no later than the deadline (at least 1 s).
cap_tlimit() {
  [ -n "${CURATE_TEST_DEADLINE:-}" ] || return 0
  local left=$((CURATE_TEST_DEADLINE - $(date +%s)))
  [ "$left" -lt 1 ] && left=1
  [ "$left" -lt "$tlimit" ] && tlimit=$left
  return 0
}
stopped() { [ "$1" -eq 124 ] || [ "$1" -eq 137 ]; }
why_stopped() {
  if [ "$1" -eq 124 ]; then echo "stopped after $tlimit s: it never finished"
  else echo "killed: it ran over $tlimit s, or the kernel stopped it at the memory limit"; fi
}

# watched LOG CMD...: run CMD with its output in LOG, stopped when it
# runs for 900 s or prints nothing for $stall s (a test that waits forever
# for a server that never started). Returns CMD's status, 124 when stopped.
stall=${CURATE_TEST_STALL:-300}
watched() {
  local log=$1 pid size last=-1 idle=0 t=0; shift
  "$@" >"$log" 2>&1 &
  pid=$!
  while kill -0 "$pid" 2>/dev/null; do
    sleep 1; t=$((t + 1))
    size=$(stat -c %s "$log" 2>/dev/null || echo 0)
    if [ "$size" = "$last" ]; then idle=$((idle + 1)); else idle=0; last=$size; fi
    if [ "$idle" -ge "$stall" ] || [ "$t" -ge 900 ]; then
      pkill -KILL -P "$pid" 2>/dev/null; kill -KILL "$pid" 2>/dev/null
      wait "$pid" 2>/dev/null
      echo "curate: stopped after ${t} s (${idle} s without output)" >>"$log"
      return 124
    fi
  done
  wait "$pid"
}

# only_listed EXE: the tests of $CURATE_TESTS (the GoogleTest cases the
# PR changed, Suite.Name:Suite.Name) that EXE has, as a filter; "" runs
# them all.
only_listed() {
  [ -n "${CURATE_TESTS:-}" ] || return 0
  local have
  have=$(cd "$(dirname "$1")" && env -u GTEST_FILTER "$1" --gtest_list_tests 2>/dev/null |
    awk '/^[^ ]/ {s=$1} /^  [^ ]/ {print s $1}')
  printf '%s\n' "$CURATE_TESTS" | tr ':' '\n' | grep -xF -f <(printf '%s\n' "$have") | paste -sd: -
}

# gtest_until_done EXE XML [FILTER]: a GoogleTest binary that crashed (a bug that
# segfaults) or hung (a test that waits forever) writes no XML, so none of
# its tests would have a result. It runs again without the test it
# stopped in, until it finishes (at most six times); the stopped tests
# fail and every other test keeps its result. Returns the last run's status.
gtest_until_done() {
  local exe=$1 xml=$2 only=${3:-} name skip="" i last rc why filter neg
  name=$(basename "$exe")
  for i in 1 2 3 4 5 6; do
    rm -f "$xml"
    neg=${CURATE_GTEST_EXCLUDE:-}$skip; neg=${neg#:}
    filter=$only${neg:+-$neg}
    watched /tmp/curate-gtest.log env -C "$(dirname "$exe")" GTEST_OUTPUT= "$exe" --gtest_output="xml:$xml" ${filter:+--gtest_filter="$filter"}
    rc=$?
    [ -f "$xml" ] && return "$rc"
    last=$(sed -nE 's/^\[ RUN      \] ([^ ]+).*/\1/p' /tmp/curate-gtest.log | tail -n 1)
    if [ -z "$last" ] || grep -qE "^\[ +(OK|FAILED) +\] $last( |\$)" /tmp/curate-gtest.log; then return "$rc"; fi
    why=crashed; [ "$rc" -eq 124 ] && why="hung (no output for ${stall} s or 900 s in all)"
    echo "curate: $name $why in $last; run again without it"
    printf '<testsuite name="%s"><testcase classname="%s" name="%s"><failure message="%s: the test binary stopped here"/></testcase></testsuite>\n' \
      "${last%%.*}" "${last%%.*}" "${last#*.}" "$why" >> "$out/gtest-stopped.xml"
    skip="$skip:$last"
  done
  return "$rc"
}

# why_make STATUS: why a make target failed.
why_make() { if stopped "$1"; then why_stopped "$1"; else echo "exit $1"; fi; }

# make_named_targets DIR NAME...: the Makefile targets named after the
# PR's test files (test-fullbench, test_x, x-test, check-x for
# tests/fullbench.c), in DIR or a folder two levels under it, as "FOLDER
# TARGET" lines: the project's own way to run that test alone.
make_named_targets() {
  local top=$1 d n t; shift
  [ $# -gt 0 ] || return 0
  for d in "$top" $(find "$top" -mindepth 1 -maxdepth 2 -name Makefile -printf '%h\n' 2>/dev/null | sort); do
    for n in "$@"; do
      for t in "test-$n" "test_$n" "$n-test" "check-$n"; do
        make -C "$d" -n "$t" >/dev/null 2>&1 && echo "$d $t"
      done
    done
  done | awk '!seen[$2]++'
}

# run_named_targets DIR LINES: each target is one test ("tests/test-x"
# when in a folder), its exit status; one that never ends is stopped.
run_named_targets() {
  local top=$1 d t n trc r
  while read -r d t; do
    n=$t; [ "$d" = "$top" ] || n=${d#"$top"/}/$t
    echo "curate: make -C $d $t (a target named after a test file of the PR)"
    cap_tlimit
    timeout -k 10 "$tlimit" make -C "$d" "$t"; trc=$?
    if [ "$trc" -eq 0 ]; then r='/>'; else st=1; r="><failure message=\"$(why_make "$trc")\"/></testcase>"; fi
    echo "<testsuite name=\"make\"><testcase classname=\"make\" name=\"$n\"$r</testsuite>" >> "$out/make.xml"
  done <<< "$2"
}

# hung EXE REPORT STATUS: a doctest or Catch2 binary that was stopped
# wrote no report, or half of one: the binary is one failing test.
hung() {
  local why
  why=$(why_stopped "$3")
  rm -f "$2"
  echo "curate: $(basename "$1") $why"
  printf '<testsuite name="binary"><testcase classname="binary" name="%s"><failure message="%s"/></testcase></testsuite>\n' \
    "$(printf '%s' "${1#"$root"/}" | sed -e 's/&/\&amp;/g; s/</\&lt;/g; s/>/\&gt;/g; s/"/\&quot;/g')" "$why" > "$2"
}

# gtest_crashes: the GoogleTest binaries CTest ran that left no XML run
# again on their own, until done.
gtest_crashes() {
  local exe name
  while read -r exe; do
    grep -qa 'gtest_output' "$exe" 2>/dev/null || continue
    # Not a binary the project disabled (CTest's DISABLED property).
    grep -qxF -- "$(realpath "$exe")" "$ctests.disabled" 2>/dev/null && continue
    name=$(basename "$exe")
    [ -f "$out/gtest/$name.xml" ] && continue
    gtest_until_done "$exe" "$out/gtest-crash-$name.xml"
  done < <(find "$b" -type f -perm -u+x ! -path '*/CMakeFiles/*' ! -path '*/_deps/*' 2>/dev/null | grep -iE '/[^/]*test[^/]*$')
}

# ctest_runs: what CTest runs, one line per executable: how many of its
# tests run it, then the working directory it runs in (its
# WORKING_DIRECTORY, else the executable's folder), then its path. Each
# test's executable goes to $ctests.names (name, tab, path).
ctest_runs() {
  (cd "$b" && ctest --show-only=json-v1 2>/dev/null) | python3 -c '
import json, os, sys
names = open(sys.argv[1], "w")
try:
    tests = json.load(sys.stdin).get("tests", [])
except ValueError:
    sys.exit(0)
seen, disabled = {}, set()
for t in tests:
    cmd = t.get("command") or []
    if not cmd:
        continue
    if any(p.get("name") == "DISABLED" and p.get("value") for p in t.get("properties", [])):
        disabled.add(os.path.realpath(cmd[0]))
        continue
    exe = os.path.realpath(cmd[0])
    wd = next((p.get("value") for p in t.get("properties", []) if p.get("name") == "WORKING_DIRECTORY"), "") or os.path.dirname(exe)
    n, _ = seen.get(exe, (0, wd))
    seen[exe] = (n + 1, wd)
    names.write("%s\t%s\n" % (t.get("name", ""), exe))
for exe, (n, wd) in seen.items():
    print("%d\t%s\t%s" % (n, wd, exe))
open(sys.argv[2], "w").write("".join(e + "\n" for e in disabled - set(seen)))
' "$ctests.names" "$ctests.disabled" 2>/dev/null || true
}

# runs_in EXE: the folder CTest runs EXE in, else EXE's own.
runs_in() {
  local wd
  wd=$(awk -F'\t' -v e="$(realpath "$1")" '$3 == e { print $2; exit }' "$ctests" 2>/dev/null)
  printf '%s' "${wd:-$(dirname "$1")}"
}

# case_by_case EXE: CTest ran EXE's cases one by one (catch_discover_tests,
# doctest_discover_tests, ParseAndAddCatchTests), so its results stand:
# the binary run again whole, after CTest, failed cases CTest passed (a
# case that reads its folder met what the others left there).
case_by_case() {
  awk -F'\t' -v e="$(realpath "$1")" '$3 == e && $1 > 1 { f = 1 } END { exit !f }' "$ctests" 2>/dev/null
}

# An optional part on by default that stops CMake (bindings with no
# toolchain) is turned off and CMake run again, at most 5 times: curate-cmakeoff.
cmake_configure() { curate-cmakeconf "$src" "$b" "$gen" "$@"; }

case $step in
configure)
  mkdir -p "$b"
  log=$(mktemp)
  case $sys in
    cmake) cmake_configure "$@" &&
      # Ninja refuses a manifest two rules write one file in ("multiple
      # rules generate unxz": a compressor's symlinked tool names), which
      # Make builds: the build is configured again for Make.
      if [ "$gen" = Ninja ] && ninja -C "$b" -t targets 2>&1 >/dev/null | grep -q 'multiple rules generate'; then
        echo "curate: Ninja refuses the build ($(ninja -C "$b" -t targets 2>&1 >/dev/null | grep -m1 'multiple rules generate')): configured again for Make"
        rm -rf "$b" && gen="Unix Makefiles" cmake_configure "$@"
      fi ;;
    meson) meson setup "$b" "$src" "$@" ;;
    autotools) { [ -x "$src/configure" ] || (cd "$src" && autoreconf -fi); } && cd "$b" && "$src/configure" "$@" ;;
    make) true ;;
  esac >"$log" 2>&1
  st=$?
  cat "$log"
  if [ "$st" -ne 0 ]; then
    # CMake: only what an error names. A find_package that is not
    # REQUIRED prints "-- Could NOT find Doxygen" (or a CMake Warning) and
    # goes on, so it was not why the configure failed (a CUDA test switch
    # that found no nvcc was reported as Doxygen missing).
    said=$log
    if [ "$sys" = cmake ]; then
      said=$(mktemp)
      awk '/^CMake Error/{e=1} /^CMake Warning|^-- /{e=0} e' "$log" > "$said"
      grep -q 'A required package was not found' "$said" && grep -E "^--[[:space:]]+(No package '[^']+' found|Package '[^']+', required by)" "$log" >> "$said"
    fi
    missing=$(sed -nE 's/.*Could NOT find ([A-Za-z0-9_]+).*/\1/p; s/.*provided by "([^"]+)".*/\1/p; s/^[[:space:]]*"([^"]+)"( \(requested version [^)]*\))? with any of.*/\1/p; s/.*No package .([^ ]+). found.*/\1/p; s/.*[Dd]ependency "?([^ "]+)"? not found.*/\1/p; s/.*cannot find -l([^ ]+).*/\1/p; s/.*Package .([^ ]+)., required by .*, not found.*/\1/p; s/.*ERROR: Program .([^ ]+). not found.*/\1/p' "$said" | sort -u | tr '\n' ' ')
    # A git submodule the archive lacks (curate names them), when an
    # error names its directory ("The source directory /app/extern/x"),
    # or a source file in it from the CMakeLists.txt beside it ("CMake
    # Error at third-party/CMakeLists.txt ... Cannot find source file:
    # urlparse/urlparse.c").
    sub=""
    subs=${CURATE_MISSING_SUBMODULES:-}
    for s in ${subs//:/ }; do
      base=${s##*/} at="at ${s%/*}/CMakeLists.txt"; [ "${s%/*}" = "$s" ] && at="at CMakeLists.txt"
      if grep -qF -e "/$s" -e "\"$s\"" "$said" ||
        { grep -qF "$at" "$said" && sed 's/^[[:space:]]*//' "$said" | cut -c1-$((${#base} + 1)) | grep -qxF "$base/"; }; then
        sub="$sub $s"
      fi
    done
    if [ -n "$sub" ]; then
      echo "curate: deps_missing: git submodule${sub} (not in the repository archive: mine from a clone made with --recurse-submodules)" >&2
    elif [ -n "$missing" ]; then
      echo "curate: deps_missing: ${missing% } (the $sys configure step did not find them)" >&2
    else
      why=$(first_error "$log")
      [ "$sys" = cmake ] && [ -s "$said" ] && why=$(grep -v '^[[:space:]]*$' "$said" | head -n 3 | sed 's/^[[:space:]]*//' | tr '\n' ' ' | cut -c1-300)
      echo "curate: compile_error: the project does not configure at the PR head: $why" >&2
    fi
    [ "$said" = "$log" ] || rm -f "$said"
  fi
  rm -f "$log"
  exit "$st"
  ;;
build)
  log=$(mktemp)
  build >"$log" 2>&1
  st=$?
  tail -n 60 "$log"
  if [ "$st" -ne 0 ]; then
    if [ "${1:-}" = --lenient ]; then
      echo "curate: note: the build failed (the bug may not compile): $(first_error "$log")"
      st=0
    else
      echo "curate: compile_error: the project does not build at the PR head: $(first_error "$log")" >&2
    fi
  fi
  rm -f "$log"
  exit "$st"
  ;;
test)
  ctests=/tmp/curate-ctest-runs.tsv
  rm -rf "$out" /logs/verifier/c-junit.xml "$ctests" "$ctests.names"
  mkdir -p "$out" /logs/verifier
  log=/tmp/curate-build.log
  if [ -n "${CURATE_BUILT:-}" ]; then bst=$CURATE_BUILT; else build >"$log" 2>&1; bst=$?; fi
  dl=""; [ "$bst" -ne 0 ] && dl=$(download_failures "$log")
  if [ -n "$dl" ]; then
    # A download that fails in both states is not the PR's to pass: the
    # tests that need it are missing (CTest says so), the others run.
    echo "curate: the build could not download $dl (ExternalProject or FetchContent; only the package registries answer here): the tests that need it are missing in both states, the others run"
    grep -m3 -aiE 'Could not resolve host|Failed to connect|unable to access|Network is unreachable|Connection (refused|timed out)|Temporary failure in name resolution' "$log"
    bst=0
  fi
  if [ "$bst" -ne 0 ]; then
    tail -n 40 "$log"
    # Targets that still compiled are tested below; the ones that did not are missing.
    first=$(first_error "$log")
    echo "curate: compile_error: $first"
    [ "$sys" = cmake ] && [ -z "${CURATE_BUILT:-}" ] && leave_out_failed_tests "$log"
  fi
  # A suite that refuses to run as root (CURATE_TEST_USER, read from its
  # sources: "cannot be run as root"), as a CI machine never does, runs as
  # that user once built: the folders its tests write become the user's.
  if [ -n "${CURATE_TEST_USER:-}" ] && [ "$(id -u)" -eq 0 ] && [ -z "${CURATE_BUILT:-}" ]; then
    echo "curate: the tests run as $CURATE_TEST_USER: the suite refuses root"
    chown -R "$CURATE_TEST_USER" "$b" "$src" "$out" /logs/verifier "$log" 2>/dev/null
    exec setpriv --reuid="$CURATE_TEST_USER" --regid="$(id -g "$CURATE_TEST_USER")" --clear-groups \
      env HOME=/tmp CCACHE_DISABLE=1 CURATE_BUILT="$bst" "$0" test "$sys" "$b" "$@"
  fi
  st=0; [ "$bst" -eq 0 ] || st=1
  ran=0; named=""
  first=${first:-}
  # A harness of another ecosystem the CI runs the tests through
  # (CURATE_CI_HARNESS: rake) replaces the build system's own tests.
  hsys=$sys; [ -n "${CURATE_CI_HARNESS:-}" ] && hsys=harness
  case $hsys in
    cmake)
      if [ -n "$(cd "$b" && ctest -N 2>/dev/null | grep -E '^ *Test +#')" ]; then
        names=$(cd "$b" && ctest -N 2>/dev/null | sed -nE 's/^ *Test +#[0-9]+: (.*)$/\1/p')
        sel=""
        for n in "$@" ${CURATE_TESTS:+${CURATE_TESTS//:/ }}; do
          if printf '%s\n' "$names" | grep -qxF -- "$n"; then
            sel="$sel|^$(printf '%s' "$n" | sed 's/[][\.*^$+?(){}|/]/\\&/g')\$"
          fi
        done
        # The cases the CI leaves out (CURATE_GTEST_EXCLUDE, GoogleTest
        # globs): by name where CTest lists each case, by GTEST_FILTER
        # where a CTest test runs a whole binary.
        ex=""; gf=""
        if [ -n "${CURATE_GTEST_EXCLUDE:-}" ]; then
          ex=$(printf '%s\n' "$CURATE_GTEST_EXCLUDE" | tr ':' '\n' | sed -e 's/[][\.^$+(){}|/]/\\&/g' -e 's/\*/.*/g' -e 's/?/./g' | paste -sd'|' -)
          ex="^($ex)\$"; gf="-$CURATE_GTEST_EXCLUDE"
        fi
        stop=""; [ -n "${CURATE_TEST_DEADLINE:-}" ] && stop=$(date -d "@$CURATE_TEST_DEADLINE" +%H:%M:%S)
        (cd "$b" && GTEST_OUTPUT="xml:$out/gtest/" env ${gf:+GTEST_FILTER="$gf"} ctest ${stop:+--stop-time "$stop"} --output-on-failure --timeout 900 --test-output-size-passed 4000000 --test-output-size-failed 4000000 --output-junit "$out/ctest.xml" ${sel:+-R "${sel#|}"} ${ex:+-E "$ex"}) 2>&1 | tee /tmp/curate-ctest.log
        [ "${PIPESTATUS[0]}" -ne 0 ] && st=1
        ran=1
        ctest_runs > "$ctests"
        if grep -qE 'Exception: |Child aborted|Subprocess aborted' /tmp/curate-ctest.log; then gtest_crashes; fi
      fi
      ;;
    meson)
      meson test -C "$b" --no-rebuild --print-errorlogs; [ $? -ne 0 ] && st=1
      cp "$b/meson-logs/testlog.junit.xml" "$out/meson.xml" 2>/dev/null && ran=1
      ;;
    autotools|make)
      dir=$b; [ "$sys" = make ] && dir=$src
      target=check
      if [ "$sys" = make ] && ! make -C "$dir" -n check >/dev/null 2>&1; then target=test; fi
      named=""; [ "$sys" = make ] && named=$(make_named_targets "$dir" "$@")
      # No test target, and the CI runs a test command: that runs below.
      if [ "$sys" = make ] && [ -n "${CURATE_CI_TEST:-}" ] && ! make -C "$dir" -n "$target" >/dev/null 2>&1; then
        named=ci
      elif [ -n "$named" ]; then
        run_named_targets "$dir" "$named"
        ran=1
      else
        cap_tlimit
        curate-automake "$dir" "$target" "$tlimit" "$out"; mrc=$?
        [ "$mrc" -ne 0 ] && st=1
        { [ -s "$out/automake.xml" ] || [ -s "$out/testlines.xml" ]; } && ran=1
      fi
      ;;
  esac
  # doctest, Catch2 and Boost.Test binaries report their own cases; so does a test
  # binary nothing runs (one test, its exit status).
  root=$b; [ "$sys" = make ] && root=$src
  i=0
  while read -r exe; do
    [ "$(head -c4 "$exe" 2>/dev/null | od -An -c | tr -d ' ')" = '177ELF' ] || continue
    grep -qxF -- "$(realpath "$exe")" "$ctests.disabled" 2>/dev/null && continue
    if [ "$sys" = make ] && [ -s "$runs" ] && ! grep -qxF -- "${exe#"$root"/}" "$runs"; then continue; fi
    i=$((i + 1))
    cap_tlimit
    if [ "$ran" -eq 1 ] && case_by_case "$exe"; then
      continue
    elif grep -qa 'doctest' "$exe" && grep -qa -- '--reporters' "$exe"; then
      (cd "$(runs_in "$exe")" && timeout -k 10 "$tlimit" "$exe" --reporters=junit --out="$out/doctest-$i.xml" >/dev/null 2>&1)
      rc=$?
      ran=1
      stopped "$rc" && hung "$exe" "$out/doctest-$i.xml" "$rc"
    elif grep -qa 'Catch' "$exe" && grep -qa -- 'junit' "$exe" && ! grep -qa 'gtest_output' "$exe" || grep -qa 'N5boost9unit_test' "$exe"; then
      # Catch2 and Boost.Test (its symbols) write JUnit of their own cases.
      x="$out/catch2-$i.xml" a=(--reporter junit --out "$out/catch2-$i.xml")
      grep -qa 'N5boost9unit_test' "$exe" && x="$out/boost-$i.xml" a=(--logger="JUNIT,all,$out/boost-$i.xml" --report_level=no)
      (cd "$(runs_in "$exe")" && timeout -k 10 "$tlimit" "$exe" "${a[@]}" >/dev/null 2>&1)
      rc=$?
      ran=1
      stopped "$rc" && hung "$exe" "$x" "$rc"
    elif [ "$ran" -eq 0 ] && grep -qa 'gtest_output' "$exe"; then
      # A GoogleTest binary no CTest ran (a Makefile build) reports its own.
      only=$(only_listed "$exe")
      [ -n "$only" ] && echo "curate: $(basename "$exe"): the cases the PR changed: ${only//:/ }"
      gtest_until_done "$exe" "$out/gtest-$i.xml" "$only"
      rc=$?
    elif [ "$ran" -eq 0 ]; then
      n=${exe#"$root"/}
      (cd "$(dirname "$exe")" && timeout -k 10 "$tlimit" "$exe") 2>&1 | tee /tmp/curate-binary.log
      rc=${PIPESTATUS[0]}
      # A home-grown runner that counts failures and still exits 0
      # ("Tests failed: 3") failed.
      said=$(grep -aiE '(^|[^a-z])(tests? )?failed:? +[1-9][0-9]*|(^|[^0-9])[1-9][0-9]* +(tests? )?failed' /tmp/curate-binary.log | tail -n 1 | tr -d '"<>&' | cut -c1-120)
      if [ "$rc" -eq 0 ] && [ -n "$said" ]; then rc=1; why="exit 0, but it printed: $said"; elif stopped "$rc"; then why=$(why_stopped "$rc"); else why="exit $rc"; fi
      if [ "$rc" -eq 0 ]; then r='/>'; else r="><failure message=\"$why\"/></testcase>"; fi
      echo "<testsuite name=\"binary\"><testcase classname=\"binary\" name=\"$n\"$r</testsuite>" > "$out/binary-$i.xml"
    else
      continue
    fi
    [ "$rc" -ne 0 ] && st=1
  done < <([ "$hsys" = harness ] || find "$root" -type f -perm -u+x ! -path '*/CMakeFiles/*' ! -path '*/_deps/*' ! -path '*/.git/*' ! -name '*.so*' 2>/dev/null | grep -iE '/[^/]*test[^/]*$' | sort)
  # A build that defines no test: the CI's test command (curate-citest).
  if [ -n "${CURATE_CI_TEST:-}" ] && ! cat "$out"/*.xml 2>/dev/null | grep -q '<testcase' &&
    { [ "$sys" != make ] || [ "$named" = ci ] || [ "$hsys" = harness ]; }; then
    curate-citest "$root" "$src" "$out" || st=1; named=ci
  fi
  # A Makefile's test target whose tests report nothing of their own
  # (shell scripts that diff outputs) is one test, its exit status.
  if [ "$sys" = make ] && [ -z "$named" ] && ! cat "$out"/*.xml 2>/dev/null | grep -q '<testcase'; then
    if [ "$mrc" -eq 0 ]; then r='/>'; else r="><failure message=\"$(why_make "$mrc")\"/></testcase>"; fi
    echo "curate: make $target reports no test of its own: it is one test"
    echo "<testsuite name=\"make\"><testcase classname=\"make\" name=\"$target\"$r</testsuite>" > "$out/make.xml"
  fi
  # A test CTest could not start (its target did not compile) fails.
  # The compiler's first error goes into the failure (XML-escaped, then
  # escaped again for sed's replacement).
  whyxml=$(printf '%s' "${first:-see the build output}" | sed -e 's/&/\&amp;/g; s/</\&lt;/g; s/>/\&gt;/g; s/"/\&quot;/g; s/#/ /g')
  why=$(printf '%s' "$whyxml" | sed -e 's/[\\&]/\\&/g')
  # The cases CTest ran that a framework's report has too, and the ids
  # of cases CTest ran one by one: curate-ctestids.
  if [ -f "$out/ctest.xml" ]; then
    curate-ctestids "$out" "$ctests" || true
  fi
  find "$out" -name '*.xml' -exec cat {} + 2>/dev/null |
    sed -E "s#<skipped message=\"(Unable to find executable|Could not find executable|Not Run)#<failure message=\"did not compile: ${why}: \1#g" > /logs/verifier/c-junit.xml
  # Each source file that did not compile is a failing test of its own, so
  # a suite whose only binary did not link still reports (and nop counts).
  if [ "$bst" -ne 0 ]; then
    # A Makefile that compiles and links in one command names no object:
    # the sources the compiler stopped on are the failing tests then (a
    # PR's test.cc that calls a method the buggy tree lacks left no
    # report at all, and the task no verdict).
    { failed_objects "$log" | sed -E 's#^.*CMakeFiles/[^/]+\.dir/(.+)\.o$#\1#'
      if [ -z "$(failed_objects "$log")" ] && grep -qE '^g?make(\[[0-9]+\])?: \*\*\* ' "$log"; then
        sed -nE 's#^(\./)?([^: ]+\.(c|cc|cpp|cxx|c\+\+|C)):[0-9]+(:[0-9]+)?: (fatal )?error:.*#\2#p' "$log"
      fi; } | sort -u |
      while read -r obj; do
        n=$(printf '%s' "$obj" | sed -e 's/&/\&amp;/g; s/</\&lt;/g; s/>/\&gt;/g; s/"/\&quot;/g')
        printf '<testsuite name="compile"><testcase classname="compile" name="%s"><failure message="did not compile: %s"/></testcase></testsuite>\n' "$n" "$whyxml"
      done >> /logs/verifier/c-junit.xml
  fi
  # The failing tests, as one JUnit suite in the log: an Oracle run's log
  # is all validation reads of it, and a fix whose only failures are tests
  # that never passed before it (no network) is told apart by their names.
  # Without them it was classed nop_not_run and never validated again.
  [ "$st" -ne 0 ] && [ -s /logs/verifier/c-junit.xml ] && python3 - /logs/verifier/c-junit.xml <<'PY' || true
import re, sys, xml.etree.ElementTree as ET
from xml.sax.saxutils import quoteattr
text = re.sub(r"<\?xml[^>]*\?>", "", open(sys.argv[1], encoding="utf-8", errors="replace").read())
try:
    root = ET.fromstring("<r>" + text + "</r>")
except ET.ParseError:
    sys.exit(0)
failed = ["<testcase classname=%s name=%s><failure/></testcase>" % (quoteattr(c.get("classname", "")), quoteattr(c.get("name", "")))
          for c in root.iter("testcase") if c.find("failure") is not None or c.find("error") is not None]
if failed:
    # One test case per line: the run's log splits lines at 16 KiB, which
    # cut names in two when 400 of them shared one line.
    print("curate: failing tests:")
    print('<testsuite name="curate-failed">\n' + "\n".join(failed) + "\n</testsuite>")
PY
  grep -q '<testcase' /logs/verifier/c-junit.xml || { echo "curate: no test report"; st=1; }
  exit "$st"
  ;;
esac
echo "curate-cbuild: unknown step $step" >&2
exit 2
