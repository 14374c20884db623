#!/bin/bash
# curate-automake DIR TARGET LIMIT OUT: run "make -k TARGET" in DIR (an
# Automake or plain-Make project's test target) for at most LIMIT seconds,
# and write one JUnit case per test Automake's driver left a result for to
# OUT/automake.xml; a test still running at the stop fails as unfinished.
# A run that leaves no .trs (Automake's serial harness, or a Makefile whose
# test target runs prove or prints TAP) has its results read from make's
# output and from the TAP prove dumps per script, by curate-testlines, into
# OUT/testlines.xml. Exits non-zero when make did. curate-cbuild runs it.
# Made by curate.
set -u
dir=$1; target=$2; tlimit=$3; out=$4
stopped() { [ "$1" -eq 124 ] || [ "$1" -eq 137 ]; }
# The logs of the tests running a second before the stop: Automake's
# test driver deletes its log when signalled, and Make may not say.
rm -f /tmp/curate-running
( sleep $((tlimit > 2 ? tlimit - 1 : 1)); find "$dir" -name '*.log' > /tmp/curate-running 2>/dev/null ) & snap=$!
stamp=$(mktemp); rm -rf /tmp/curate-tap
PERL_TEST_HARNESS_DUMP_TAP=/tmp/curate-tap timeout -k 10 "$tlimit" make -C "$dir" -k "$target" 2>&1 | tee /tmp/curate-check.log; mrc=${PIPESTATUS[0]}
kill "$snap" 2>/dev/null
# A test program that does not compile (the PR's new test on the buggy
# tree) keeps Automake's check from running any test of its folder: the
# folders whose tests did not run make each test's log (which runs it),
# in the time left; the program that did not compile has no result.
if [ "$mrc" -ne 0 ] && [ "$target" = check ] && ! stopped "$mrc"; then
  find "$dir" -name Makefile | sort | while read -r mk; do
    d=$(dirname "$mk"); left=$((tlimit - SECONDS))
    grep -q '^check-TESTS:' "$mk" && [ ! -e "$d/test-suite.log" ] && [ "$left" -gt 5 ] || continue
    logs=$(printf 'curate-logs:\n\t@echo $(TEST_LOGS)\n' | make -s -C "$d" -f Makefile -f - curate-logs 2>/dev/null)
    [ -n "$logs" ] || continue
    echo "curate: a test program in ${d#"$dir"} did not compile: the folder's other tests run (make -k each test's log)"
    PERL_TEST_HARNESS_DUMP_TAP=/tmp/curate-tap timeout -k 10 "$left" make -C "$d" -k $logs 2>&1 | tee -a /tmp/curate-check.log
  done
fi
# Automake's test driver leaves one .trs per test.
find "$dir" -name '*.trs' | while read -r t; do
  # A TAP test (tap-driver.sh) has a result per case: the worst counts.
  r=$(sed -nE 's/^:test-result: ([A-Z]+).*/\1/p' "$t" | sort -u | grep -m1 -xE 'FAIL|ERROR|XPASS' ||
    sed -nE 's/^:test-result: ([A-Z]+).*/\1/p' "$t" | head -n 1)
  n=${t#"$dir"/}; n=${n%.trs}
  case $r in
    PASS|XFAIL) echo "<testsuite name=\"automake\"><testcase classname=\"automake\" name=\"$n\"/></testsuite>" ;;
    SKIP) echo "<testsuite name=\"automake\"><testcase classname=\"automake\" name=\"$n\"><skipped/></testcase></testsuite>" ;;
    *) echo "<testsuite name=\"automake\"><testcase classname=\"automake\" name=\"$n\"><failure message=\"$r\"/></testcase></testsuite>"
       # Its own log's end says why (Make prints only FAIL).
       [ -f "${t%.trs}.log" ] && tail -n 25 "${t%.trs}.log" | sed "s|^|$n.log: |" >&2 ;;
  esac
done > "$out/automake.xml"
if [ ! -s "$out/automake.xml" ] && curate-testlines "$out/testlines.xml" /tmp/curate-check.log "$dir" "$stamp" /tmp/curate-tap >/dev/null 2>&1; then
  echo "curate: make $target left no .trs: $(grep -c '<testcase' "$out/testlines.xml") tests from its output's PASS:/FAIL: and TAP lines"
fi
rm -f "$stamp"
# Stopped: the test whose log Make deleted, unfinished ("***
# Deleting file 't_x.log'", in the directory Make had entered), is
# the one that hung.
if stopped "$mrc"; then
  echo "curate: make $target stopped after $tlimit s: a test never finished; the tests that did keep their results"
  awk -v top="$dir" '
    match($0, /Entering directory .[^'"'"']*/) { d[++n] = substr($0, RSTART + 20, RLENGTH - 20); next }
    /Leaving directory/ { if (n > 0) n--; next }
    match($0, /Deleting file .[^'"'"']*\.log/) {
      f = substr($0, RSTART + 15, RLENGTH - 19); p = (n > 0 ? d[n] : top) "/" f
      sub("^" top "/", "", p); print p }' /tmp/curate-check.log > /tmp/curate-hung
  # When the signal reached the test before Make, Make says nothing:
  # a test log (now, or a second before the stop) without its .trs
  # beside the test is the unfinished one.
  { find "$dir" -name '*.log'; cat /tmp/curate-running 2>/dev/null; } | sort -u | while read -r l; do
    n=${l%.log}; case ${n##*/} in test-suite|config) continue ;; esac; [ -e "$n.trs" ] && continue
    { [ -e "$n" ] || ls "$n".* 2>/dev/null | grep -qv '\.log$'; } && echo "${n#"$dir"/}"
  done >> /tmp/curate-hung
  sort -u /tmp/curate-hung | while read -r n; do
    n=$(printf '%s' "$n" | sed -e 's/&/\&amp;/g; s/</\&lt;/g; s/>/\&gt;/g; s/"/\&quot;/g')
    echo "<testsuite name=\"automake\"><testcase classname=\"automake\" name=\"$n\"><failure message=\"stopped after $tlimit s: it never finished\"/></testcase></testsuite>"
  done >> "$out/automake.xml"
fi
exit "$mrc"
