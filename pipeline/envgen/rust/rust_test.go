package rust

import (
	"context"
	"curate/pipeline/envgen"
	"curate/pipeline/envgen/envgentest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"curate/internal/fixtures"
	"curate/pipeline"
)

func TestRustPlan(t *testing.T) {
	crate := `[package]
name = "bytes"
version = "1.6.0"
edition = "2021"
rust-version = "1.57"

[dependencies]
serde = { version = "1.0", optional = true }
`
	p, err := envgen.LanguageFor("rust").Plan(envgen.MapTree("tokio-rs/bytes", map[string]string{"Cargo.toml": crate}),
		envgen.Tests{Files: []string{"tests/test_bytes.rs", "tests/test_buf.rs", "src/buf/take.rs", "benches/x.txt"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(p.Packages, " "); got != "rustc-web cargo-web" {
		t.Errorf("packages %q", got)
	}
	// CARGO_NET_OFFLINE=true reaches cargo started by a test: a snapshot
	// tool's functional tests (mitsuhiko/insta at 7f23d2e4, PR 924) run
	// `cargo metadata` on scratch crates and failed in both states with
	// "unable to update registry `crates-io` ... Could not resolve host:
	// index.crates.io" in the offline verifier.
	for _, want := range []string{"--test 'test_bytes'", "--test 'test_buf'", "--lib", "--no-fail-fast", "--offline", "CARGO_NET_OFFLINE=true cargo test"} {
		if !strings.Contains(p.Test.Command, want) {
			t.Errorf("test command %q lacks %q", p.Test.Command, want)
		}
	}
	steps := strings.Join(p.Install, "\n")
	if !strings.Contains(steps, "curate-step") || !strings.Contains(steps, " cargo fetch\n") || !strings.HasSuffix(steps, " cargo test --no-run") {
		t.Errorf("install %q: want cargo fetch, then the tests built once", steps)
	}
	if out, err := runWithRustc(t, "1.85.0", p.ToolchainSteps); err != nil {
		t.Errorf("rust-version 1.57 is older than the image's rustc 1.85: no mismatch wanted, got %v: %s", err, out)
	}
	env := strings.Join(p.Env, "\n")
	for _, want := range []string{"CARGO_RESOLVER_INCOMPATIBLE_RUST_VERSIONS=fallback", "RUSTFLAGS=--cap-lints warn", "RUSTDOCFLAGS=--cap-lints warn"} {
		if !strings.Contains(env, want) {
			t.Errorf("env lacks %s:\n%s", want, env)
		}
	}
	if len(p.Decisions) != 1 || p.Decisions[0].Tool != "rust" || !strings.Contains(p.Decisions[0].Source, "Cargo.toml rust-version 1.57") {
		t.Errorf("decisions %+v: want rust with its source, Cargo.toml rust-version 1.57", p.Decisions)
	}
	if p.Test.LogFormat != "cargo" {
		t.Errorf("log format %q", p.Test.LogFormat)
	}
	toml, err := envgen.TaskTOML(&pipeline.Task{ID: "tokio-rs__bytes-1", Repo: "tokio-rs/bytes", PR: 1}, "rust", nil, p)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(toml), "build_timeout_sec = 1800") {
		t.Errorf("compiling the tests at image build needs more than the default build timeout:\n%s", toml)
	}
}

// TestRustVersionTooNew runs the toolchain step against a stand-in rustc:
// the crate without Cargo.lock had rustc 1.85 in an image whose
// base read only bookworm main, and the old evidence read "the crate
// wants rustc , the image has 1.85.0" while claiming Debian had 1.96. The
// step names the wanted version, its source and the rustc really there.
func TestRustVersionTooNew(t *testing.T) {
	for name, c := range map[string]struct {
		files map[string]string
		want  string
	}{
		"rust-version":   {map[string]string{"Cargo.toml": "[package]\nname = \"x\"\nrust-version = \"1.88\"\n"}, "Cargo.toml rust-version 1.88 needs rustc 1.88 or newer; the image has rustc 1.85.0"},
		"workspace":      {map[string]string{"Cargo.toml": "[workspace]\nmembers = [\"a\"]\n\n[workspace.package]\nrust-version = \"1.88\"\n"}, "needs rustc 1.88 or newer; the image has rustc 1.85.0"},
		"rust-toolchain": {map[string]string{"Cargo.toml": "[package]\nname = \"x\"\n", "rust-toolchain.toml": "[toolchain]\nchannel = \"1.120.0\"\n"}, "rust-toolchain.toml channel 1.120.0 needs rustc 1.120.0 or newer; the image has rustc 1.85.0"},
	} {
		p, err := envgen.LanguageFor("rust").Plan(envgen.MapTree("o/r", c.files), envgen.Tests{Files: []string{"tests/a.rs"}})
		if err != nil {
			t.Fatal(err)
		}
		out, err := runWithRustc(t, "1.85.0", p.ToolchainSteps)
		if err == nil || !strings.Contains(out, "curate: toolchain_mismatch: ") || !strings.Contains(out, c.want) {
			t.Errorf("%s: want a failing step whose evidence says %q, got %v: %s", name, c.want, err, out)
		}
		if out, err := runWithRustc(t, "1.120.1", p.ToolchainSteps); err != nil {
			t.Errorf("%s: rustc 1.120.1 is new enough, got %v: %s", name, err, out)
		}
	}
}

// runWithRustc runs toolchain steps with stand-ins for rustc and cargo
// that report version v.
func runWithRustc(t *testing.T, v string, steps []string) (string, error) {
	t.Helper()
	dir := t.TempDir()
	for name, line := range map[string]string{"rustc": "rustc " + v + " (built from a source tarball)", "cargo": "cargo " + v} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("#!/bin/sh\necho '"+line+"'\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command("bash", "-c", strings.Join(steps, " && "))
	cmd.Env = append(os.Environ(), "PATH="+dir+":"+os.Getenv("PATH"))
	out, err := cmd.CombinedOutput()
	return string(out), err
}

func TestRustWorkspaceTargets(t *testing.T) {
	tree := envgen.MapTree("o/r", map[string]string{
		"Cargo.toml":             "[workspace]\nmembers = [\"crates/*\"]\n",
		"crates/core/Cargo.toml": "[package]\nname = \"acme-core\"\n\n[dependencies]\nname = \"decoy\"\n",
		"crates/cli/Cargo.toml":  "[package]\nname = \"acme-cli\"\n",
	})
	got := strings.Join(rustTestArgs(tree, []string{"crates/core/tests/parse.rs", "crates/cli/src/bin/main.rs", "crates/core/tests/common/mod.rs", "crates/core/tests/util/helpers.rs"}), " ")
	// A helper module (tests/util/helpers.rs) belongs to no single target:
	// every test target runs, so the single --test filters are dropped.
	want := "-p 'acme-cli' -p 'acme-core' --bins --tests"
	if got != want {
		t.Errorf("args %q, want %q", got, want)
	}
	if got := strings.Join(rustTestArgs(tree, []string{"crates/core/tests/parse.rs"}), " "); got != "-p 'acme-core' --test 'parse'" {
		t.Errorf("one test file: %q", got)
	}
	// A root package's path dependency is a member without being listed.
	tree = envgen.MapTree("o/r", map[string]string{
		"Cargo.toml":        "[package]\nname = \"acme\"\n\n[dependencies]\nacme-macros = { path = \"macros\" }\n\n[workspace]\n",
		"macros/Cargo.toml": "[package]\nname = \"acme-macros\"\n",
	})
	if got := strings.Join(rustTestArgs(tree, []string{"macros/tests/expand.rs"}), " "); got != "-p 'acme-macros' --test 'expand'" {
		t.Errorf("a path dependency's test: %q", got)
	}
}

// rust-lang/log: tests/Cargo.toml is a second package ("integration",
// its sources in tests/src/), yet tests/integration.rs and tests/macros.rs
// are the root package's test targets; `-p integration` made every PR
// that touched them a compile_error.
func TestRustTestFileOfTheRootBesideAPackageInTests(t *testing.T) {
	tree := envgen.MapTree("rust-lang/log", map[string]string{
		"Cargo.toml":       "[package]\nname = \"log\"\n\n[[test]]\nname = \"integration\"\npath = \"tests/integration.rs\"\n",
		"tests/Cargo.toml": "[package]\nname = \"integration\"\nbuild = \"src/build.rs\"\n\n[dependencies.log]\npath = \"..\"\n",
	})
	for files, want := range map[string]string{
		"tests/integration.rs": "--test 'integration'",
		"tests/macros.rs":      "--test 'macros'",
		"tests/src/lib.rs":     "", // package integration is not in the root's workspace: no -p can name it
	} {
		if got := strings.Join(rustTestArgs(tree, []string{files}), " "); got != want {
			t.Errorf("%s: args %q, want %q", files, got, want)
		}
	}
}

// A PR that changes Cargo.toml (rust-lang/log #568 drops a dev-dependency
// the buggy state still asks for) gets a task layer with network and
// cargo fetch after bug.patch; one that does not keeps its layer offline.
func TestRustRefetchAfterBugWhenTheManifestChanges(t *testing.T) {
	fc := envgentest.TestFilter(t)
	dir := t.TempDir()
	g, _ := fixtures.NewGit(dir, "acme/crate")
	g.Write(map[string]string{
		"Cargo.toml": "[package]\nname = \"acme\"\n\n[dev-dependencies]\nrustversion = \"1\"\n",
		"src/lib.rs": "pub fn f() -> i32 { 1 }\n", "tests/f.rs": "#[test]\nfn f() { assert_eq!(acme::f(), 1); }\n"})
	g.Commit("init")
	g.Write(map[string]string{"Cargo.toml": "[package]\nname = \"acme\"\n",
		"src/lib.rs": "pub fn f() -> i32 { 2 }\n", "tests/f.rs": "#[test]\nfn f() { assert_eq!(acme::f(), 2); }\n"})
	g.Commit("Drop rustversion (#1)\n\nFixes #9")
	g.Write(map[string]string{"src/lib.rs": "pub fn f() -> i32 { 3 }\n", "tests/f.rs": "#[test]\nfn f() { assert_eq!(acme::f(), 3); }\n"})
	g.Commit("Three (#2)\n\nFixes #10")
	if g.Err() != nil {
		t.Fatal(g.Err())
	}
	mined := envgentest.MinedTasks(t, dir, fc)
	for pr, network := range map[int]string{1: "(network: install)", 2: "(network: none)"} {
		res, err := envgen.Build(context.Background(), mined[pr], t.TempDir(), envgen.Config{Filter: fc})
		if err != nil {
			t.Fatal(err)
		}
		docker := envgentest.Read(t, res.Dir, "environment/Dockerfile")
		_, layer, _ := strings.Cut(docker, pipeline.TaskLayerMarker)
		if !strings.Contains(layer, network) || !strings.Contains(layer, "cargo fetch --offline") {
			t.Errorf("PR #%d: want a task layer %s that fetches crates after bug.patch:\n%s", pr, network, layer)
		}
	}
}

// rust-lang/log #486: the PR's new test is behind #[cfg(feature =
// "kv_unstable")], so a plain cargo test compiles it out and the PR read
// no_fail_to_pass. Features the crate declares (or optional dependencies)
// that the PR's tests are gated on are turned on; not(...) gates and
// features the crate lacks are left alone.
func TestRustFeaturesOfThePRsTests(t *testing.T) {
	tree := envgen.MapTree("rust-lang/log", map[string]string{
		"Cargo.toml": "[package]\nname = \"log\"\n\n[features]\nstd = []\nmax_level_off = []\nmax_level_error = []\nmax_level_warn = []\nmax_level_info = []\nkv_unstable = [\"value-bag\"]\nkv_unstable_serde = [\"kv_unstable\",\n  \"serde\"]\n\n" +
			"[dependencies]\nserde = { version = \"1.0\", optional = true }\nvalue-bag = { version = \"1.7\", optional = true }\n",
		"tests/macros.rs": "#[test]\n#[cfg(feature = \"kv_unstable\")]\nfn kv() {}\n#[cfg(not(feature = \"std\"))]\nfn nostd() {}\n" +
			"#[cfg(all(feature = \"serde\", feature = \"nope\"))]\nfn s() {}\n" +
			// log's tests/integration.rs: the max_level_* features exclude each other.
			"fn main() {\n    #[cfg(not(any(\n        feature = \"max_level_off\",\n        feature = \"max_level_error\",\n    )))]\n    run();\n" +
			"    if cfg!(any(feature = \"max_level_warn\", feature = \"max_level_info\")) {}\n}\n",
	})
	p, err := envgen.LanguageFor("rust").Plan(tree, envgen.Tests{Files: []string{"tests/macros.rs"}})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(p.Test.Command, "--test 'macros' --features 'kv_unstable,max_level_warn,serde' ") {
		t.Errorf("test command %q, want --features 'kv_unstable,max_level_warn,serde'", p.Test.Command)
	}
	// No gate, no flag.
	tree = envgen.MapTree("o/r", map[string]string{"Cargo.toml": "[package]\nname = \"r\"\n\n[features]\nx = []\n", "tests/a.rs": "#[test]\nfn a() {}\n"})
	if p, _ := envgen.LanguageFor("rust").Plan(tree, envgen.Tests{Files: []string{"tests/a.rs"}}); strings.Contains(p.Test.Command, "--features") {
		t.Errorf("ungated tests got features: %q", p.Test.Command)
	}
}

// dtolnay/thiserror at aa9d91f7: the whole suite's tests sit in the root
// package (tests/*.rs, some behind #[cfg(feature = "std")]) and in the
// tests/no-std member. The command named only the member and a bare
// feature, and cargo stopped before any test ("the package
// 'thiserror_no_std_test' does not contain this feature: std"), so the
// environment check read "no test results in the suite's log". The root
// package is named too, and its feature as root/feature.
func TestRustRootAndMemberTestsTogether(t *testing.T) {
	tree := envgen.MapTree("dtolnay/thiserror", map[string]string{
		"Cargo.toml":              "[package]\nname = \"thiserror\"\n\n[features]\ndefault = [\"std\"]\nstd = []\n\n[workspace]\nmembers = [\"impl\", \"tests/no-std\"]\n",
		"impl/Cargo.toml":         "[package]\nname = \"thiserror-impl\"\n",
		"tests/no-std/Cargo.toml": "[package]\nname = \"thiserror_no_std_test\"\n\n[lib]\npath = \"test.rs\"\n",
		"tests/no-std/test.rs":    "#[test]\nfn t() {}\n",
		"tests/test_path.rs":      "#![cfg(feature = \"std\")]\n#[test]\nfn p() {}\n",
		"tests/test_expr.rs":      "#[test]\nfn e() {}\n",
	})
	p, err := envgen.LanguageFor("rust").Plan(tree, envgen.Tests{Files: []string{"tests/no-std/test.rs", "tests/test_expr.rs", "tests/test_path.rs"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"-p 'thiserror' -p 'thiserror_no_std_test' ", "--features 'thiserror/std'"} {
		if !strings.Contains(p.Test.Command, want) {
			t.Errorf("test command %q lacks %q", p.Test.Command, want)
		}
	}
	// The root's tests alone keep the bare command.
	p, _ = envgen.LanguageFor("rust").Plan(tree, envgen.Tests{Files: []string{"tests/test_path.rs"}})
	if strings.Contains(p.Test.Command, "-p ") || !strings.Contains(p.Test.Command, "--features 'std'") {
		t.Errorf("root-only test command %q", p.Test.Command)
	}
}

// FuzzCfgFeatures: any source, however broken, parses without a panic
// and yields only features that were written as feature = "..." in it.
func FuzzCfgFeatures(f *testing.F) {
	f.Add(`#[cfg(all(feature = "a", not(any(feature = "b", test))))] fn x() {}`)
	f.Add(`#[cfg(any(feature = "c", feature = "d"` + "\n" + `if cfg!(feature = "e") {}`)
	f.Add(`#[cfg(feature = "unterminated)] #[cfg(((((`)
	f.Fuzz(func(t *testing.T, src string) {
		for _, feature := range cfgFeatures(src) {
			if !strings.Contains(src, `"`+feature+`"`) {
				t.Errorf("feature %q is not in the source", feature)
			}
		}
	})
}

// TestRustWorkspaceCompilesOnlyTheTestsPackages: a member the PR's tests
// do not need (a benchmark crate that does not build on this rustc) is
// never compiled at image build; only the -p packages are.
func TestRustWorkspaceCompilesOnlyTheTestsPackages(t *testing.T) {
	tree := envgen.MapTree("o/r", map[string]string{
		"Cargo.toml":             "[workspace]\nmembers = [\"crates/*\", \"bench\"]\n",
		"crates/core/Cargo.toml": "[package]\nname = \"acme-core\"\n",
		"bench/Cargo.toml":       "[package]\nname = \"acme-bench\"\n\n[dependencies]\ncriterion = \"0.5\"\n",
		"crates/core/tests/a.rs": "",
		"bench/benches/parse.rs": "",
		"crates/core/src/lib.rs": "",
	})
	p, err := envgen.LanguageFor("rust").Plan(tree, envgen.Tests{Files: []string{"crates/core/tests/a.rs"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := p.Install[len(p.Install)-1]; !strings.HasSuffix(got, " cargo test --no-run -p 'acme-core'") {
		t.Errorf("compile step %q: want only the tests' package", got)
	}
	if !strings.Contains(p.Test.Command, "-p 'acme-core'") || strings.Contains(p.Test.Command, "acme-bench") {
		t.Errorf("test command %q", p.Test.Command)
	}
}

// TestRustFlagsKeepTheProjects: RUSTFLAGS replaces .cargo/config.toml's
// rustflags, so they are carried over beside --cap-lints.
func TestRustFlagsKeepTheProjects(t *testing.T) {
	tree := envgen.MapTree("o/r", map[string]string{
		"Cargo.toml":         "[package]\nname = \"x\"\n",
		".cargo/config.toml": "[build]\nrustflags = [\"--cfg\", \"tokio_unstable\"]\n",
	})
	p, err := envgen.LanguageFor("rust").Plan(tree, envgen.Tests{Files: []string{"tests/a.rs"}})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.Join(p.Env, "\n"), "RUSTFLAGS=--cap-lints warn --cfg tokio_unstable") {
		t.Errorf("env %v", p.Env)
	}
}

// rust-cli/env_logger's tests are `harness = false` targets ([[test]]
// tables): each prints only cargo's Running line, so test.sh's check
// ("a test ... ok line") read every passing run as "the runner passed but
// reported no tests" (nop_not_run). The check takes their Running lines.
func TestRustHarnessFalseTargetsCheck(t *testing.T) {
	tree := envgen.MapTree("rust-cli/env_logger", map[string]string{
		"Cargo.toml":             "[package]\nname = \"env_logger\"\n\n[[test]]\nname = \"regexp_filter\"\nharness = false\n\n[[test]]\nname = \"log-in-log\"\nharness = false\n\n[[test]]\nname = \"custom\"\npath = \"tests/it's/main.rs\"\nharness = false\n\n[dependencies]\nlog = \"0.4\"\n",
		"tests/regexp_filter.rs": "fn main() {}\n",
		"tests/log-in-log.rs":    "fn main() {}\n",
		"tests/it's/main.rs":     "fn main() {}\n",
		"tests/plain.rs":         "#[test]\nfn p() {}\n",
	})
	p, err := envgen.LanguageFor("rust").Plan(tree, envgen.Tests{Files: []string{"tests/regexp_filter.rs", "tests/it's/main.rs", "tests/plain.rs"}})
	if err != nil {
		t.Fatal(err)
	}
	want := `grep -Eq '^test .* \.\.\. ok$|^ +Running (tests/regexp_filter\.rs|tests/it'\''s/main\.rs) ' /logs/verifier/cargo-test.txt`
	if p.Test.Check != want {
		t.Errorf("check\n%s\nwant\n%s", p.Test.Check, want)
	}
	// No harness = false target among the PR's tests: the usual check.
	p, _ = envgen.LanguageFor("rust").Plan(tree, envgen.Tests{Files: []string{"tests/plain.rs"}})
	if strings.Contains(p.Test.Check, "Running") {
		t.Errorf("check %q", p.Test.Check)
	}
}
