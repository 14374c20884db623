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
