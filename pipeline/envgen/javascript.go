package envgen

import "regexp"

// javascript plans JavaScript and TypeScript tasks.
type javascript struct{ name string }

func init() {
	register(javascript{"javascript"})
	register(javascript{"typescript"})
}

func (j javascript) Name() string { return j.name }

var jsTestRe = regexp.MustCompile(`\b(?:it|test)\(\s*['"]([^'"]+)['"]`)

func (javascript) TestNames(_, content string) []string { return namesMatching(jsTestRe, content) }

func (j javascript) Plan(tree *Tree, tests Tests) (*Plan, error) {
	p := &Plan{Language: j.name, Toolchain: Toolchain{Name: "node", Why: "package.json"}, Packages: []string{"nodejs", "npm"}}
	if tree.Has("package.json") {
		p.Install = []string{`npm ci --no-audit --no-fund || npm install --no-audit --no-fund`}
	}
	p.Test = Runner{
		Command:   "npx --no-install jest --ci --json --outputFile=/logs/verifier/jest.json " + quoteAll(tests.Files),
		Check:     `grep -q '"numPassedTests":[1-9]' /logs/verifier/jest.json`,
		LogFormat: "jest",
	}
	return p, nil
}
