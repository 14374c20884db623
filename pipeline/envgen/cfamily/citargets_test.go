package cfamily

import (
	"strings"
	"testing"

	"curate/pipeline/envgen"
)

// A date library's compile-fail tests are CTest tests of programs only
// its custom target "testit" makes, which its CI builds after the
// default build; without it each failed in both states
// (fix_fails_tests). Targets it does not define, and docs, are left out.
func TestPlanBuildsTheCIsTestTargets(t *testing.T) {
	tree := envgen.MapTree("o/n", map[string]string{
		"CMakeLists.txt": "add_custom_target( testit COMMAND true )\nadd_custom_target(docs COMMAND doxygen)\nadd_test(t_fail_x test_fail.sh x_bin)\n",
		".travis.yml":    "script:\n  - cmake --build . --parallel\n  - cmake --build . --target testit docs nothere\n",
		"test/a.cpp":     "",
	})
	p, err := (lang{"cpp"}).Plan(tree, envgen.Tests{Files: []string{"test/a.cpp"}})
	if err != nil {
		t.Fatal(err)
	}
	env := strings.Join(p.Env, "\n")
	if !strings.Contains(env, "CURATE_BUILD_TARGETS=testit") || strings.Contains(env, "docs") || strings.Contains(env, "nothere") {
		t.Errorf("env %q: want CURATE_BUILD_TARGETS=testit alone", env)
	}
}

// The targets of CURATE_BUILD_TARGETS are built after the default build.
func TestCbuildBuildsTheCIsTargetsInDocker(t *testing.T) {
	out := runCbuild(t, map[string]string{
		"CMakeLists.txt": "cmake_minimum_required(VERSION 3.16)\nproject(w C)\nenable_testing()\n" +
			"add_custom_target(testit COMMAND ${CMAKE_COMMAND} -E touch ${CMAKE_BINARY_DIR}/x_bin)\n" +
			"add_test(NAME t_fail_x COMMAND ${CMAKE_COMMAND} -E cat ${CMAKE_BINARY_DIR}/x_bin)\n",
	}, "export CURATE_BUILD_TARGETS=testit; curate-cbuild configure cmake /tmp/b >/dev/null && curate-cbuild build cmake /tmp/b >/dev/null; ls /tmp/b/x_bin")
	if !strings.Contains(out, "/tmp/b/x_bin") || strings.Contains(out, "No such file") {
		t.Errorf("the CI's target was not built:\n%s", out)
	}
}
