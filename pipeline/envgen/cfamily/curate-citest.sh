#!/bin/bash
# curate-citest BUILD-DIR SOURCE-DIR OUT: run the CI's test command
# (CURATE_CI_TEST) as one test, its exit status, and write its JUnit
# report to OUT/citest.xml. curate-cbuild runs it when the build defines
# no test of its own: a Markdown parser's tests are spec files its CI
# checks with "python3 ./scripts/run-tests.py" after an in-tree build.
# Made by curate.
b=$1; src=$2; out=$3
cmd=${CURATE_CI_TEST:?}
# The CI builds in the source tree and runs the script from its root; the
# script finds the built program under the folder it runs in
# (md2html/md2html) and its data beside itself (scripts/../test). Here
# the build is out of tree: the build folder gets a link to each
# top-level entry of the source it lacks, and the command runs there.
# A harness of another ecosystem (CURATE_CI_TEST_DIR, a folder of the
# repository: the CI's "cd test && rake ci") does its own compiling: it
# runs there, as the CI runs it.
run=$b
if [ -n "${CURATE_CI_TEST_DIR:-}" ]; then
  run=$CURATE_CI_TEST_DIR
elif [ "$b" != "$src" ]; then
  for e in "$src"/*; do
    [ -e "$e" ] || continue
    n=${e##*/}
    [ -e "$b/$n" ] || [ -L "$b/$n" ] || ln -s "$e" "$b/$n"
  done
fi
echo "curate: the build defines no test: the CI's test command is one test: $cmd"
stamp=$(mktemp); rm -rf /tmp/curate-tap
# prove (and Perl's make test) write each script's TAP there.
(cd "$run" && PERL_TEST_HARNESS_DUMP_TAP=/tmp/curate-tap timeout -k 10 "${CURATE_TEST_TIMEOUT:-900}" bash -c "$cmd") 2>&1 | tee /tmp/curate-citest.log
rc=${PIPESTATUS[0]}
esc() { printf '%s' "$1" | sed -e 's/&/\&amp;/g; s/</\&lt;/g; s/>/\&gt;/g; s/"/\&quot;/g'; }
if [ "$rc" -eq 0 ]; then
  r='/>'
else
  why="exit $rc"; { [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; } && why="stopped after ${CURATE_TEST_TIMEOUT:-900} s"
  r="><failure message=\"$why\"/></testcase>"
fi
mkdir -p "$out"
echo "<testsuite name=\"ci\"><testcase classname=\"ci\" name=\"$(esc "$cmd")\"$r</testsuite>" > "$out/citest.xml"
# Per-test results where its output or result files have the framework's
# own lines (Unity, TAP, prove's scripts); the command stays one test of
# its own as well.
curate-testlines "$out/testlines.xml" /tmp/curate-citest.log "$run" "$stamp" /tmp/curate-tap >/dev/null 2>&1 &&
  echo "curate: per-test results from the harness's lines: $(grep -c '<testcase' "$out/testlines.xml") tests"
rm -f "$stamp"
exit "$rc"
