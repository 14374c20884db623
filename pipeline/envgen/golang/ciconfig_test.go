package golang

import (
	"testing"

	"curate/pipeline/envgen"
)

// The project declares no version; its CI decides (a version newer than
// the default, so the test holds while the default moves), with the
// workflow named as the source (pipeline/envgen/ciconfig reads it).
func TestCIVersionDecides(t *testing.T) {
	const want = "toolchain: go 1.40.0 from .github/workflows/test.yml job test setup-go"
	p, err := envgen.LanguageFor("go").Plan(envgen.MapTree("o/r", map[string]string{"go.mod": "module example.com/m\n", "m_test.go": "package m\n",
		".github/workflows/test.yml": "jobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/setup-go@v5\n        with: {go-version: 1.40.x}\n      - run: go test ./...\n"}), envgen.Tests{Files: []string{"m_test.go"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Decisions) != 1 || p.Decisions[0].String() != want {
		t.Errorf("decisions %v, want %q", p.Decisions, want)
	}
}
