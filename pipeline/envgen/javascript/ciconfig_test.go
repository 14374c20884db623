package javascript

import (
	"testing"

	"curate/pipeline/envgen"
)

// The project declares no version; its CI's setup step decides, with the
// workflow named as the source (pipeline/envgen/ciconfig reads it).
func TestCIVersionDecides(t *testing.T) {
	const want = "toolchain: node 20 from .github/workflows/ci.yml job test setup-node 20"
	p, err := envgen.LanguageFor("javascript").Plan(envgen.MapTree("o/r", map[string]string{"package.json": `{"name":"x","scripts":{"test":"mocha"},"devDependencies":{"mocha":"^10.0.0"}}`, "test/a.test.js": "it('a', () => {})\n",
		".github/workflows/ci.yml": "jobs:\n  test:\n    runs-on: ubuntu-latest\n    strategy:\n      matrix:\n        node: [18, 20]\n    steps:\n      - uses: actions/setup-node@v4\n        with:\n          node-version: ${{ matrix.node }}\n      - run: npm test\n"}), envgen.Tests{Files: []string{"test/a.test.js"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Decisions) != 1 || p.Decisions[0].String() != want {
		t.Errorf("decisions %v, want %q", p.Decisions, want)
	}
}
