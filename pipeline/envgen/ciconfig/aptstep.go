package ciconfig

import (
	"curate/pipeline/envgen"
	_ "embed"
	"regexp"
	"strings"
)

// aptSh is the curate-apt helper (installs what Debian has of a list).
//
//go:embed curate-apt.sh
var aptSh string

// toolchainPackageRe names the packages of the toolchains curate chooses
// itself (with the source of each decision): a CI's apt line for one of
// them would put a second, older toolchain beside it, or replace it.
var toolchainPackageRe = regexp.MustCompile(`^(?:python[0-9.]*(?:-dev|-venv|-pip)?|pypy\S*|nodejs|npm|yarn(?:pkg)?|golang\S*|openjdk\S*|default-j\S+|maven|gradle|ant|rustc\S*|cargo\S*|rust-\S+|gcc\S*|g\+\+\S*|clang\S*|llvm\S*|lld\S*|cmake|meson|ninja-build|git|curl|wget|sudo|ca-certificates|build-essential|software-properties-common|apt-transport-https|gnupg\S*|lsb-release)$`)

// AptPackages plans the packages the project's CI installs with apt
// (Config.Packages) that p does not already have, leaving out the
// toolchains curate decides: installed at image build when Debian has
// them (curate-apt), else named in the build log. The C/C++ planner has
// its own, which also looks headers and .pc files up.
func AptPackages(p *envgen.Plan, tree *envgen.Tree) {
	var names, from []string
	for _, s := range Read(tree).Packages {
		if toolchainPackageRe.MatchString(s.Value) || contains(p.Packages, s.Value) || contains(names, s.Value) {
			continue
		}
		names = append(names, s.Value)
		if !contains(from, s.Source) {
			from = append(from, s.Source)
		}
	}
	if len(names) == 0 {
		return
	}
	p.Tool("curate-apt", aptSh)
	p.ToolchainSteps = append(p.ToolchainSteps, "curate-apt "+envgen.QuoteAll(names))
	p.Note("the CI installs %s (%s): installed when Debian 12 has them, else left out with a note in the build log", strings.Join(names, " "), strings.Join(from, ", "))
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
