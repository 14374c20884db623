#!/bin/bash
# curate-cdeps KIND:NAME...: install the Debian packages that provide what a
# C or C++ build requires and curate's table (cdeps.csv) does not know,
# found in Debian's Contents index with apt-file. Made by curate.
#   pkg:NAME     a pkg-config module (NAME.pc)
#   cmake:NAME   a CMake package config (NAMEConfig.cmake, name-config.cmake)
#   header:PATH  a header under /usr/include
#   py:NAME      a Python module a test script imports (python3-*)
#   apt:NAME     a package the project's CI installs: installed when Debian
#                has it, else left out (CI may take it from elsewhere)
#   gem:NAME     a gem the CI installs: Debian's ruby-NAME, else NAME when
#                that package is a Ruby program (rubocop), else left out
# A need nothing provides is left to the configure step, which names it as
# deps_missing; an unreachable index is a note, not a failure.
set -u
[ $# -eq 0 ] && exit 0
export DEBIAN_FRONTEND=noninteractive
if ! apt-get update -qq; then
  echo "curate: note: Debian's package index did not answer; not installed: $*"
  exit 0
fi
pkgs=""
finds=()
for need in "$@"; do
  case ${need%%:*} in
    apt)
      name=${need#*:}
      if apt-cache show -- "$name" >/dev/null 2>&1; then
        pkgs="$pkgs $name"
      else
        echo "curate: note: the CI installs $name; Debian 12 has no such package, left out"
      fi ;;
    gem)
      name=${need#*:}; l=$(printf '%s' "$name" | tr 'A-Z_' 'a-z-')
      if apt-cache show -- "ruby-$l" >/dev/null 2>&1; then
        pkgs="$pkgs ruby-$l"
      elif apt-cache depends -- "$l" 2>/dev/null | grep -qE 'Depends: ruby'; then
        pkgs="$pkgs $l"
      else
        echo "curate: note: the CI installs the gem $name; Debian 12 has neither ruby-$l nor a Ruby program $l, left out"
      fi ;;
    pkg|cmake|header|py) finds+=("$need") ;;
  esac
done
if [ ${#finds[@]} -gt 0 ] && ! { { command -v apt-file >/dev/null || apt-get install -y -qq --no-install-recommends apt-file >/dev/null; } && apt-file update >/dev/null 2>&1; }; then
  echo "curate: note: Debian's Contents index did not answer; not looked up: ${finds[*]}"
  finds=()
fi
# A regular expression matching NAME literally.
lit() { printf '%s' "$1" | sed 's/[][\.*^$+?(){}|/]/\\&/g'; }
for need in "${finds[@]}"; do
  kind=${need%%:*}; name=${need#*:}
  n=$(lit "$name"); l=$(lit "$(printf '%s' "$name" | tr 'A-Z' 'a-z')")
  case $kind in
    pkg) re="/pkgconfig/$n\\.pc\$" ;;
    cmake) re="/cmake/[^/]+/($n[Cc]onfig|$l-config)\\.cmake\$" ;;
    header) re="usr/include/([a-z0-9_]+-linux-gnu/)?$n\$" ;;
    py) re="usr/lib/python3/dist-packages/$n(/__init__\\.py|\\.py)\$" ;;
    *) continue ;;
  esac
  found=$(apt-file search -x -l "$re" 2>/dev/null | sort)
  # A -dev package first: it carries the headers and .pc files; for a
  # Python module, Debian's python3- package.
  p=$(printf '%s\n' "$found" | grep -m1 -- "$([ "$kind" = py ] && echo '^python3-' || echo '-dev$')" || printf '%s\n' "$found" | head -n1)
  if [ -n "$p" ]; then
    echo "curate: $need is in Debian's $p (Contents index)"
    pkgs="$pkgs $p"
  else
    echo "curate: note: no Debian package provides $need (Contents index)"
  fi
done
if [ -n "$pkgs" ]; then
  if ! apt-get install -y -qq --no-install-recommends $pkgs >/dev/null; then
    # One package that cannot be installed must not keep out the others.
    for p in $pkgs; do
      apt-get install -y -qq --no-install-recommends "$p" >/dev/null || echo "curate: note: not installable: $p"
    done
  fi
fi
rm -rf /var/lib/apt/lists/* /var/cache/apt/apt-file
exit 0
