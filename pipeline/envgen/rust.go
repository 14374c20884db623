package envgen

import (
	"fmt"
	"path"
	"regexp"
	"sort"
	"strings"
)

// rust plans Rust tasks: Debian's current toolchain (rustc-web,
// cargo-web), crates fetched and the tests compiled at image build, so
// validation runs `cargo test --offline` without network.
type rust struct{}

func init() { register(rust{}) }

func (rust) Name() string { return "rust" }

var rustTestRe = regexp.MustCompile(`#\[(?:tokio::)?test\][\s\S]{0,200}?fn\s+(\w+)`)

func (rust) TestNames(_, content string) []string { return namesMatching(rustTestRe, content) }

// cratesIO names the registry in evidence lines.
const cratesIO = "crates.io (https://index.crates.io)"

// cargoMissing prints the crates cargo could not find (sed -E).
const cargoMissing = "s/.*no matching package named `([^`]+)`.*/\\1/p; s/.*failed to select a version for the requirement `([^`]+)`.*/\\1/p"

// debianRust is the version of Debian 12's rustc-web and cargo-web.
var debianRust = version{1, 96, 0}

var (
	rustVersionRe = regexp.MustCompile(`(?m)^\s*rust-version\s*=\s*"([^"]+)"`)
	cargoNameRe   = regexp.MustCompile(`(?m)^\s*name\s*=\s*"([^"]+)"`)
	toolchainRe   = regexp.MustCompile(`(?m)^\s*channel\s*=\s*"([^"]+)"`)
)

func (rust) Plan(tree *Tree, tests Tests) (*Plan, error) {
	if !tree.Has("Cargo.toml") {
		return nil, fmt.Errorf("no Cargo.toml at the repository root: set [repos.%q] test_command and install in curate.toml", tree.Repo)
	}
	p := &Plan{Language: "rust", Packages: []string{"rustc-web", "cargo-web"}}
	p.Toolchain = Toolchain{Name: "rust", Version: fmt.Sprintf("%d.%d", debianRust[0], debianRust[1]), Why: "Debian's rustc-web/cargo-web"}
	p.Env = []string{"CARGO_TERM_COLOR=never", "CARGO_INCREMENTAL=0", "CARGO_NET_RETRY=5"}
	root := tree.Text("Cargo.toml")
	if m := rustVersionRe.FindStringSubmatch(root); m != nil {
		want, n := parseVersion(m[1])
		if n > 0 && debianRust.less(want) {
			p.ToolchainSteps = append(p.ToolchainSteps, failStep("toolchain_mismatch",
				"Cargo.toml wants rust-version %s, present rustc %d.%d (Debian's rustc-web)", m[1], debianRust[0], debianRust[1]))
		}
		p.Note("rust %d.%d from Debian (rustc-web, cargo-web); Cargo.toml rust-version %s", debianRust[0], debianRust[1], m[1])
	} else {
		p.Note("rust %d.%d from Debian (rustc-web, cargo-web); Cargo.toml sets no rust-version", debianRust[0], debianRust[1])
	}
	for _, f := range []string{"rust-toolchain.toml", "rust-toolchain"} {
		s := strings.TrimSpace(tree.Text(f))
		if s == "" {
			continue
		}
		channel := s
		if m := toolchainRe.FindStringSubmatch(s); m != nil {
			channel = m[1]
		}
		if strings.HasPrefix(channel, "nightly") {
			p.Note("%s asks for %s: tests that need nightly features will not build on stable %d.%d", f, channel, debianRust[0], debianRust[1])
		} else if v, n := parseVersion(channel); n > 0 && debianRust.less(v) {
			p.ToolchainSteps = append(p.ToolchainSteps, failStep("toolchain_mismatch",
				"%s wants rust %s, present rustc %d.%d (Debian's rustc-web)", f, channel, debianRust[0], debianRust[1]))
		}
		break
	}
	// Crates at build time (writes Cargo.lock when the repository has
	// none), then every test target compiled once, so validation only
	// rebuilds the crate the patches touch.
	p.Install = []string{
		registryStep(cratesIO, cargoMissing, "cargo fetch"),
		registryStep(cratesIO, cargoMissing, "cargo test --no-run"),
	}
	p.Note("crates fetched (cargo fetch) and tests compiled (cargo test --no-run) at image build")
	p.BuildTimeoutSec = 1800
	args := rustTestArgs(tree, tests.Files)
	p.Test = Runner{
		Command:   "cargo test --offline --no-fail-fast " + strings.Join(args, " ") + " 2>&1 | tee /logs/verifier/cargo-test.txt; test ${PIPESTATUS[0]} -eq 0",
		Check:     `grep -Eq '^test .* \.\.\. ok$' /logs/verifier/cargo-test.txt`,
		LogFormat: "cargo",
	}
	if len(args) > 0 {
		p.Note("tests: cargo test %s", strings.Join(args, " "))
	}
	return p, nil
}

