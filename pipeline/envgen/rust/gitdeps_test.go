package rust

import (
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"curate/pipeline/envgen"
)

// The argument parser's PR 1609 (merge fc359e3c, 2019-12-22) names
// `clap_derive = { git = "https://github.com/<owner>/clap_derive", optional =
// true }`, a crate with no crates.io release until 2020-05-03. Every run
// stopped at "failed to get `clap_derive` as a dependency of package `clap
// v3.0.0-beta.1 (/app)`" (deps_unreachable): the build reaches crates.io, not
// GitHub, and the image's cargo checks out no git source at all ("invalid
// version 0 on git_proxy_options", from a file:// repository too).
// curate-cargo-git makes each git dependency a crates.io one: its own version
// requirement, else the release nearest the revision's date. Here against a
// stand-in index.
func TestGitDependencyFromCratesIOAsOfTheRevisionsDate(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Fatal("python3 is needed: the task images run curate-cargo-git with it")
	}
	index := map[string]string{
		"/cl/ap/clap_derive": `{"name":"clap_derive","vers":"3.0.0-beta.1","yanked":false,"pubtime":"2020-05-03T07:51:45Z"}
{"name":"clap_derive","vers":"3.0.0-beta.2","yanked":false,"pubtime":"2020-09-19T18:42:00Z"}`,
		"/he/lp/helper": `{"name":"helper","vers":"0.1.0","yanked":false,"pubtime":"2018-01-01T00:00:00Z"}
{"name":"helper","vers":"0.2.0","yanked":false,"pubtime":"2019-06-01T00:00:00Z"}
{"name":"helper","vers":"0.2.1","yanked":true,"pubtime":"2019-07-01T00:00:00Z"}
{"name":"helper","vers":"0.3.0","yanked":false,"pubtime":"2020-01-01T00:00:00Z"}`,
		"/3/r/rnd": `{"name":"rnd","vers":"0.5.0","yanked":false,"pubtime":"2019-01-01T00:00:00Z"}`,
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if body, ok := index[r.URL.Path]; ok {
			_, _ = w.Write([]byte(body))
			return
		}
		http.NotFound(w, r)
	}))
	defer srv.Close()

	manifest := `[package]
name = "clap"

[dependencies]
bitflags = "1.2"
clap_derive = { git = "https://github.com/o/clap_derive", optional = true }
other = { version = "0.3", git = "https://github.com/o/other", tag = "v1" }
gone = { git = "https://github.com/o/gone" }

[dev-dependencies.helper]
git = "https://github.com/o/helper"
branch = "main"
features = ["x"]

[target.'cfg(unix)'.dependencies]
random = { package = "rnd", git = "https://github.com/o/rnd", rev = "0123abc", default-features = false }
`
	want := `[package]
name = "clap"

[dependencies]
bitflags = "1.2"
clap_derive = { version = "=3.0.0-beta.1", optional = true }
other = { version = "0.3" }
gone = { git = "https://github.com/o/gone" }

[dev-dependencies.helper]
version = "=0.2.0"
features = ["x"]

[target.'cfg(unix)'.dependencies]
random = { version = "=0.5.0", package = "rnd", default-features = false }
`
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "m"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, body := range map[string]string{"Cargo.toml": manifest, "m/Cargo.toml": "[package]\nname = \"m\"\n", "tool": cargoGitPy} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command("python3", "tool", "2019-12-22T10:00:00Z")
	cmd.Dir, cmd.Env = dir, append(os.Environ(), "CURATE_CRATES_INDEX="+srv.URL)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("curate-cargo-git: %v\n%s", err, out)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "Cargo.toml")); string(got) != want {
		t.Errorf("manifest after:\n%s\nwant:\n%s", got, want)
	}
	for _, said := range []string{
		"git dependency clap_derive (https://github.com/o/clap_derive) taken from crates.io: clap_derive 3.0.0-beta.1, published 2020-05-03 (the release nearest the revision's date, 2019-12-22)",
		"git dependency other (https://github.com/o/other) taken from crates.io at its own requirement 0.3",
		"git dependency gone (https://github.com/o/gone) left as it is",
	} {
		if !strings.Contains(string(out), said) {
			t.Errorf("build log lacks %q:\n%s", said, out)
		}
	}

	// The plan runs it first, with the revision's date, only when a
	// manifest names a git dependency.
	tree := envgen.MapTree("o/clap", map[string]string{"Cargo.toml": manifest, "tests/t.rs": "#[test]\nfn t() {}\n"})
	tree.Date = time.Date(2019, 12, 22, 10, 0, 0, 0, time.UTC)
	p, err := envgen.LanguageFor("rust").Plan(tree, envgen.Tests{Files: []string{"tests/t.rs"}})
	if err != nil {
		t.Fatal(err)
	}
	if p.Install[0] != "curate-cargo-git 2019-12-22T10:00:00Z" || p.Tools["curate-cargo-git"] == "" {
		t.Errorf("install %v", p.Install)
	}
	tree = envgen.MapTree("o/r", map[string]string{"Cargo.toml": "[package]\nname = \"r\"\n", "tests/t.rs": ""})
	if p, _ := envgen.LanguageFor("rust").Plan(tree, envgen.Tests{Files: []string{"tests/t.rs"}}); p.Tools["curate-cargo-git"] != "" {
		t.Errorf("a crate without git dependencies gets curate-cargo-git: %v", p.Install)
	}
}
