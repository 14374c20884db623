package golang

import (
	"curate/pipeline/envgen"
	_ "embed" // the dated proxy's source goes into the build context
	"strings"
	"time"
)

// datedProxySource is the module proxy that answers as of a date, run in
// the image while a GOPATH-era revision's dependencies resolve.
//
//go:embed datedproxy/main.go
var datedProxySource string

// gopathScript resolves a revision without go.mod: go mod init, the pins
// of its legacy dependency file (go-pins.txt), then go mod tidy through
// the dated proxy, so what the pins leave open is what was published by
// the revision's date. $1 is that date; "" resolves today's.
const gopathScript = `#!/bin/sh
# gopath-deps.sh DATE MODULE: dependencies of a revision without go.mod, as
# of DATE (RFC 3339), through datedproxy. Made by curate.
set -u
before="$1"; module="$2"; share=/usr/local/share/curate
go mod init "$module" && go mod edit -go=1.16 || exit 1
if [ -n "$before" ]; then
  up=$(go env GOPROXY | tr ',|' '\n\n' | grep -v -e '^direct$' -e '^off$' | head -n 1)
  (cd "$share" && GOFLAGS= GO111MODULE=off go build -o /tmp/datedproxy datedproxy.go) || exit 1
  rm -f /tmp/datedproxy.url
  /tmp/datedproxy -before "$before" -upstream "${up:-https://proxy.golang.org}" -ready /tmp/datedproxy.url 2>/tmp/datedproxy.log &
  pid=$!
  i=0; while [ ! -s /tmp/datedproxy.url ] && [ $i -lt 300 ]; do sleep 0.2; i=$((i+1)); done
  [ -s /tmp/datedproxy.url ] || { cat /tmp/datedproxy.log; exit 1; }
  GOPROXY=$(cat /tmp/datedproxy.url); export GOPROXY
  echo "modules as of $before (the dated proxy in front of ${up:-https://proxy.golang.org})"
fi
if [ -s "$share/go-pins.txt" ]; then
  # Each line: an import path, then the versions naming its pinned commit.
  while read -r path versions; do
    done=""
    for v in $versions; do
      if go get "$path@$v" >/dev/null 2>&1; then echo "pinned $path@$v"; done=1; break; fi
    done
    [ -n "$done" ] || echo "$path@$versions (the legacy dependency file's pin) did not resolve: the date decides"
  done < "$share/go-pins.txt"
fi
go mod tidy -e; st=$?
# A dated pick may lack a name the code uses (a 2017 revision given a
# release from before the name was added: "undefined: pkg.Name"), or a
# pinned release may panic as it starts under today's Go (an init that a
# stricter standard library refuses): that module moves to its next
# release, as many times as it takes (up to 8).
undefined_module() {
  line=$(printf '%s\n' "$1" | grep -m1 -E '^[^ :]+\.go:[0-9]+:[0-9]+: undefined: [A-Za-z_][A-Za-z0-9_]*\.[A-Za-z_]') || return 1
  file=${line%%:*}; name=$(printf '%s\n' "$line" | sed -E 's/.*undefined: ([A-Za-z_][A-Za-z0-9_]*)\.([A-Za-z0-9_]+).*/\1.\2/'); id=${name%%.*}
  imp=$(sed -n -E 's/^[[:space:]]*(import[[:space:]]+)?'"$id"'[[:space:]]+"([^"]+)".*/\2/p' "$file" | head -n 1)
  if [ -z "$imp" ]; then
    for i in $(go list -e -f '{{join .Imports " "}} {{join .TestImports " "}}' "./$(dirname "$file")"); do
      [ "$(go list -e -f '{{.Name}}' "$i" 2>/dev/null)" = "$id" ] && { imp=$i; break; }
    done
  fi
  [ -n "$imp" ] || return 1
  found=$(go list -e -f '{{with .Module}}{{.Path}} {{.Version}}{{end}}' "$imp")
  [ -n "$found" ] && [ "${found#* }" != "$found" ] || return 1
  mod=${found%% *}; cur=${found#* }; why="lacks $name (undefined in $file)"
}
panicking_module() {
  printf '%s\n' "$1" | grep -q '^panic: ' || return 1
  found=$(printf '%s\n' "$1" | sed -n '/^panic: /,$p' | sed -n -E 's#^[[:space:]]*[^[:space:]]*/pkg/mod/([^@[:space:]]+)@([^/[:space:]]+)/.*#\1 \2#p' | head -n 1)
  [ -n "$found" ] || return 1
  mod=$(printf '%s\n' "${found%% *}" | sed -E 's/!([a-z])/\U\1/g'); cur=${found#* }
  why="panics as the tests start under $(go env GOVERSION) ($(printf '%s\n' "$1" | grep -m1 '^panic: '))"
}
tries=0
while [ $st -eq 0 ] && [ $tries -lt 8 ]; do
  tries=$((tries+1))
  # Packages that do not build for another reason (an example's own
  # dependency) do not stop the others from being checked.
  out=$( (go build ./...; go test -vet=off -count=1 -run '^$' -exec /bin/true ./...) 2>&1 >/dev/null)
  if ! undefined_module "$out"; then
    out=$(go test -vet=off -count=1 -run '^$' ./... 2>&1)
    panicking_module "$out" || break
  fi
  next=$(GOPROXY="${up:-$(go env GOPROXY)}" go list -m -f '{{.Version}}' "$mod@>$cur" 2>/dev/null) || break
  GOPROXY="${up:-$(go env GOPROXY)}" go get "$mod@$next" >/dev/null 2>&1 || break
  echo "curate: note: $mod@$cur $why: retried with the next release $next"
done
# Every package the tests import resolves now, while the network is on.
go list -e -deps -test ./... >/dev/null
[ -z "${pid:-}" ] || kill "$pid"
rm -f /tmp/datedproxy /tmp/datedproxy.url /tmp/datedproxy.log
exit $st
`