// rustTestArgs selects the targets the PR's test files belong to: a file
// under a crate's tests/ is that test target (--test NAME), one under
// src/ its library or binary unit tests (--lib, --bins); in a workspace
// each crate is named with -p. Doc tests run only when nothing narrower
// was found.
func rustTestArgs(tree *Tree, files []string) []string {
	set := map[string]bool{}
	var pkgs, targets []string
	for _, f := range files {
		if path.Ext(f) != ".rs" {
			continue
		}
		dir, manifest := crateOf(tree, f)
		if manifest == "" {
			continue
		}
		rel := strings.TrimPrefix(f, dir)
		if dir != "" && manifest != "Cargo.toml" {
			if m := cargoNameRe.FindStringSubmatch(packageSection(tree.Text(manifest))); m != nil && !set["-p "+m[1]] {
				set["-p "+m[1]] = true
				pkgs = append(pkgs, "-p "+shellQuote(m[1]))
			}
		}
		var t string
		switch {
		case strings.HasPrefix(rel, "tests/") && strings.Count(rel, "/") == 1:
			t = "--test " + shellQuote(strings.TrimSuffix(path.Base(rel), ".rs"))
		case strings.HasPrefix(rel, "tests/") && strings.Count(rel, "/") == 2 && (path.Base(rel) == "main.rs" || path.Base(rel) == "mod.rs"):
			t = "--test " + shellQuote(path.Base(path.Dir(rel)))
		case strings.HasPrefix(rel, "tests/"):
			// A helper module of some test target: every test target.
			t = "--tests"
		case strings.HasPrefix(rel, "src/bin/"):
			t = "--bins"
		case strings.HasPrefix(rel, "src/"):
			t = "--lib"
		}
		if t != "" && !set[t] {
			set[t] = true
			targets = append(targets, t)
		}
	}
	sort.Strings(pkgs)
	if set["--tests"] {
		var keep []string
		for _, t := range targets {
			if !strings.HasPrefix(t, "--test ") {
				keep = append(keep, t)
			}
		}
		targets = keep
	}
	return append(pkgs, targets...)
}

// crateOf finds the crate a file belongs to: the nearest Cargo.toml above
// it. dir is the crate's folder with a trailing slash ("" at the root).
func crateOf(tree *Tree, file string) (dir, manifest string) {
	for d := path.Dir(file); ; d = path.Dir(d) {
		prefix := d + "/"
		if d == "." {
			prefix = ""
		}
		if tree.Has(prefix + "Cargo.toml") {
			if prefix != "" || strings.Contains(tree.Text("Cargo.toml"), "[package]") || !strings.Contains(tree.Text("Cargo.toml"), "[workspace]") {
				return prefix, prefix + "Cargo.toml"
			}
		}
		if d == "." || d == "/" {
			return "", ""
		}
	}
}

// packageSection is the [package] table of a Cargo.toml (so a
// dependency's name is not taken for the crate's).
func packageSection(toml string) string {
	i := strings.Index(toml, "[package]")
	if i < 0 {
		return ""
	}
	rest := toml[i+len("[package]"):]
	if j := strings.Index(rest, "\n["); j >= 0 {
		rest = rest[:j]
	}
	return rest
}
