package envgen

import "strings"

// UnreachableRe matches output lines saying a registry could not be
// reached at all (network, DNS, TLS trust), as pip, go, npm, cargo,
// maven and curl word it. It is matched without case, so node's error
// codes must not follow a letter: "ModuleNotFoundError" and
// "FileNotFoundError" hold "enotfound".
const UnreachableRe = `x509:|certificate verify failed|CERTIFICATE_VERIFY_FAILED|SSLError|dial tcp|connection refused|no such host|` +
	`i/o timeout|Temporary failure in name resolution|Network is unreachable|Could not resolve host|NewConnectionError|` +
	`Max retries exceeded|ProxyError|(^|[^A-Za-z])(ECONNREFUSED|ENOTFOUND|ETIMEDOUT|EAI_AGAIN)|Connection reset|Connection timed out|` +
	`unable to get local issuer certificate|PKIX path building failed|UnknownHostException`

// compileRe matches compiler errors of steps that also build (cargo
// test --no-run, a first mvn or gradle build, tsc): rustc, javac through
// Maven and Gradle, TypeScript.
const compileRe = `error\[E[0-9]+\]|error: could not compile|COMPILATION ERROR|Compilation failure|compileJava FAILED|compileTestJava FAILED|error TS[0-9]+:`

// StepScript is environment/curate-step.sh, installed as
// /usr/local/bin/curate-step: it runs one dependency step with network,
// keeps its output in the build log and, on failure, adds one evidence
// line for the failure classifier:
//
//	curate: deps_unreachable: <registry> did not answer: <first network error line>
//	curate: compile_error: the project does not build at the PR head: <first compiler error line>
//	curate: deps_missing: <names> (not on <registry>)
var StepScript = `#!/bin/sh
# curate-step REGISTRY MISSING-SED COMMAND...: run a dependency step; on
# failure say whether REGISTRY did not answer or lacks something (the sed -E
# expression MISSING-SED prints its names from the output).
# curate-step --env COMMAND...: run COMMAND with the package cache's
# settings only (an install step with its own error handling). Made by curate.
#
# curate's package cache (CURATE_PACKAGE_CACHE, a build arg of curate's own
# builds, reached through the build's proxy): a module, wheel, tarball or
# jar another image already downloaded comes from the host, not the registry.
cache_env() {
  [ -n "${CURATE_PACKAGE_CACHE:-}" ] || return 0
  c=$CURATE_PACKAGE_CACHE; ch=${c#*://}; ch=${ch%%/*}
  if [ "${GOPROXY:-}" != off ]; then GOPROXY="$c/go${GOPROXY:+,$GOPROXY}"; export GOPROXY; fi
  NPM_CONFIG_REGISTRY="$c/npm/"; PIP_INDEX_URL="$c/pypi/"
  PIP_TRUSTED_HOST="${PIP_TRUSTED_HOST:+$PIP_TRUSTED_HOST }$ch"
  export NPM_CONFIG_REGISTRY PIP_INDEX_URL PIP_TRUSTED_HOST
  # Crates through the cache: crates.io replaced in cargo's own config
  # when it has none. It stays in the image: cargo keeps what it fetched
  # under the replacing source's name, which later offline builds and the
  # tests' runs must name the same way.
  cargo_home=${CARGO_HOME:-${HOME:-/root}/.cargo}
  if command -v cargo >/dev/null 2>&1 && [ ! -e "$cargo_home/config.toml" ] && [ ! -e "$cargo_home/config" ] && mkdir -p "$cargo_home" 2>/dev/null; then
    printf '[source.crates-io]\nreplace-with = "curate-package-cache"\n[source.curate-package-cache]\nregistry = "sparse+%s/crates/"\n' "$c" >"$cargo_home/config.toml"
  fi
}
if [ "${1:-}" = --env ]; then
  shift; cache_env; exec "$@"
fi
reg="$1"; missing="$2"; shift 2
# A JVM reads no proxy variable: Maven and Gradle get the build's proxy
# (HTTPS_PROXY, curate's egress allowlist) as system properties, without
# its user name (it only names the build in the proxy's log).
proxy="${HTTPS_PROXY:-${https_proxy:-}}"
if [ -n "$proxy" ]; then
  hp=${proxy#*://}; hp=${hp%%/*}; hp=${hp##*@}; host=${hp%:*}; port=${hp##*:}
  [ "$port" = "$hp" ] && port=80
  JAVA_TOOL_OPTIONS="${JAVA_TOOL_OPTIONS:+$JAVA_TOOL_OPTIONS }-Dhttp.proxyHost=$host -Dhttp.proxyPort=$port -Dhttps.proxyHost=$host -Dhttps.proxyPort=$port"
  # Maven 3.9's own HTTP transport reads no system property; its Wagon
  # transport (Maven 3.8's) does. Maven 3.9 reads MAVEN_ARGS, 3.8 ignores it.
  MAVEN_ARGS="${MAVEN_ARGS:+$MAVEN_ARGS }-Dmaven.resolver.transport=wagon"
  export JAVA_TOOL_OPTIONS MAVEN_ARGS
fi
cache_env
# Maven Central through the cache for this step only (a project's own
# settings.xml is left alone). Maven 3.8.1+ blocks a mirror on plain HTTP
# through its maven-default-http-blocker mirror, overridden here by one of
# that id that mirrors nothing: the cache is reached only through the
# build's proxy, on the build's own network. The mirror's id is central's:
# Maven records where each file came from, and the tests' offline runs (no
# mirror then) take only files from central.
m2made=
if [ -n "${CURATE_PACKAGE_CACHE:-}" ] && [ -n "${HOME:-}" ] && [ ! -e "$HOME/.m2/settings.xml" ] && mkdir -p "$HOME/.m2" 2>/dev/null; then
  printf '<settings><mirrors><mirror><id>central</id><mirrorOf>central</mirrorOf><url>%s/maven2/</url></mirror><mirror><id>maven-default-http-blocker</id><mirrorOf>external:curate-none:*</mirrorOf><url>http://0.0.0.0/</url></mirror></mirrors></settings>\n' "$CURATE_PACKAGE_CACHE" >"$HOME/.m2/settings.xml" && m2made=1
fi
log=$(mktemp)
"$@" >"$log" 2>&1; st=$?
[ -n "$m2made" ] && rm -f "$HOME/.m2/settings.xml"
cat "$log"
if [ "$st" -ne 0 ]; then
  re='` + UnreachableRe + `'
  compile='` + compileRe + `'
  if grep -Eqi "$re" "$log"; then
    echo "curate: deps_unreachable: $reg did not answer: $(grep -Ei "$re" "$log" | head -n 1 | cut -c1-300)" >&2
  elif grep -Eq "$compile" "$log"; then
    echo "curate: compile_error: the project does not build at the PR head: $(grep -E "$compile" "$log" | head -n 1 | cut -c1-300)" >&2
  else
    what=$(sed -nE "$missing" "$log" | sort -u | tr '\n' ' ' | sed 's/ $//')
    echo "curate: deps_missing: ${what:-a dependency (see the lines above)} (not on $reg)" >&2
  fi
fi
rm -f "$log"
exit "$st"
`

// PackageCacheArg is the build arg naming curate's package cache
// (egress.CacheURL) to curate-step.
const PackageCacheArg = "CURATE_PACKAGE_CACHE"

// stepFile is the script's name in the build context.
const stepFile = "curate-step.sh"

// CacheEnv prefixes an install command that has its own error handling:
// it runs with the package cache's settings (curate-step --env).
func CacheEnv(command string) string { return "curate-step --env " + command }

// RegistryStep is a RUN body running args (a command and its arguments,
// already shell-quoted where needed) through curate-step. registry may
// name variables ($GOPROXY) the build expands.
func RegistryStep(registry, missingSed, command string) string {
	return `curate-step "` + dqEscape(registry) + `" ` + ShellQuote(missingSed) + " " + command
}

// dqEscape escapes s for a double-quoted shell string, keeping $VAR
// references (registries are named by the variables that configure them).
func dqEscape(s string) string {
	return strings.NewReplacer(`"`, `\"`, "`", "\\`", `\`, `\\`).Replace(s)
}
