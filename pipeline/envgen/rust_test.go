package envgen

import (
	"strings"
	"testing"

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
	p, err := LanguageFor("rust").Plan(MapTree("tokio-rs/bytes", map[string]string{"Cargo.toml": crate}),
		Tests{Files: []string{"tests/test_bytes.rs", "tests/test_buf.rs", "src/buf/take.rs", "benches/x.txt"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(p.Packages, " "); got != "rustc-web cargo-web" {
		t.Errorf("packages %q", got)
	}
	for _, want := range []string{"--test 'test_bytes'", "--test 'test_buf'", "--lib", "--no-fail-fast", "--offline"} {
		if !strings.Contains(p.Test.Command, want) {
			t.Errorf("test command %q lacks %q", p.Test.Command, want)
		}
	}
	steps := strings.Join(p.Install, "\n")
	if !strings.Contains(steps, "curate-step") || !strings.Contains(steps, " cargo fetch\n") || !strings.HasSuffix(steps, " cargo test --no-run") {
		t.Errorf("install %q: want cargo fetch, then the tests built once", steps)
	}
	if strings.Contains(strings.Join(p.ToolchainSteps, "\n"), "toolchain_mismatch") {
		t.Errorf("rust-version 1.57 is older than Debian's: no mismatch wanted")
	}
	if p.Test.LogFormat != "cargo" {
		t.Errorf("log format %q", p.Test.LogFormat)
	}
	toml, err := TaskTOML(&pipeline.Task{ID: "tokio-rs__bytes-1", Repo: "tokio-rs/bytes", PR: 1}, "rust", nil, p)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(toml), "build_timeout_sec = 1800") {
		t.Errorf("compiling the tests at image build needs more than the default build timeout:\n%s", toml)
	}
}

func TestRustVersionTooNew(t *testing.T) {
	for name, files := range map[string]map[string]string{
		"rust-version":   {"Cargo.toml": "[package]\nname = \"x\"\nrust-version = \"1.99\"\n"},
		"rust-toolchain": {"Cargo.toml": "[package]\nname = \"x\"\n", "rust-toolchain.toml": "[toolchain]\nchannel = \"1.120.0\"\n"},
	} {
		p, err := LanguageFor("rust").Plan(MapTree("o/r", files), Tests{Files: []string{"tests/a.rs"}})
		if err != nil {
			t.Fatal(err)
		}
		steps := strings.Join(p.ToolchainSteps, "\n")
		if !strings.Contains(steps, "curate: toolchain_mismatch: ") || !strings.Contains(steps, "present rustc 1.96") {
			t.Errorf("%s: want a toolchain_mismatch evidence line naming both versions, got %q", name, steps)
		}
	}
}

func TestRustWorkspaceTargets(t *testing.T) {
	tree := MapTree("o/r", map[string]string{
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
}
