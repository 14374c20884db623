#!/usr/bin/env bash
# Makes the buildkitd image the CI cluster runs (no container registry on
# the internet is reachable): buildkitd built from the
# github.com/moby/buildkit Go module through the module proxy, once per
# version (cached as $CURATE_KUBE_CACHE/buildkit/<version>/buildkitd), plus
# Debian's runc with the shared libraries it loads (the package's runc is
# linked dynamically), in an image FROM scratch pushed to the CI registry as
# 127.0.0.1:5000/curate-buildkitd:<version>. Prints that reference.
# The module is built as the main module of a copy of its source: its
# go.mod has exclude directives, which `go install pkg@version` refuses.
set -euo pipefail
export PATH="/usr/local/go/bin:$PATH"
version="${CURATE_BUILDKIT_VERSION:-v0.34.2}"
registry="${CURATE_KUBE_REGISTRY:-127.0.0.1:5000}"
cache="${CURATE_KUBE_CACHE:-/var/cache/curate-kube}/buildkit/$version"
ref="$registry/curate-buildkitd:$version"
t0=$(date +%s)
step() { echo "buildkit: $(( $(date +%s) - t0 ))s $*" >&2; }
if [ ! -x "$cache/buildkitd" ]; then
  mkdir -p "$cache"
  dir=$(go mod download -json "github.com/moby/buildkit@$version" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
  [ -n "$dir" ] || { echo "buildkit: go mod download github.com/moby/buildkit@$version gave no source folder" >&2; exit 1; }
  src=$(mktemp -d)
  cp -r "$dir/." "$src" && chmod -R u+w "$src"
  (cd "$src" && CGO_ENABLED=0 go build -mod=mod -trimpath -ldflags "-s -w" -o "$cache/buildkitd.tmp" ./cmd/buildkitd)
  rm -rf "$src"
  mv "$cache/buildkitd.tmp" "$cache/buildkitd"
  step "buildkitd $version built"
fi
# The registry has it: nothing to do (the image is content-addressed by
# its version; the CI registry lives as long as the cluster).
if curl -sf -o /dev/null -H 'Accept: application/vnd.docker.distribution.manifest.v2+json' \
  "http://$registry/v2/curate-buildkitd/manifests/$version"; then
  echo "$ref"; exit 0
fi
command -v runc >/dev/null 2>&1 || { echo "buildkit: no runc on PATH (Debian package runc)" >&2; exit 1; }
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
mkdir -p "$d/root/usr/bin" "$d/root/tmp" "$d/root/etc" "$d/root/var/lib/buildkit"
cp "$cache/buildkitd" "$d/root/usr/bin/buildkitd"
cp "$(command -v runc)" "$d/root/usr/bin/runc"
# runc's loader and libraries, at the paths it asks for.
for lib in $(ldd "$(command -v runc)" | grep -o '/[^ ]*'); do
  mkdir -p "$d/root$(dirname "$lib")"
  cp -L "$lib" "$d/root$lib"
done
echo 'root:x:0:0:root:/root:/bin/sh' > "$d/root/etc/passwd"
echo 'root:x:0:' > "$d/root/etc/group"
printf 'FROM scratch\nCOPY root/ /\nENV PATH=/usr/bin\nENTRYPOINT ["/usr/bin/buildkitd"]\n' > "$d/Dockerfile"
docker build -q -t "$ref" --label curate.ci=kube "$d" >/dev/null 2>"$d/build.log" || { cat "$d/build.log" >&2; exit 1; }
docker push -q "$ref" >/dev/null
docker rmi -f "$ref" >/dev/null 2>&1 || true
step "image $ref pushed"
echo "$ref"
