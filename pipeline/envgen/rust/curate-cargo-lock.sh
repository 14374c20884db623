#!/bin/sh
# curate-cargo-lock: write Cargo.lock for a crate that has none, with the
# newest crate versions the image's rustc builds. Made by curate.
# Cargo's MSRV-aware fallback resolver fits the workspace's rust-version,
# not the rustc at hand: a crate declaring an old rust-version (1.68)
# whose newest dev-dependency needs a newer rustc than the image's (1.85)
# gets that newest version, since no version fits 1.68, and the build stops
# ("rustc 1.85.0 is not supported by the following package"). So every
# rust-version line is set to the image's rustc while the lock is written,
# then put back.
[ -f Cargo.lock ] && exit 0
have=$(rustc --version | cut -d' ' -f2)
saved=$(mktemp -d)
manifests=$(find . -name Cargo.toml -not -path './target/*' -not -path '*/.git/*')
i=0
for m in $manifests; do
  i=$((i + 1))
  cp "$m" "$saved/$i"
  sed -i -E 's/^([[:space:]]*rust-version[[:space:]]*=[[:space:]]*)"[^"]*"/\1"'"$have"'"/' "$m"
done
CARGO_RESOLVER_INCOMPATIBLE_RUST_VERSIONS=fallback cargo generate-lockfile
st=$?
i=0
for m in $manifests; do
  i=$((i + 1))
  cp "$saved/$i" "$m"
done
rm -rf "$saved"
[ "$st" -eq 0 ] && echo "curate: Cargo.lock written for rustc $have (the newest crates it builds; the crate has no lock of its own)"
exit "$st"
