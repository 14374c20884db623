package rust

import (
	"curate/pipeline/envgen"
	"curate/pipeline/envgen/ciconfig"
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

func init() { envgen.Register(rust{}) }

func (rust) Name() string { return "rust" }

var rustTestRe = regexp.MustCompile(`#\[(?:tokio::)?test\][\s\S]{0,200}?fn\s+(\w+)`)

func (rust) TestNames(_, content string) []string { return envgen.NamesMatching(rustTestRe, content) }

// CratesIO names the registry in evidence lines.
const CratesIO = "crates.io (https://index.crates.io)"

// CargoMissing prints the crates cargo could not find (sed -E).
const CargoMissing = "s/.*no matching package named `([^`]+)`.*/\\1/p; s/.*failed to select a version for the requirement `([^`]+)`.*/\\1/p"

var cargoNameRe = regexp.MustCompile(`(?m)^\s*name\s*=\s*"([^"]+)"`)

func (rust) Plan(tree *envgen.Tree, tests envgen.Tests) (*envgen.Plan, error) {
	if !tree.Has("Cargo.toml") {
		return nil, fmt.Errorf("no Cargo.toml at the repository root: set [repos.%q] test_command and install in curate.toml", tree.Repo)
	}
	p := &envgen.Plan{Language: "rust", Packages: []string{"rustc-web", "cargo-web"}}
	p.Toolchain = envgen.Toolchain{Name: "rust", Version: fmt.Sprintf("%d.%d", debianRust[0], debianRust[1]), Why: "Debian's rustc-web/cargo-web"}
	p.Env = []string{"CARGO_TERM_COLOR=never", "CARGO_INCREMENTAL=0", "CARGO_NET_RETRY=5"}
	planToolchain(tree, p)
	// Crates at build time (writes Cargo.lock when the repository has
	// none), then every test target compiled once, so validation only
	// rebuilds the crate the patches touch.
	args := rustTestArgs(tree, tests.Files)
	pkgs := packageArgs(args)
	features := rustTestFeatures(tree, tests.Files)
	compile := strings.TrimSpace("cargo test --no-run " + strings.Join(pkgs, " "))
	p.Install = []string{
		envgen.RegistryStep(CratesIO, CargoMissing, "cargo fetch"),
		envgen.RegistryStep(CratesIO, CargoMissing, compile),
	}
	if !tree.Has("Cargo.lock") {
		p.Tool("curate-cargo-lock", cargoLockSh)
		p.Install = append([]string{envgen.RegistryStep(CratesIO, CargoMissing, "curate-cargo-lock")}, p.Install...)
	}
	planGitDependencies(tree, p)
	p.Note("crates fetched (cargo fetch) and tests compiled (%s) at image build", compile)
	if warm := featuresWarm(compile, features); warm != "" {
		p.Install = append(p.Install, warm)
		p.Note("and compiled again with the tests' features (%s %s), so a run does not rebuild the dependencies they turn on", compile, featuresArg(features))
	}
	if len(pkgs) > 0 {
		p.Note("workspace: only the packages the PR's tests are in are compiled and tested (%s); other members (benchmarks, fuzz crates) never stop the build", strings.Join(pkgs, " "))
	}
	// The buggy state may ask for other crates (rust-lang/log #568 drops a
	// dev-dependency): fetched again once bug.patch is in, offline when
	// nothing changed, with network when the PR touched a manifest.
	p.AfterBug = []string{"cargo fetch --offline >/dev/null 2>&1 || " + envgen.RegistryStep(CratesIO, CargoMissing, "cargo fetch")}
	p.RefetchOn = []string{"Cargo.toml", "Cargo.lock"}
	p.BuildTimeoutSec = 1800
	if len(features) > 0 {
		args = append(args, featuresArg(features))
		p.Note("features the PR's tests are gated on (#[cfg(feature = ...)]): %s", strings.Join(features, ", "))
	}
	// CARGO_NET_OFFLINE reaches the cargo a test runs itself too (trybuild,
	// a snapshot tool's functional tests running `cargo metadata` on a
	// scratch crate): offline, it resolves from the crates the image
	// fetched instead of failing on crates.io in both states.
	p.Note("tests run with CARGO_NET_OFFLINE=true, so cargo started by a test resolves from the image's crates")
	check := `grep -Eq '^test .* \.\.\. ok$' /logs/verifier/cargo-test.txt`
	if bare := harnessFree(tree, tests.Files); len(bare) > 0 {
		// A harness = false target prints no test line; its Running line
		// and cargo's exit status are its result.
		var alts []string
		for _, f := range bare {
			alts = append(alts, regexp.QuoteMeta(f))
		}
		check = "grep -Eq " + envgen.ShellQuote(`^test .* \.\.\. ok$|^ +Running (`+strings.Join(alts, "|")+`) `) + " /logs/verifier/cargo-test.txt"
		p.Note("harness = false test targets (their own main(), one test each, passed when they exit 0): %s", strings.Join(bare, ", "))
	}
	if warm := trybuildWarm(tree, args); warm != "" {
		p.Install = append(p.Install, warm)
		p.Note("the run's trybuild tests run once at image build (results dropped), so trybuild's scratch crate is compiled there and not in every run")
	}
	p.Test = envgen.Runner{
		Command:   "CARGO_NET_OFFLINE=true cargo test --offline --no-fail-fast " + strings.Join(args, " ") + " 2>&1 | tee /logs/verifier/cargo-test.txt; test ${PIPESTATUS[0]} -eq 0",
		Check:     check,
		LogFormat: "cargo",
	}
	if len(args) > 0 {
		p.Note("tests: cargo test %s", strings.Join(args, " "))
	}
	ciconfig.AptPackages(p, tree)
	return p, nil
}

// rustTestArgs selects the targets the PR's test files belong to: a file
// under a crate's tests/ is that test target (--test NAME), one under
// src/ its library or binary unit tests (--lib, --bins); in a workspace
// each crate is named with -p. Doc tests run only when nothing narrower
// was found.
func rustTestArgs(tree *envgen.Tree, files []string) []string {
	set := map[string]bool{}
	var pkgs, targets []string
	rootTests := false
	for _, f := range files {
		if path.Ext(f) != ".rs" {
			continue
		}
		dir, pkg, ok := rustTestCrate(tree, f)
		if !ok {
			continue
		}
		rel := strings.TrimPrefix(f, dir)
		rootTests = rootTests || dir == ""
		if pkg != "" && !set["-p "+pkg] {
			set["-p "+pkg] = true
			pkgs = append(pkgs, "-p "+envgen.ShellQuote(pkg))
		}
		var t string
		switch name := testTargetName(rel); {
		case name != "":
			t = "--test " + envgen.ShellQuote(name)
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
	// The root's own tests beside a member's: cargo runs only the -p
	// packages, so the root package is named too (dtolnay/thiserror's
	// whole suite at aa9d91f7: tests/ and the tests/no-std member).
	if name := rootPackage(tree); rootTests && len(pkgs) > 0 && name != "" && !set["-p "+name] {
		pkgs = append(pkgs, "-p "+envgen.ShellQuote(name))
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

// rustTestCrate is the crate a test file belongs to, as cargo at the
// root can reach it: its folder ("" at the root, else with a trailing
// slash) and the package name to give -p ("" for the root's own). ok is
// false when no crate holds the file, or its crate is outside the root's
// workspace (its own project, which -p cannot name).
func rustTestCrate(tree *envgen.Tree, file string) (dir, pkg string, ok bool) {
	dir, manifest := crateOf(tree, file)
	if manifest == "" {
		return "", "", false
	}
	if dir == "" {
		return "", "", true
	}
	if !workspaceMember(tree.Text("Cargo.toml"), strings.TrimSuffix(dir, "/")) {
		return "", "", false
	}
	if m := cargoNameRe.FindStringSubmatch(packageSection(tree.Text(manifest))); m != nil {
		pkg = m[1]
	}
	return dir, pkg, true
}

// crateOf finds the crate a file belongs to: the nearest Cargo.toml above
// it whose package holds the file (a target folder, build.rs, or a path
// its manifest names). rust-lang/log keeps a second package in tests/
// (tests/Cargo.toml) while tests/macros.rs is the root package's test.
// dir is the crate's folder with a trailing slash ("" at the root).
func crateOf(tree *envgen.Tree, file string) (dir, manifest string) {
	for d := path.Dir(file); ; d = path.Dir(d) {
		prefix := d + "/"
		if d == "." {
			prefix = ""
		}
		if tree.Has(prefix + "Cargo.toml") {
			if prefix != "" && crateHolds(tree.Text(prefix+"Cargo.toml"), strings.TrimPrefix(file, prefix)) {
				return prefix, prefix + "Cargo.toml"
			}
			if prefix == "" && (strings.Contains(tree.Text("Cargo.toml"), "[package]") || !strings.Contains(tree.Text("Cargo.toml"), "[workspace]")) {
				return prefix, prefix + "Cargo.toml"
			}
		}
		if d == "." || d == "/" {
			return "", ""
		}
	}
}

var (
	workspaceMembersRe = regexp.MustCompile(`(?s)\[workspace\].*?\bmembers\s*=\s*\[([^\]]*)\]`)
	quotedRe           = regexp.MustCompile(`"([^"]+)"`)
	pathDepRe          = regexp.MustCompile(`\bpath\s*=\s*"([^"]+)"`)
)

// workspaceMember reports whether the root manifest's [workspace] members
// (globs allowed) take in the package folder dir; a package outside them
// cannot be named with -p from the root.
func workspaceMember(root, dir string) bool {
	if !strings.Contains(root, "[workspace]") {
		return false
	}
	var patterns []string
	if m := workspaceMembersRe.FindStringSubmatch(root); m != nil {
		for _, q := range quotedRe.FindAllStringSubmatch(m[1], -1) {
			patterns = append(patterns, q[1])
		}
	}
	// The root package's path dependencies are members too.
	for _, m := range pathDepRe.FindAllStringSubmatch(root, -1) {
		patterns = append(patterns, m[1])
	}
	for _, p := range patterns {
		if ok, _ := path.Match(path.Clean(p), dir); ok {
			return true
		}
	}
	return false
}

// cargoPathRe reads a manifest's target paths (path = "...", build = "...").
var cargoPathRe = regexp.MustCompile(`(?m)^\s*(?:path|build)\s*=\s*"([^"]+)"`)

// crateHolds reports whether a package's targets include rel (a path
// relative to its folder): Cargo's target folders, build.rs, or a path
// the manifest names.
func crateHolds(manifest, rel string) bool {
	for _, d := range []string{"src/", "tests/", "benches/", "examples/"} {
		if strings.HasPrefix(rel, d) {
			return true
		}
	}
	if rel == "build.rs" {
		return true
	}
	for _, m := range cargoPathRe.FindAllStringSubmatch(manifest, -1) {
		p := path.Clean(m[1])
		if rel == p || strings.HasPrefix(rel, path.Dir(p)+"/") && path.Dir(p) != "." {
			return true
		}
	}
	return false
}

// rootPackage is the root manifest's package name ("" for a virtual
// workspace).
func rootPackage(tree *envgen.Tree) string {
	if m := cargoNameRe.FindStringSubmatch(packageSection(tree.Text("Cargo.toml"))); m != nil {
		return m[1]
	}
	return ""
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

var (
	cfgStartRe     = regexp.MustCompile(`#!?\[cfg\(|\bcfg!\(`)
	cfgTokenRe     = regexp.MustCompile(`^\s*(?:([A-Za-z_][A-Za-z0-9_]*)|"((?:[^"\\]|\\.)*)"|(\S))`)
	featureKeyRe   = regexp.MustCompile(`(?m)^\s*"?([A-Za-z0-9_.-]+)"?\s*=`)
	optionalDepRe  = regexp.MustCompile(`(?m)^\s*([A-Za-z0-9_-]+)\s*=\s*\{[^}\n]*\boptional\s*=\s*true`)
	sectionStartRe = regexp.MustCompile(`(?m)^\s*\[`)
)

// rustTestFeatures are the crate features the PR's test files are gated
// on that their crate declares: rust-lang/log's new tests sit behind
// #[cfg(feature = "kv_unstable")], and a plain cargo test compiles them
// out, so the PR's tests never ran. Gates under not(...) are skipped, and
// of an any(...) only its first feature is taken (log's max_level_*
// features exclude each other). A crate other than the root's is named
// as crate/feature.
func rustTestFeatures(tree *envgen.Tree, files []string) []string {
	set := map[string]bool{}
	var out []string
	// With a member package selected too, a root feature is named as
	// root/feature: cargo refuses a bare feature a selected package lacks
	// ("the package 'thiserror_no_std_test' does not contain this feature: std").
	rootPrefix := ""
	for _, f := range files {
		if dir, pkg, ok := rustTestCrate(tree, f); ok && dir != "" && pkg != "" && path.Ext(f) == ".rs" && rootPackage(tree) != "" {
			rootPrefix = rootPackage(tree) + "/"
		}
	}
	for _, f := range files {
		if path.Ext(f) != ".rs" {
			continue
		}
		dir, pkg, ok := rustTestCrate(tree, f)
		if !ok || dir != "" && pkg == "" {
			continue
		}
		declared := crateFeatures(tree.Text(dir + "Cargo.toml"))
		prefix := rootPrefix
		if pkg != "" {
			prefix = pkg + "/"
		}
		for _, feature := range cfgFeatures(tree.Text(f)) {
			if declared[feature] && !set[prefix+feature] {
				set[prefix+feature] = true
				out = append(out, prefix+feature)
			}
		}
	}
	sort.Strings(out)
	return out
}

// cfgString marks a string literal's token in a cfg predicate.
const cfgString = "\x00str:"

// cfgFeatures reads every cfg(...) predicate in Rust source and returns
// the features that turn code on.
func cfgFeatures(src string) []string {
	var out []string
	for _, loc := range cfgStartRe.FindAllStringIndex(src, -1) {
		// Tokens up to the predicate's closing parenthesis (at most 1000:
		// source is a stranger's): identifiers, cfgString+value, and
		// punctuation (one character each, so never mistaken for a string).
		var toks []string
		rest, depth := src[loc[1]:], 0
		for depth >= 0 && len(toks) < 1000 {
			m := cfgTokenRe.FindStringSubmatch(rest)
			if m == nil {
				break
			}
			rest = rest[len(m[0]):]
			switch {
			case m[1] != "":
				toks = append(toks, m[1])
			case m[3] == "":
				toks = append(toks, cfgString+m[2])
			default:
				toks = append(toks, m[3])
				if m[3] == "(" {
					depth++
				} else if m[3] == ")" {
					depth--
				}
			}
		}
		i := 0
		out = append(out, cfgPredicate(toks, &i)...)
	}
	return out
}

// cfgPredicate parses one predicate at toks[*i]: feature = "x", name,
// or all/any/not(list); it returns the features that enable it.
func cfgPredicate(toks []string, i *int) []string {
	if *i >= len(toks) {
		return nil
	}
	name := toks[*i]
	*i++
	if *i+1 < len(toks) && toks[*i] == "=" && strings.HasPrefix(toks[*i+1], cfgString) {
		value := toks[*i+1][len(cfgString):]
		*i += 2
		if name == "feature" {
			return []string{value}
		}
		return nil
	}
	if *i >= len(toks) || toks[*i] != "(" {
		return nil
	}
	*i++
	var out []string
	first := true
	for *i < len(toks) && toks[*i] != ")" {
		if toks[*i] == "," {
			*i++
			continue
		}
		got := cfgPredicate(toks, i)
		switch {
		case name == "all":
			out = append(out, got...)
		case name == "any" && first && len(got) > 0:
			out, first = got, false
		}
	}
	*i++ // the closing parenthesis
	return out
}

// crateFeatures are a manifest's [features] keys and optional
// dependencies (each an implicit feature).
func crateFeatures(manifest string) map[string]bool {
	out := map[string]bool{}
	if i := strings.Index(manifest, "[features]"); i >= 0 {
		body := manifest[i+len("[features]"):]
		if j := sectionStartRe.FindStringIndex(body); j != nil {
			body = body[:j[0]]
		}
		for _, m := range featureKeyRe.FindAllStringSubmatch(body, -1) {
			out[m[1]] = true
		}
	}
	for _, m := range optionalDepRe.FindAllStringSubmatch(manifest, -1) {
		out[m[1]] = true
	}
	return out
}

// packageArgs are the -p arguments of a cargo test argument list.
func packageArgs(args []string) []string {
	var out []string
	for _, a := range args {
		if strings.HasPrefix(a, "-p ") {
			out = append(out, a)
		}
	}
	return out
}
