#!/usr/bin/env bash
# Builds the four Kubernetes binaries the CI cluster needs (apiserver,
# controller-manager, scheduler, kubelet) from the k8s.io/kubernetes Go module
# through the module proxy, once per version: the result is cached under
# $CURATE_KUBE_CACHE/<version>/bin and a second call returns at once.
# k8s.io/kubernetes replaces its k8s.io/* staging modules with ./staging,
# which is not in the module zip, so a wrapper module replaces each of them
# with the published v0.<minor>.<patch> module.
set -euo pipefail
export PATH="/usr/local/go/bin:$PATH"
version="${CURATE_KUBE_VERSION:-v1.34.4}"
cache="${CURATE_KUBE_CACHE:-/var/cache/curate-kube}/$version"
bins=(kube-apiserver kube-controller-manager kube-scheduler kubelet)
have=1
for b in "${bins[@]}"; do [ -x "$cache/bin/$b" ] || have=0; done
if [ $have = 1 ]; then
  echo "kube: binaries $version cached in $cache/bin" >&2
  exit 0
fi
t0=$(date +%s)
staging="v0.${version#v1.}"
mod="$cache/module"
mkdir -p "$mod" "$cache/bin"
proxy="${GOPROXY:-https://proxy.golang.org}"; proxy="${proxy%%,*}"
kmod=$(curl -fsSL "$proxy/k8s.io/kubernetes/@v/$version.mod")
{
  echo "module curate.local/kubebuild"
  echo
  echo "go 1.24.0"
  echo
  echo "require k8s.io/kubernetes $version"
  echo
  echo "$kmod" | awk -v v="$staging" '$2 == "=>" && $3 ~ /^\.\/staging\// { print "replace " $1 " => " $1 " " v }'
} > "$mod/go.mod"
cat > "$mod/tools.go" <<'GO'
//go:build tools

package tools

import (
	_ "k8s.io/kubernetes/cmd/kube-apiserver/app"
	_ "k8s.io/kubernetes/cmd/kube-controller-manager/app"
	_ "k8s.io/kubernetes/cmd/kube-scheduler/app"
	_ "k8s.io/kubernetes/cmd/kubelet/app"
)
GO
cd "$mod"
GOFLAGS=-mod=mod go mod tidy -e >/dev/null 2>&1 || GOFLAGS=-mod=mod go mod tidy
minor="${version#v1.}"; minor="${minor%%.*}"
ld="-s -w"
for p in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
  ld="$ld -X $p.gitVersion=$version -X $p.gitMajor=1 -X $p.gitMinor=$minor -X $p.gitTreeState=clean"
done
for b in "${bins[@]}"; do
  [ -x "$cache/bin/$b" ] && continue
  s=$(date +%s)
  CGO_ENABLED=0 go build -trimpath -ldflags "$ld" -o "$cache/bin/$b.tmp" "k8s.io/kubernetes/cmd/$b"
  mv "$cache/bin/$b.tmp" "$cache/bin/$b"
  echo "kube: built $b in $(( $(date +%s) - s ))s" >&2
done
echo "kube: binaries $version built in $(( $(date +%s) - t0 ))s into $cache/bin" >&2
