#!/bin/sh
# curate-npm-install [--before DATE] ci|install: install a project's npm
# dependencies. Made by curate.
#   ci       the lockfile's versions (npm ci; npm install reconciles a
#            lockfile out of step with package.json);
#   install  no lockfile: resolve anew, as of DATE when given (npm's
#            --before: the versions the revision was written against),
#            else, or when that fails, today's.
# Each is tried again without lifecycle scripts (a dependency's postinstall
# that downloads from its own site, not a registry, must not sink the
# build). When the attempts fail because the registry has no version of a
# package that the manifests pin (unpublished, or a mirror that lacks it),
# curate-npm-relax points the manifests at the registry's newest version of
# each such package and drops the lockfile's entries of it (only those),
# and the install runs again on a fresh node_modules. When npm cannot
# resolve the peer dependencies (ERESOLVE: npm 7 and later refuse what npm
# 6, current when many projects last touched their manifests, installed
# with a warning), the attempts run again with --legacy-peer-deps, npm's
# own switch for the old behaviour (a project's .npmrc may set it too).
# The attempts' output
# is shown only when that retry fails too: their 404 lines must not explain
# a later, unrelated failure. What changed is printed as "curate: note:"
# lines and appended to $CURATE_BUILD_NOTES (validation runs print them).
before=
peer=
if [ "$1" = --before ]; then before=$2; shift 2; fi
mode=$1
nf=${CURATE_BUILD_NOTES:-@BUILD_NOTES@}
log=/tmp/curate-npm.log

note() {
  echo "curate: note: $*"
  mkdir -p "$(dirname "$nf")" && echo "curate: note: $*" >> "$nf"
}

attempts() {
  if [ "$mode" = ci ]; then
    npm ci --no-audit --no-fund $peer || npm ci --no-audit --no-fund $peer --ignore-scripts ||
      npm install --no-audit --no-fund $peer --ignore-scripts
    return
  fi
  if [ -n "$before" ]; then
    npm install --no-audit --no-fund $peer --before="$before" && return
    npm install --no-audit --no-fund $peer --before="$before" --ignore-scripts && return
    echo "curate: note: npm install as of $before failed; resolving with today's versions"
    rm -rf node_modules
  fi
  npm install --no-audit --no-fund $peer || npm install --no-audit --no-fund $peer --ignore-scripts
}

# retry installs after the relaxation: with lifecycle scripts, else
# without them, saying why (the failed attempt's output held back too).
retry() {
  npm install --no-audit --no-fund $peer > /tmp/curate-npm-retry.log 2>&1 && { cat /tmp/curate-npm-retry.log; return; }
  why=$(sed -n -E 's/^npm error ((path|command sh -c) .*)/\1/p' /tmp/curate-npm-retry.log | head -n 2 | tr '\n' ' ')
  test -n "$why" || why=$(grep -m 1 '^npm error' /tmp/curate-npm-retry.log)
  note "npm install failed (${why% }); installing again with --ignore-scripts"
  npm install --no-audit --no-fund $peer --ignore-scripts
}

if attempts > "$log" 2>&1; then
  cat "$log"
  exit 0
fi
if grep -q 'ERESOLVE' "$log"; then
  peer=--legacy-peer-deps
  rm -rf node_modules
  cp "$log" /tmp/curate-npm-eresolve.log
  if attempts > "$log" 2>&1; then
    cat "$log"
    why=$(grep -m 1 -E 'Could not resolve dependency|Conflicting peer dependency' /tmp/curate-npm-eresolve.log | sed -E 's/^npm (error|ERR!) //')
    note "npm could not resolve the peer dependencies (ERESOLVE: ${why:-see the build log}); installed with --legacy-peer-deps, as npm 6 did"
    exit 0
  fi
fi
# The packages npm found no such version of (scoped names unescaped).
pkgs=$(sed -n -E 's#.*404 Not Found - GET .*/(@[^/ ]+)/([^/ ]+)/-/[^/ ]+\.tgz.*#\1/\2#p; t; s#.*404 Not Found - GET .*/([^/ ]+)/-/[^/ ]+\.tgz.*#\1#p; t; s#.*No matching version found for (@?[^@ ]+)@.*#\1#p' "$log" |
  sed 's#%2[fF]#/#g' | sort -u)
if [ -z "$pkgs" ]; then
  cat "$log"
  exit 1
fi
for p in $pkgs; do
  v=$(npm view "$p" version 2>/dev/null)
  if [ -z "$v" ] || ! curate-npm-relax "$p" "$v" "$nf"; then
    cat "$log"
    exit 1
  fi
done
rm -rf node_modules
retry && exit 0
cat "$log"
exit 1
