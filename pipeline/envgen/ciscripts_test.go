package envgen_test

import (
	"strings"
	"testing"

	"curate/pipeline/envgen/envgentest"
)

// A PR whose only change under tests/ is the PowerShell script its
// AppVeyor build runs (pugixml's autotest-appveyor.ps1: four of the eight
// newest PRs) has no test that fails before the fix; it is refused, not
// built into a no_fail_to_pass task. A script under tests/ that no CI
// names is a test like any other file there.
func TestBuildRefusesPRsThatChangeOnlyCIScripts(t *testing.T) {
	fc := envgentest.TestFilter(t)
	for _, c := range []struct {
		script, appveyor string
		refused          bool
	}{
		{"tests/autotest-appveyor.ps1", "test_script:\n  - ps: tests\\autotest-appveyor.ps1\n", true},
		{"tests/run-it.sh", "test_script:\n  - ps: tests\\autotest-appveyor.ps1\n", false},
	} {
		reasons := buildRefusal(t, fc, map[string]string{"a.py": "x = 1\n", "tests/test_a.py": "def test_a():\n    pass\n",
			c.script: "echo one\n", "appveyor.yml": c.appveyor}, map[string]string{"a.py": "x = 2\n", c.script: "echo two\n"})
		got := strings.Contains(strings.Join(reasons, ";"), "scripts its CI runs")
		if got != c.refused {
			t.Errorf("%s: refused for CI scripts = %v, want %v (%v)", c.script, got, c.refused, reasons)
		}
		if c.refused && !strings.Contains(strings.Join(reasons, ";"), "tests/autotest-appveyor.ps1 (run by appveyor.yml)") {
			t.Errorf("refusal does not name the script and the CI file: %v", reasons)
		}
	}
}
