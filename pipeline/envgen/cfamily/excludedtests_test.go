package cfamily

import (
	"slices"
	"testing"

	"curate/pipeline/envgen"
)

// nghttp2/nghttp2 (held out, thirteenth set): the test programs are
// add_executable(main EXCLUDE_FROM_ALL ...), built by the project's own
// "check" target; CTest found no executable in either state. The ones
// CTest runs are built after the default build; a benchmark left out of
// the default build, and a test program the default build makes, are not.
func TestExcludedTestExecutablesAreBuilt(t *testing.T) {
	files := map[string]string{
		"CMakeLists.txt": "project(h2 C)\nenable_testing()\nadd_subdirectory(tests)\n",
		"tests/CMakeLists.txt": "add_executable(main EXCLUDE_FROM_ALL main.c)\nadd_test(main main)\n" +
			"add_executable(failmalloc EXCLUDE_FROM_ALL f.c)\nadd_test(NAME failmalloc COMMAND $<TARGET_FILE:failmalloc>)\n" +
			"add_executable(bench EXCLUDE_FROM_ALL bench.c)\n" +
			"add_executable(quick quick.c)\nadd_test(quick quick)\n# add_test(old bench)\n",
		"lib/session.c": "", "tests/main.c": "",
	}
	p, err := (lang{"c"}).Plan(envgen.MapTree("o/n", files), envgen.Tests{Files: []string{"tests/main.c"}})
	if err != nil {
		t.Fatal(err)
	}
	if want := "CURATE_BUILD_TARGETS=failmalloc main"; !slices.Contains(p.Env, want) {
		t.Errorf("env %q lacks %q", p.Env, want)
	}
}
