package python

import (
	"testing"

	"curate/pipeline/envgen"
)

// The project declares no version; its CI's setup step decides, with the
// workflow named as the source (pipeline/envgen/ciconfig reads it).
func TestCIVersionDecides(t *testing.T) {
	const want = "toolchain: python 3.11.2 from tox.ini envlist 3.12 (no requires-python; Debian 12's python3)"
	p, err := envgen.LanguageFor("python").Plan(envgen.MapTree("o/r", map[string]string{"setup.py": "from setuptools import setup\nsetup(name='x')\n", "tests/test_a.py": "def test_a():\n    pass\n",
		"tox.ini": "[tox]\nenvlist = py312\n[testenv]\ncommands = pytest\n"}), envgen.Tests{Files: []string{"tests/test_a.py"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Decisions) != 1 || p.Decisions[0].String() != want {
		t.Errorf("decisions %v, want %q", p.Decisions, want)
	}
}
