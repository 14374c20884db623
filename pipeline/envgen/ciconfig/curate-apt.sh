#!/bin/sh
# curate-apt NAME...: install the Debian packages the project's CI installs
# with apt. Made by curate. A CI names packages of another distribution
# (Ubuntu's) or of a vendor's repository, so each is installed only when
# Debian 12 has it, and the others are named in a "curate: note:" line
# instead of failing the image. Nothing at all is a note too: an index that
# does not answer must not stop a build that may not need the packages.
[ $# -eq 0 ] && exit 0
export DEBIAN_FRONTEND=noninteractive
if ! apt-get update -qq; then
  echo "curate: note: Debian's package index did not answer; the CI's packages are not installed: $*"
  exit 0
fi
have=
for name in "$@"; do
  if apt-cache show -- "$name" >/dev/null 2>&1; then
    have="$have $name"
  else
    echo "curate: note: the CI installs $name; Debian 12 has no such package, left out"
  fi
done
[ -z "$have" ] && exit 0
if ! apt-get install -y -qq --no-install-recommends $have >/dev/null; then
  # One package that cannot be installed must not keep out the others.
  for name in $have; do
    apt-get install -y -qq --no-install-recommends "$name" >/dev/null 2>&1 ||
      echo "curate: note: the CI installs $name; it did not install here, left out"
  done
fi
rm -rf /var/lib/apt/lists/*
echo "curate: the CI's packages:$have"
