package rust

import (
	_ "embed"
	"time"

	"curate/pipeline/envgen"
)

// cargoGitPy is the curate-cargo-git helper: git dependencies taken from
// crates.io, as of the revision's date.
//
//go:embed curate-cargo-git.py
var cargoGitPy string

// planGitDependencies adds curate-cargo-git before the crates are resolved
// when a manifest names a git dependency: the image's cargo checks out no
// git source (its libgit2 fails on any, a local one too) and builds here
// reach the registries, not git hosts, so such a revision would never
// resolve.
func planGitDependencies(tree *envgen.Tree, p *envgen.Plan) {
	if len(tree.Grep(`git[[:space:]]*=[[:space:]]*"`, "Cargo.toml")) == 0 {
		return
	}
	step, asOf := "curate-cargo-git", "the newest release (the revision's date is unknown)"
	if !tree.Date.IsZero() {
		step += " " + tree.Date.UTC().Format(time.RFC3339)
		asOf = "the release nearest the revision's date, " + tree.Date.UTC().Format("2006-01-02")
	}
	p.Tool("curate-cargo-git", cargoGitPy)
	p.Install = append([]string{step}, p.Install...)
	p.Note("git dependencies taken from crates.io (the image's cargo checks out no git source): the dependency's own version requirement, else %s; said in the build log (curate-cargo-git)", asOf)
}
