package rust

import _ "embed"

// cargoLockSh is the curate-cargo-lock helper: a Cargo.lock resolved for
// the image's rustc when the crate has none.
//
//go:embed curate-cargo-lock.sh
var cargoLockSh string
