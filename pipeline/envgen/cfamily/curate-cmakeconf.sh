#!/bin/bash
# curate-cmakeconf SRC BUILD GENERATOR [CMAKE ARGS...]: configure a CMake
# project, and configure it again (at most 5 times) when a cause curate
# knows stopped it; its output, then the notes, go to stdout. Made by
# curate; called by curate-cbuild's configure step.
#   - an optional part on by default whose if() block stopped it is turned
#     off (curate-cmakeoff names the option);
#   - a check module run for C in a project that enables only C++
#     ("try_compile() works only for enabled languages", CheckTypeSize's
#     C probe, when the part that enabled C was the one turned off) gets C
#     enabled after each project() call (CMAKE_PROJECT_INCLUDE).
set -u
src=$1; b=$2; gen=$3; shift 3
CURATE_GTEST_DOWNLOAD=${CURATE_GTEST_DOWNLOAD:-}
try=/tmp/curate-configure.log
# GoogleTest that an ExternalProject downloads into the build folder at
# configure time (CURATE_GTEST_DOWNLOAD: folders under BUILD): Debian's
# source goes there first, and a download that fails offline leaves it.
for d in ${CURATE_GTEST_DOWNLOAD//:/ }; do
  [ -f "$b/$d/CMakeLists.txt" ] || { mkdir -p "$b/$d" && cp -a /usr/src/googletest/. "$b/$d/"; }
done
n=0 notes=""
while cmake -S "$src" -B "$b" -G "$gen" "$@" >"$try" 2>&1; st=$?; [ "$st" -ne 0 ]; do
  n=$((n + 1))
  [ "$n" -le 5 ] || break
  if grep -q 'try_compile() works only for enabled languages' "$try" && grep -q 'Unknown extension "\.c"' "$try" &&
    ! printf '%s\n' "$@" | grep -q '^-DCMAKE_PROJECT_INCLUDE='; then
    # The failed probes are cached as answers ("HAVE_X:INTERNAL=FALSE"):
    # the cache goes, the arguments hold every setting curate chose.
    rm -rf "$b/CMakeCache.txt" "$b/CMakeFiles"
    mkdir -p "$b" && printf 'enable_language(C)\n' > "$b/curate-enable-c.cmake"
    set -- "$@" "-DCMAKE_PROJECT_INCLUDE=$b/curate-enable-c.cmake"
    notes="${notes}curate: note: configured again with C enabled after project(): a C check (try_compile of a .c file) ran in a project that enables only C++"$'\n'
    continue
  fi
  off=$(curate-cmakeoff "$src" "$b" "$try" "$@") && [ -n "$off" ] || break
  read -r where names <<<"$off"
  for o in $names; do set -- "$@" "-D$o=OFF"; done
  notes="${notes}curate: note: configured again with ${names// /, } off: its if() block stopped the configure at $where"$'\n'
done
printf '%s' "$notes"
cat "$try"
exit "$st"
