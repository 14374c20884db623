package parse

import (
	"os"
	"path/filepath"
	"testing"
)

// tokio-rs/bytes' cargo test output on the buggy state (trimmed),
// captured from this project's run: ids carry the test target, and
// "- should panic" is not part of the name.
func TestCargoRealRun(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "cargo-bytes.txt"))
	if err != nil {
		t.Fatal(err)
	}
	r := ForFormat("cargo", data)
	want := map[string]Status{
		"tests/test_bytes.rs::truncate_to_zero_releases_shared_reference": Failed,
		"tests/test_bytes.rs::advance_past_len":                           Passed,
		"tests/test_bytes.rs::vec_is_unique":                              Passed,
	}
	if !r.Ran || len(r.Tests) != 20 {
		t.Errorf("ran %v with %d tests: %v", r.Ran, len(r.Tests), r.Tests)
	}
	for id, s := range want {
		if r.Tests[id] != s {
			t.Errorf("%s: %q, want %q", id, r.Tests[id], s)
		}
	}
}

func FuzzCargoRealRun(f *testing.F) { fuzzParser(f, Cargo, "cargo-bytes.txt") }

// Test targets with `harness = false` (rust-cli/env_logger's tests/*.rs,
// each its own main()) print no test lines, so every run read "the runner
// passed but reported no tests" (nop_not_run, 5 of its 8 newest PRs).
// Each such target is one test, failed when its process did not exit
// successfully. The log is cargo 1.85's real output on a crate of that
// shape, run in env_logger's image.
func TestCargoHarnessFalseTargets(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "cargo-harness-false.txt"))
	if err != nil {
		t.Fatal(err)
	}
	r := ForFormat("cargo", data)
	want := map[string]Status{
		"src/lib.rs::t::unit_ok": Passed,
		"tests/plain.rs::plain":  Passed,
		"tests/log-in-log.rs":    Passed,
		"tests/regexp_filter.rs": Failed,
	}
	if !r.Ran || len(r.Tests) != len(want) {
		t.Errorf("ran %v with %d tests: %v", r.Ran, len(r.Tests), r.Tests)
	}
	for id, s := range want {
		if r.Tests[id] != s {
			t.Errorf("%s: %q, want %q", id, r.Tests[id], s)
		}
	}
	// A harness target that ran no test is not a test of its own.
	if r := Cargo([]byte("     Running tests/a.rs (target/debug/deps/a-0123456789ab)\n\nrunning 0 tests\n\ntest result: ok. 0 passed\n")); len(r.Tests) != 0 {
		t.Errorf("an empty harness target became tests: %v", r.Tests)
	}
}

func FuzzCargoHarnessFalse(f *testing.F) { fuzzParser(f, Cargo, "cargo-harness-false.txt") }
