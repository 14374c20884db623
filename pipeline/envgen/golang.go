package envgen

import (
	"path"
	"regexp"
	"sort"
	"strings"
)

// golang plans Go tasks.
type golang struct{}

func init() { register(golang{}) }

func (golang) Name() string { return "go" }

var goTestRe = regexp.MustCompile(`(?m)^func\s+(Test\w*)\s*\(\s*\w+\s+\*testing\.T\s*\)`)

func (golang) TestNames(_, content string) []string { return namesMatching(goTestRe, content) }

func (golang) Plan(tree *Tree, tests Tests) (*Plan, error) {
	p := &Plan{Language: "go", Toolchain: Toolchain{Name: "go", Why: "Debian's golang-go"}, Packages: []string{"golang-go"}}
	p.Env = []string{"GOTOOLCHAIN=local", "GOFLAGS=-buildvcs=false"}
	if tree.Has("go.mod") {
		p.Install = []string{"go mod download", "go build ./... || true"}
	}
	pkgs := map[string]bool{}
	for _, f := range tests.Files {
		if d := path.Dir(f); d == "." {
			pkgs["."] = true
		} else {
			pkgs["./"+d] = true
		}
	}
	var list []string
	for p := range pkgs {
		list = append(list, shellQuote(p))
	}
	sort.Strings(list)
	run := ""
	if len(tests.Names) > 0 {
		run = "-run " + shellQuote("^("+strings.Join(tests.Names, "|")+")$") + " "
	}
	p.Test = Runner{
		// The JSON events go to the log too: graders parse it.
		Command:   "go test -json -count=1 " + run + strings.Join(list, " ") + " 2>&1 | tee /logs/verifier/go-test.json; test ${PIPESTATUS[0]} -eq 0",
		Check:     `grep -q '"Action":"pass","Package":"[^"]*","Test"' /logs/verifier/go-test.json`,
		LogFormat: "go",
	}
	return p, nil
}
