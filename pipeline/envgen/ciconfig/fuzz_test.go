package ciconfig

import (
	"os"
	"strings"
	"testing"
)

// FuzzRead feeds untrusted CI files to every reader: none may panic or
// run away (matrix products are capped).
func FuzzRead(f *testing.F) {
	for _, p := range []string{"testdata/jackson-core-main.yml", "testdata/assertj-main.yml"} {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(string(b))
		}
	}
	f.Add("jobs:\n  t:\n    runs-on: ${{ matrix.os }}\n    strategy:\n      matrix:\n        os: [ubuntu, macos]\n        v: [1, 2]\n        include: [{os: ubuntu, v: 3}]\n        exclude: [{v: 1}]\n    steps:\n      - uses: actions/setup-node@v4\n        with: {node-version: '${{ matrix.v }}'}\n      - run: apt-get install -y a b=1\n")
	f.Add("image: node:20\nt:\n  script: [npm test]\n")
	f.Add("[tox]\nenvlist = py311\n[testenv]\ncommands =\n  pytest\n")
	f.Add("@nox.session(python=['3.12'])\ndef t(s):\n  s.run('pytest')\n")
	f.Add("a: &a [*a]\n")
	f.Add("jobs:\n  t:\n    runs-on: ubuntu-latest\n    strategy: {matrix: {std: [17, 20]}}\n    steps:\n      - run: cmake -B b -DCMAKE_CXX_STANDARD=${{ matrix.std }} -DX:BOOL=\"a b\" -D Y=1\n")
	f.Fuzz(func(t *testing.T, s string) {
		c := Read(tree(map[string]string{
			".github/workflows/ci.yml": s, ".gitlab-ci.yml": s, ".travis.yml": s, "tox.ini": s, "noxfile.py": s,
		}))
		for tool, v := range c.Versions {
			if v.Value == "" || v.Source == "" {
				t.Errorf("%s: empty setting %+v", tool, v)
			}
		}
		for _, d := range c.Defines {
			if k, v, ok := strings.Cut(d.Value, "="); !ok || k == "" || v == "" || strings.ContainsAny(d.Value, "\n\r") {
				t.Errorf("define %q is not KEY=VALUE on one line", d.Value)
			}
		}
	})
}
