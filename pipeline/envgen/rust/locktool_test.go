package rust

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"curate/pipeline/envgen"
)

// dtolnay/anyhow at 1dbe1862 has no Cargo.lock and declares rust-version
// 1.68; cargo's MSRV-aware fallback found no trybuild fitting 1.68, took
// the newest (1.0.122, which needs Rust 1.88) and the image build stopped:
// "rustc 1.85.0 is not supported by the following package". curate-cargo-lock
// resolves with every rust-version set to the image's rustc (run by hand in
// that image: "Locking 39 packages to latest Rust 1.85.0 compatible
// versions", trybuild 1.0.119), then puts the manifests back. Here with a
// stand-in rustc and cargo: the lock is written while the manifests say
// 1.85.0, and they read as before afterwards, also when cargo fails.
func TestCargoLockResolvesForTheImagesRustc(t *testing.T) {
	for _, cargoExit := range []int{0, 101} {
		dir := t.TempDir()
		bin := filepath.Join(dir, "bin")
		crate := filepath.Join(dir, "crate")
		root := "[package]\nname = \"anyhow\"\nrust-version = \"1.68\"\n\n[dev-dependencies]\ntrybuild = \"1.0.108\"\n"
		member := "[package]\nname = \"m\"\n  rust-version   =  \"1.70\"  # the member's\nedition.workspace = true\n"
		for name, body := range map[string]string{
			"bin/rustc":          "#!/bin/sh\necho 'rustc 1.85.0 (4d91de4e4 2025-02-17)'\n",
			"bin/cargo":          "#!/bin/sh\ncat Cargo.toml m/Cargo.toml > seen.txt\ntouch Cargo.lock\nexit " + map[int]string{0: "0", 101: "101"}[cargoExit] + "\n",
			"crate/Cargo.toml":   root,
			"crate/m/Cargo.toml": member,
		} {
			p := filepath.Join(dir, name)
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(body), 0o755); err != nil {
				t.Fatal(err)
			}
		}
		cmd := exec.Command("sh", "-c", cargoLockSh)
		cmd.Dir = crate
		cmd.Env = append(os.Environ(), "PATH="+bin+":"+os.Getenv("PATH"))
		out, err := cmd.CombinedOutput()
		if (err == nil) != (cargoExit == 0) {
			t.Errorf("cargo exit %d: err %v\n%s", cargoExit, err, out)
		}
		seen, _ := os.ReadFile(filepath.Join(crate, "seen.txt"))
		if strings.Count(string(seen), `"1.85.0"`) != 2 || strings.Contains(string(seen), "1.68") {
			t.Errorf("manifests while cargo resolved:\n%s", seen)
		}
		for name, want := range map[string]string{"Cargo.toml": root, "m/Cargo.toml": member} {
			if got, _ := os.ReadFile(filepath.Join(crate, name)); string(got) != want {
				t.Errorf("cargo exit %d: %s not put back:\n%s", cargoExit, name, got)
			}
		}
	}
	// The plan writes the lock first when the crate has none, and only then.
	tree := envgen.MapTree("dtolnay/anyhow", map[string]string{"Cargo.toml": "[package]\nname = \"anyhow\"\nrust-version = \"1.68\"\n", "tests/t.rs": "#[test]\nfn t() {}\n"})
	p, err := envgen.LanguageFor("rust").Plan(tree, envgen.Tests{Files: []string{"tests/t.rs"}})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(p.Install[0], "curate-cargo-lock") || p.Tools["curate-cargo-lock"] == "" {
		t.Errorf("install %v", p.Install)
	}
	tree = envgen.MapTree("o/r", map[string]string{"Cargo.toml": "[package]\nname = \"r\"\n", "Cargo.lock": "", "tests/t.rs": ""})
	if p, _ := envgen.LanguageFor("rust").Plan(tree, envgen.Tests{Files: []string{"tests/t.rs"}}); strings.Contains(strings.Join(p.Install, "\n"), "curate-cargo-lock") {
		t.Errorf("a crate with Cargo.lock gets a new one: %v", p.Install)
	}
}