// planGOPATH plans a revision without go.mod (GOPATH era): the module
// path from the origin remote, the versions its legacy dependency file
// pins, the rest as of the revision's date.
func planGOPATH(tree *envgen.Tree, p *envgen.Plan) {
	modPath, source := ownImportPath(tree)
	if modPath == "" {
		modPath, source = goModulePath(tree), "the origin remote"
	}
	p.Note("no go.mod at this revision (GOPATH era): module %s from %s (go mod init)", modPath, source)
	p.Files = map[string]string{"datedproxy.go": datedProxySource, "gopath-deps.sh": gopathScript}
	for _, f := range legacyFiles {
		if !tree.Has(f) {
			continue
		}
		pins := legacyPins(f, tree.Text(f))
		if len(pins) == 0 {
			p.Note("%s pins nothing curate can read", f)
			continue
		}
		var b strings.Builder
		for _, pn := range pins {
			b.WriteString(pn.path + " " + strings.Join(pn.versions, " ") + "\n")
		}
		p.Files["go-pins.txt"] = b.String()
		p.Note("%d dependencies pinned as %s says (go get path@version, trying its release tag, the commit's pseudo-version from the file's commit time, then the commit hash; Go 1.22 no longer converts the file)", len(pins), f)
		break
	}
	date := ""
	if !tree.Date.IsZero() {
		date = tree.Date.UTC().Format(time.RFC3339)
		p.Note("dependencies no pin fixes: the newest version published by the revision's date %s (the module proxy's @v/list and @v/<v>.info times, through a dated proxy in the image)", date)
		p.Note("a dated or pinned release the code does not build with (\"undefined: pkg.Name\") or that panics as the tests start under this Go is retried with that module's next release; the image build's log says which (\"curate: note: ... retried with the next release\")")
	} else {
		p.Note("the revision's date is unknown: dependencies no pin fixes resolve to today's versions")
	}
	p.Install = []string{envgen.RegistryStep("the Go module proxy ($GOPROXY)", GoMissingSed,
		"sh /usr/local/share/curate/gopath-deps.sh "+envgen.ShellQuote(date)+" "+envgen.ShellQuote(modPath))}
}
