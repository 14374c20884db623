package envgen

import (
	"encoding/base64"
	"fmt"
)

// depsScript runs one build step that needs a registry and, when it
// fails, prints the evidence line the failure classifier reads:
//
//	curate: deps_unreachable: REGISTRY did not answer: <log line>
//	curate: deps_missing: REGISTRY lacks what the build asks for: <log line>
//	curate: compile_error: the project does not build at the PR head: <log line>
//
// Usage: curate-deps deps|build REGISTRY 'COMMAND'. A "build" step that
// fails for neither network reason is a compile error; a "deps" step a
// missing dependency. The patterns are npm's, cargo's, Maven's and
// Gradle's own words.
const depsScript = `#!/bin/sh
kind=$1; reg=$(eval "echo \"$2\""); cmd=$3
log=/tmp/curate-deps.log
sh -c "$cmd" > $log 2>&1; st=$?
cat $log
[ $st -eq 0 ] && { rm -f $log; exit 0; }
unreachable='ENOTFOUND|ECONNREFUSED|ETIMEDOUT|EAI_AGAIN|ECONNRESET|SELF_SIGNED_CERT|UNABLE_TO_GET_ISSUER|CERT_HAS_EXPIRED|unable to get local issuer|certificate verify failed|socket hang up|spurious network error|Could not resolve host|failed to connect to|Could not transfer|PKIX path|UnknownHostException|Connect timed out|Network is unreachable|Temporary failure in name resolution'
missing='E404|ETARGET|No matching version|is not in this registry|404 Not Found|no matching package named|failed to select a version|Could not find artifact|was not found in|Could not resolve dependencies|could not find .* in registry'
compile='error\[E[0-9]+\]|could not compile|COMPILATION ERROR|Compilation failure|compileJava FAILED|compileTestJava FAILED|error TS[0-9]+:'
first() { grep -E -m1 "$1" $log | cut -c1-300; }
if grep -Eq "$unreachable" $log; then
  echo "curate: deps_unreachable: $reg did not answer: $(first "$unreachable")" >&2
elif grep -Eq "$missing" $log; then
  echo "curate: deps_missing: $reg lacks what the build asks for: $(first "$missing")" >&2
elif [ "$kind" = build ] || grep -Eq "$compile" $log; then
  echo "curate: compile_error: the project does not build at the PR head: $(first "$compile|^error|ERROR")" >&2
else
  echo "curate: deps_missing: the dependency step failed (exit $st): $(first 'ERR!|^error|ERROR|FAILURE')" >&2
fi
rm -f $log
exit 1
`

// depsToolStep writes curate-deps into the image (a toolchain step: the
// layer is the same for every task).
func depsToolStep() string {
	return "echo " + base64.StdEncoding.EncodeToString([]byte(depsScript)) + " | base64 -d > /usr/local/bin/curate-deps && chmod +x /usr/local/bin/curate-deps"
}

// depsRun is a RUN body that runs cmd through curate-deps.
func depsRun(kind, registry, cmd string) string {
	return fmt.Sprintf("curate-deps %s %s %s", kind, shellQuote(registry), shellQuote(cmd))
}
