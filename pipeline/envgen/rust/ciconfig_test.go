package rust

import (
	"testing"

	"curate/pipeline/envgen"
)

// The project declares no version; its CI's setup step decides, with the
// workflow named as the source (pipeline/envgen/ciconfig reads it).
func TestCIVersionDecides(t *testing.T) {
	const want = "toolchain: rust 1.96 from Debian 12 rustc-web/cargo-web (bookworm-security; the crate names no rust-version); .github/workflows/ci.yml job test rust-toolchain 1.80 (CI's toolchain; Debian's is the only rustc)"
	p, err := envgen.LanguageFor("rust").Plan(envgen.MapTree("o/r", map[string]string{"Cargo.toml": "[package]\nname = \"x\"\nversion = \"0.1.0\"\n", "tests/a.rs": "#[test]\nfn a() {}\n",
		".github/workflows/ci.yml": "jobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: dtolnay/rust-toolchain@1.80\n      - run: cargo test\n"}), envgen.Tests{Files: []string{"tests/a.rs"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Decisions) != 1 || p.Decisions[0].String() != want {
		t.Errorf("decisions %v, want %q", p.Decisions, want)
	}
}
