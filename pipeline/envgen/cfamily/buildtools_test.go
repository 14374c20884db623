package cfamily

import (
	"strings"
	"testing"

	"curate/pipeline/envgen"
)

// CMake or Meson newer than Debian 12's, when the root build file asks
// for it, comes from PyPI within the same major version; one that asks
// for less keeps Debian's.
func TestPlanBuildToolVersions(t *testing.T) {
	for _, c := range []struct {
		files map[string]string
		want  string
	}{
		{map[string]string{"CMakeLists.txt": "cmake_minimum_required(VERSION 3.28...3.31)\nenable_testing()\n", "a.cpp": ""}, "'cmake>=3.28,<4'"},
		{map[string]string{"CMakeLists.txt": "# cmake_minimum_required(VERSION 3.30)\ncmake_minimum_required(VERSION 3.14)\n", "a.cpp": ""}, ""},
		{map[string]string{"meson.build": "project('w', 'c', meson_version: '>= 1.3.0')\ntest('t', executable('t', 't.c'))\n", "t.c": ""}, "'meson>=1.3,<2'"},
		{map[string]string{"meson.build": "project('w', 'c', meson_version: '>=0.60')\n", "t.c": ""}, ""},
	} {
		p, err := (lang{"c"}).Plan(envgen.MapTree("o/n", c.files), envgen.Tests{})
		if err != nil {
			t.Fatal(err)
		}
		steps := strings.Join(p.ToolchainSteps, "\n")
		if got := strings.Contains(steps, "pip install"); got != (c.want != "") || !strings.Contains(steps, c.want) {
			t.Errorf("%v: steps %q, want %q", c.files, steps, c.want)
		}
		if c.want != "" && !contains(p.Packages, "python3-pip") {
			t.Errorf("no pip: %v", p.Packages)
		}
	}
}
