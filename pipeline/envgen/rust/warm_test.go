package rust

import (
	"curate/pipeline/envgen"
	"strings"
	"testing"
)

// TestRustImageCompilesWithTheTestsFeatures: after the plain compile
// (unchanged: a shared repository image serves runs without features
// too, and it fails the image as before), the image compiles again with
// the --features the test command passes, so a run does not rebuild the
// dependencies those features turn on; that compile never fails the image.
func TestRustImageCompilesWithTheTestsFeatures(t *testing.T) {
	tree := envgen.MapTree("o/r", map[string]string{
		"Cargo.toml": "[package]\nname = \"r\"\n\n[features]\nfmt = [\"itoa\"]\n\n[dependencies]\nitoa = { version = \"1\", optional = true }\n",
		"tests/a.rs": "#![cfg(feature = \"fmt\")]\n#[test]\nfn a() {}\n",
	})
	p, err := envgen.LanguageFor("rust").Plan(tree, envgen.Tests{Files: []string{"tests/a.rs"}})
	if err != nil {
		t.Fatal(err)
	}
	n := len(p.Install)
	if n < 2 || p.Install[n-2] != envgen.RegistryStep(CratesIO, CargoMissing, "cargo test --no-run") {
		t.Fatalf("install %q: want the plain compile through curate-step before the featured one", p.Install)
	}
	warm := p.Install[n-1]
	for _, want := range []string{"cargo test --no-run --features 'fmt' >/tmp/curate-warm.log 2>&1 && echo 'curate: warmed: ", " || { tail -n 20 /tmp/curate-warm.log; echo 'curate: note: "} {
		if !strings.Contains(warm, want) {
			t.Errorf("featured compile %q: no %q", warm, want)
		}
	}
	if strings.Contains(warm, "curate-step") {
		t.Errorf("featured compile %q goes through curate-step, whose failure fails the image", warm)
	}
	if !strings.Contains(p.Test.Command, " --features 'fmt' ") {
		t.Errorf("test command %q", p.Test.Command)
	}
}

// TestRustTrybuildTargetsRunAtImageBuild: a test target of the run that
// drives trybuild runs once at image build with the run's packages and
// features, so its scratch crate is compiled there; a run that does not
// run that target warms nothing.
func TestRustTrybuildTargetsRunAtImageBuild(t *testing.T) {
	files := map[string]string{
		"Cargo.toml":            "[package]\nname = \"r\"\n\n[features]\nx = []\n\n[dev-dependencies]\ntrybuild = \"1\"\n",
		"tests/compile.rs":      "#[test]\nfn ui() {\n    let t = trybuild::TestCases::new();\n    t.pass(\"tests/ui/*.rs\");\n}\n",
		"tests/basic.rs":        "#![cfg(feature = \"x\")]\n#[test]\nfn b() {}\n",
		"tests/ui/ok.rs":        "fn main() {}\n",
		"src/lib.rs":            "",
		"tests/support/util.rs": "// trybuild:: helpers\n",
	}
	plan := func(tests ...string) *envgen.Plan {
		p, err := envgen.LanguageFor("rust").Plan(envgen.MapTree("o/r", files), envgen.Tests{Files: tests})
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	warm := plan("tests/compile.rs", "tests/basic.rs").Install
	step := warm[len(warm)-1]
	for _, want := range []string{"CARGO_NET_OFFLINE=true timeout 1200 cargo test --offline --no-fail-fast --features 'x' --test 'compile' >", "for d in 'wip';", "rm -rf $wip", "; true"} {
		if !strings.Contains(step, want) {
			t.Errorf("warm-up step %q: no %q", step, want)
		}
	}
	for _, tests := range [][]string{{"tests/basic.rs"}, {"src/lib.rs"}} {
		for _, s := range plan(tests...).Install {
			if strings.Contains(s, "trybuild") {
				t.Errorf("tests %v do not run trybuild, yet the image runs it: %q", tests, s)
			}
		}
	}
	// A helper module of the tests: every target runs, trybuild's too.
	if s := plan("tests/support/util.rs").Install; !strings.Contains(s[len(s)-1], "--test 'compile'") {
		t.Errorf("--tests run: no trybuild warm-up in %q", s)
	}
}
