#!/bin/bash
# curate-gtestsrc [BRANCH...]: serve Debian's GoogleTest source
# (/usr/src/googletest) to a build that clones GoogleTest from GitHub at
# configure time (an ExternalProject with GIT_REPOSITORY
# https://github.com/google/googletest.git), which fails offline: git
# reads those URLs as a local repository whose branches are main, master
# and each GIT_TAG the build files name. Made by curate.
set -eu
repo=/usr/src/curate-googletest.git
w=$(mktemp -d)
cp -a /usr/src/googletest/. "$w/"
cd "$w"
git init -q
git add -A
git -c user.name=curate -c user.email=curate@localhost commit -qm "Debian's GoogleTest source"
for t in main master "$@"; do git branch -f "$t" 2>/dev/null || true; done
rm -rf "$repo"
git clone -q --bare "$w" "$repo"
cd / && rm -rf "$w"
for u in https://github.com/google/googletest http://github.com/google/googletest git@github.com:google/googletest; do
  git config --system --add "url.file://$repo.insteadOf" "$u"
  git config --system --add "url.file://$repo.insteadOf" "$u.git"
done
echo "curate: GoogleTest's GitHub URLs are Debian's source ($repo; branches: main master $*)"
