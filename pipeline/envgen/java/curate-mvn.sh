#!/bin/sh
# curate-mvn MVN ARGS...: a Maven build at image build time. Made by curate.
# It gets past two things a first build meets that the plan cannot foresee:
#  - a transfer that the registry (or a proxy in front of it) dropped: the
#    build runs again, 3 attempts in all; what was downloaded stays in the
#    local repository;
#  - a maven-enforcer-plugin requireMavenVersion rule that the Maven at hand
#    does not meet, or a plugin whose own POM requires a newer Maven ("The
#    plugin ...:protobuf-maven-plugin:5.1.7 requires Maven version 3.9.6").
#    Such a rule often sits in a parent POM or a plugin's POM that comes
#    from Maven Central, which the plan never reads. Apache Maven @FALLBACK@
#    (or the lower bound asked for, when newer) is fetched from Maven
#    Central once, put first on PATH, and the build runs again. The choice
#    is printed as a "curate: note:" line and kept in $CURATE_BUILD_NOTES.
# Only the last attempt's output is shown, so a transfer error that a retry
# got past never passes for the cause of a later failure.
log=${CURATE_MVN_LOG:-/tmp/curate-mvn.log}
nf=${CURATE_BUILD_NOTES:-@BUILD_NOTES@}
bin=${CURATE_MVN_BIN:-/usr/local/bin}
opt=${CURATE_MVN_OPT:-/opt}

note() {
  echo "curate: note: $*"
  mkdir -p "$(dirname "$nf")" && echo "curate: note: $*" >> "$nf"
}

# newer A B: A is a newer version than B.
newer() { [ "$1" != "$2" ] && [ "$(printf '%s\n%s\n' "$1" "$2" | sort -V | tail -n1)" = "$1" ]; }

# fetch_maven V: Apache Maven V's binary distribution from Maven Central
# (through the Maven at hand, which knows the registry settings).
fetch_maven() {
  tgz=$HOME/.m2/repository/org/apache/maven/apache-maven/$1/apache-maven-$1-bin.tar.gz
  mvn -B -ntp -q dependency:get -Dartifact=org.apache.maven:apache-maven:$1:tar.gz:bin -Dtransitive=false &&
    tar -xzf "$tgz" -C "$opt" && ln -sf "$opt/apache-maven-$1/bin/mvn" "$bin/mvn" &&
    hash -r # the shell remembers where it found mvn before
}

n=1
fetched=
until "$@" > "$log" 2>&1; do
  # "Detected Maven Version: 3.8.7 is not in the allowed range [3.9,)."
  range=$(sed -n -E 's/.*Detected Maven Version: ?([^ ]+) is not in the allowed range ([^ ]+)\.?$/\1 \2/p' "$log" | head -n1)
  rule="maven-enforcer-plugin requireMavenVersion"
  # "The plugin G:A:V requires Maven version 3.9.6"
  plugin=$(sed -n -E 's/.*The plugin ([^ ]+) requires Maven version ([0-9][0-9.]*).*/\1 \2/p' "$log" | head -n1)
  if [ -z "$range" ] && [ -n "$plugin" ]; then
    have=$(mvn -v 2>/dev/null | sed -n -E 's/.*Apache Maven ([0-9][0-9.]*).*/\1/p' | head -n1)
    range="${have:-Debian's} [${plugin#* },)"
    rule="the POM of plugin ${plugin%% *}: Maven"
  fi
  if [ -n "$range" ] && [ -z "$fetched" ]; then
    have=${range%% *}
    range=${range#* }
    range=${range%.}
    want=$(echo "$range" | sed -E 's/^[[(]?([0-9][0-9.]*).*/\1/')
    v=@FALLBACK@
    if newer "$want" "$v"; then v=$want; fi
    fetched=$v
    if fetch_maven "$v"; then
      note "maven $v from $rule $range (Maven $have is outside it; the rule may sit in a parent POM)"
      continue
    fi
    cat "$log"
    echo "curate: toolchain_mismatch: $rule $range wants a newer Maven than $have, and Apache Maven $v could not be fetched from Maven Central" >&2
    exit 1
  fi
  if [ $n -ge 3 ] || ! grep -qE 'Could not transfer|transfer failed|timed out|Connection reset' "$log"; then
    cat "$log"
    exit 1
  fi
  echo "curate: note: Maven could not reach the registry (attempt $n of 3); trying again"
  n=$((n + 1))
done
cat "$log"
