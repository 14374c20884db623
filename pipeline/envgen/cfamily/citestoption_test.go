package cfamily

import (
	"strings"
	"testing"

	"curate/pipeline/envgen"
)

// A testing framework's own tests are switched on in its folders'
// CMakeLists.txt (option(gtest_build_tests ... OFF)) and turned on by its
// CI script (cmake -Dgtest_build_tests=ON): configured without them, 6 of
// 6 PRs were nop_not_run. A vendored framework whose switch the CI never
// turns on stays off.
func TestPlanTurnsOnTheSubprojectTestSwitchesTheCITurnsOn(t *testing.T) {
	files := map[string]string{
		"CMakeLists.txt":                   "project(dist)\nadd_subdirectory( fw )\nadd_subdirectory(mock)\nadd_subdirectory(third_party/other)\n",
		"fw/CMakeLists.txt":                "project(fw)\noption(fw_build_tests \"Build all of fw's own tests.\" OFF)\noption(fw_build_samples \"Build samples.\" OFF)\n",
		"mock/CMakeLists.txt":              "project(mock)\noption(mock_build_tests \"Build mock's tests.\" OFF)\n",
		"third_party/other/CMakeLists.txt": "option(other_build_tests \"x\" OFF)\n",
		"fw/src/fw.cc":                     "int f() { return 0; }\n",
		"ci/linux-presubmit.sh":            "cmake /src \\\n  -Dfw_build_samples=ON \\\n  -Dfw_build_tests=ON \\\n  -Dmock_build_tests=ON && make\n",
	}
	p, err := (lang{"cpp"}).Plan(envgen.MapTree("o/fw", files), envgen.Tests{Files: []string{"fw/test/fw_test.cc"}})
	if err != nil {
		t.Fatal(err)
	}
	steps := p.Install[0]
	for _, want := range []string{"-Dfw_build_tests=ON", "-Dmock_build_tests=ON"} {
		if !strings.Contains(steps, want) {
			t.Errorf("the configure lacks %s: %s", want, steps)
		}
	}
	for _, not := range []string{"other_build_tests", "fw_build_samples"} {
		if strings.Contains(steps, not) {
			t.Errorf("the configure has %s: %s", not, steps)
		}
	}
}
