package envgen

import (
	"path"
	"regexp"
	"strings"
)

// rust plans Rust tasks: cargo fetch at build time, cargo test offline.
type rust struct{}

func init() { register(rust{}) }

func (rust) Name() string { return "rust" }

var rustTestRe = regexp.MustCompile(`#\[(?:tokio::)?test\][\s\S]{0,200}?fn\s+(\w+)`)

func (rust) TestNames(_, content string) []string { return namesMatching(rustTestRe, content) }

func (rust) Plan(tree *Tree, tests Tests) (*Plan, error) {
	p := &Plan{Language: "rust", Toolchain: Toolchain{Name: "rust", Why: "Cargo.toml"}, Packages: []string{"cargo"}}
	p.Install = []string{`cargo fetch`}
	var targets []string
	for _, f := range tests.Files {
		if strings.HasPrefix(f, "tests/") && strings.Count(f, "/") == 1 && strings.HasSuffix(f, ".rs") {
			targets = append(targets, "--test "+shellQuote(strings.TrimSuffix(path.Base(f), ".rs")))
		}
	}
	p.Test = Runner{
		Command:   "cargo test --offline " + strings.Join(targets, " ") + " 2>&1 | tee /logs/verifier/cargo-test.txt; test ${PIPESTATUS[0]} -eq 0",
		Check:     `grep -Eq '^test .* \.\.\. ok$' /logs/verifier/cargo-test.txt`,
		LogFormat: "cargo",
	}
	return p, nil
}
