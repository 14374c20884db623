package envgen

import (
	"fmt"
	"strings"
)

// toolchain is what a language's tasks need in the image: commands to
// check for, and the Debian/Ubuntu packages that provide them.
type toolchain struct {
	checks   []string // shell tests that must all pass
	packages []string
}

var commonTools = toolchain{
	checks:   []string{"command -v bash", "command -v git", "command -v patch"},
	packages: []string{"bash", "git", "patch", "ca-certificates"},
}

var languageTools = map[string]toolchain{
	"python":     {[]string{"command -v python3", "python3 -c 'import pytest'"}, []string{"python3", "python3-pip", "python3-pytest"}},
	"go":         {[]string{"command -v go"}, []string{"golang-go"}},
	"rust":       {[]string{"command -v cargo"}, []string{"cargo"}},
	"javascript": {[]string{"command -v node", "command -v npm"}, []string{"nodejs", "npm"}},
	"typescript": {[]string{"command -v node", "command -v npm"}, []string{"nodejs", "npm"}},
	"java":       {[]string{"command -v javac", "command -v mvn"}, []string{"default-jdk-headless", "maven"}},
}

// toolchainStep is a RUN line that installs the tools with apt-get only
// when the base image lacks one, so a prepared image (`curate env
// bootstrap`) builds offline and a plain distribution image (the default
// ubuntu:24.04) gets what the task needs. Without apt-get it stops with a
// message saying what to do, which the build_failed outcome shows.
func toolchainStep(lang string) string {
	tc := commonTools
	if lt, ok := languageTools[lang]; ok {
		tc.checks = append(append([]string{}, tc.checks...), lt.checks...)
		tc.packages = append(append([]string{}, tc.packages...), lt.packages...)
	}
	var ok []string
	for _, c := range tc.checks {
		ok = append(ok, c+" >/dev/null 2>&1")
	}
	pkgs := strings.Join(tc.packages, " ")
	return fmt.Sprintf(`RUN if ! { %s; }; then `+
		`if command -v apt-get >/dev/null 2>&1; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends %s && rm -rf /var/lib/apt/lists/*; `+
		`else echo "curate: the base image lacks the %s toolchain (%s) and has no apt-get: set [docker] base_image in curate.toml or run curate env bootstrap" >&2; exit 1; fi; fi`,
		strings.Join(ok, " && "), pkgs, lang, pkgs)
}
