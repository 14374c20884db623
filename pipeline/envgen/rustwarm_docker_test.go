package envgen_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"regexp"
	"testing"

	"curate/internal/fixtures"
	"curate/internal/testenv"
	"curate/pipeline"
	"curate/pipeline/envgen"
	"curate/pipeline/source/gitmine"
	"curate/pipeline/validate"
)

// registryCompileRe is cargo's line for compiling a crate from the
// registry (a path crate's line names its folder in parentheses).
var registryCompileRe = regexp.MustCompile(`(?m)\bCompiling [A-Za-z0-9_-]+ v[0-9][^ (\n]*$`)

// TestRustRunsCompileNoDependency: the runs of a Rust task whose new
// test is gated on a feature that turns an optional dependency on, and
// whose trybuild test compiles a scratch crate with the dev-dependencies,
// compile no crate from the registry: the image compiled them all with
// the run's features and ran trybuild once (issue 53: each run compiled
// them again).
func TestRustRunsCompileNoDependency(t *testing.T) {
	if testing.Short() {
		t.Skip("builds images")
	}
	base := testenv.BaseImage(t)
	g, err := fixtures.NewGit(t.TempDir(), "acme/tally")
	if err != nil {
		t.Fatal(err)
	}
	lib := "pub fn add(a: u32, b: u32) -> u32 {\n    a + b\n}\n\n#[cfg(feature = \"fmt\")]\npub fn show(n: u64) -> String {\n    use std::hash::Hasher;\n    format!(\"{:x}\", fnv::FnvHasher::with_key(%s).finish())\n}\n"
	g.Write(map[string]string{
		"Cargo.toml": "[package]\nname = \"tally\"\nversion = \"0.1.0\"\nedition = \"2021\"\nrust-version = \"1.70\"\n\n" +
			"[features]\nfmt = [\"dep:fnv\"]\n\n[dependencies]\nfnv = { version = \"1\", optional = true }\n\n[dev-dependencies]\ntrybuild = \"1\"\n",
		"src/lib.rs":      fmt.Sprintf(lib, "n + 1"),
		"tests/ui.rs":     "#[test]\nfn ui() {\n    let t = trybuild::TestCases::new();\n    t.pass(\"tests/ui/add.rs\");\n}\n",
		"tests/ui/add.rs": "fn main() {\n    assert_eq!(tally::add(1, 2), 3);\n}\n",
		"README.md":       "# tally\n",
		".gitignore":      "target/\n",
	})
	g.Commit("Initial tally crate")
	g.Branch("show")
	g.Write(map[string]string{
		"src/lib.rs":   fmt.Sprintf(lib, "n"),
		"tests/fmt.rs": "#![cfg(feature = \"fmt\")]\n\n#[test]\nfn shows_the_number() {\n    assert_eq!(tally::show(7), \"7\");\n}\n",
		"tests/ui.rs":  "// The public items compile from outside the crate.\n#[test]\nfn ui() {\n    let t = trybuild::TestCases::new();\n    t.pass(\"tests/ui/add.rs\");\n}\n",
	})
	g.Commit("show prints the number itself")
	g.MergePR(1, "show", "show prints one more than the number", "show(7) is not 7 (the key is one more than the number).\n\nFixes #3")
	if g.Err() != nil {
		t.Fatal(g.Err())
	}
	prs, err := gitmine.Mine(context.Background(), gitmine.Options{Path: g.Dir})
	if err != nil || len(prs) != 1 {
		t.Fatalf("mined %d PRs: %v", len(prs), err)
	}
	task := prs[0].Task("git", g.Dir, nil)
	res, err := envgen.Build(context.Background(), task, t.TempDir(), envgen.Config{Filter: profileFilter(t), BaseImage: base, Network: envgen.HostNetwork(context.Background(), "")})
	if err != nil {
		t.Fatalf("build: %v", err)
	}
	jobs := []validate.Job{{TaskID: task.ID, TaskDir: res.Dir, Digest: res.Digest, Mode: "nop"}, {TaskID: task.ID, TaskDir: res.Dir, Digest: res.Digest, Mode: "oracle"}}
	var built []byte
	for i, run := range dockerValidator(t, "rustwarm").Validate(context.Background(), jobs) {
		log, _ := os.ReadFile(run.LogPath)
		built = append(built, log...)
		if run.Outcome != pipeline.OutcomeOK {
			t.Fatalf("%s: outcome %s (%s)\n%s", jobs[i].Mode, run.Outcome, run.Detail, log)
		}
		if want := float64(i); run.Reward == nil || *run.Reward != want {
			t.Errorf("%s: reward %v, want %v\n%s", jobs[i].Mode, run.Reward, want, log)
		}
		// The run's own part of its log: the first run's also holds the
		// image build.
		_, ran, _ := bytes.Cut(log, []byte("curate: verifier:"))
		if got := registryCompileRe.FindAll(ran, -1); len(got) > 0 {
			t.Errorf("%s: the run compiled %d crates from the registry, the image had compiled them (first: %q)\n%s", jobs[i].Mode, len(got), got[0], log)
		}
		if !regexp.MustCompile(`(?m)^\s+Compiling tally v0\.1\.0 \(/app\)$`).Match(ran) {
			t.Errorf("%s: no compile of the crate itself in the run log: the count above proves nothing\n%s", jobs[i].Mode, log)
		}
	}
	// The build log says what was warmed (the first run built the image).
	for _, want := range []string{"curate: warmed: cargo test --no-run --features 'fmt'", "curate: warmed: trybuild's scratch build (cargo test --offline --no-fail-fast --features 'fmt' --test 'ui': exit 0, "} {
		if !bytes.Contains(built, []byte(want)) {
			t.Errorf("no %q in the image's build log", want)
		}
	}
}
