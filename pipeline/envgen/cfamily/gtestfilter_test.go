package cfamily

import (
	"reflect"
	"strings"
	"testing"

	"curate/pipeline/envgen"
)

// The GoogleTest cases a project's CI leaves out by default: an HTTP
// library's workflows set GTEST_FILTER to '-*_Online' (through a
// workflow_dispatch input's default) and '-*.*_Online' (its offline
// workflow); its 108 *_Online tests then failed in every oracle run and
// only a second validation round (known failures) let the task pass. A
// filter that picks one job's tests is not an exclusion.
func TestCIGTestExcluded(t *testing.T) {
	tree := envgen.MapTree("o/n", map[string]string{
		".github/workflows/test.yaml": "env:\n  GTEST_FILTER: ${{ github.event.inputs.gtest_filter || '-*_Online' }}\njobs:\n  a:\n    steps:\n" +
			"      - run: ./test --gtest_filter='GetAddrInfoAsyncCancelTest.*'\n      - run: ./test --gtest_filter=-Slow.*:Flaky?Case\n",
		".github/workflows/offline.yml": "env:\n  GTEST_FILTER: \"-*.*_Online\"\n",
		".github/workflows/other.yml":   "env:\n  GTEST_FILTER: ${{ inputs.filter }}\n  X: '-*'\n",
	})
	want := []string{"*.*_Online", "*_Online", "Flaky?Case", "Slow.*"}
	if got := ciGTestExcluded(tree); !reflect.DeepEqual(got, want) {
		t.Errorf("excluded %v, want %v", got, want)
	}
	p, err := (lang{"cpp"}).Plan(envgen.MapTree("o/n", map[string]string{"CMakeLists.txt": "enable_testing()\n", "a.cpp": "",
		".github/workflows/offline.yml": "env:\n  GTEST_FILTER: \"-*.*_Online\"\n"}), envgen.Tests{})
	if err != nil || !strings.Contains(strings.Join(p.Env, " "), "CURATE_GTEST_EXCLUDE=*.*_Online") {
		t.Errorf("plan env %v (%v)", p.Env, err)
	}
}

// The runner leaves the excluded cases out: by name where CTest lists
// each case (gtest_discover_tests), through GTEST_FILTER where CTest runs
// the whole binary, and in the filter of a binary it starts itself.
func TestCbuildLeavesOutTheCasesTheCIExcludesInDocker(t *testing.T) {
	src := "#include <gtest/gtest.h>\nTEST(Net, Get_Online) { FAIL(); }\nTEST(Net, Get) { EXPECT_EQ(1, 1); }\n"
	for name, files := range map[string]map[string]string{
		"per case": {"CMakeLists.txt": "cmake_minimum_required(VERSION 3.16)\nproject(w CXX)\nenable_testing()\nfind_package(GTest REQUIRED)\ninclude(GoogleTest)\n" +
			"add_executable(w_tests test.cc)\ntarget_link_libraries(w_tests GTest::gtest_main)\ngtest_discover_tests(w_tests)\n", "test.cc": src},
		"whole binary": {"CMakeLists.txt": "cmake_minimum_required(VERSION 3.16)\nproject(w CXX)\nenable_testing()\nfind_package(GTest REQUIRED)\n" +
			"add_executable(w_tests test.cc)\ntarget_link_libraries(w_tests GTest::gtest_main)\nadd_test(NAME all COMMAND w_tests)\n", "test.cc": src},
	} {
		out := runCbuild(t, files, "export CURATE_GTEST_EXCLUDE='*_Online' && curate-cbuild configure cmake /tmp/b >/dev/null && curate-cbuild build cmake /tmp/b >/dev/null && "+
			"curate-cbuild test cmake /tmp/b >/dev/null; echo \"exit $?\"; cat /logs/verifier/c-junit.xml")
		wantAll(t, out, "exit 0", `name="Get"`)
		if strings.Contains(out, "Get_Online") {
			t.Errorf("%s: an excluded case ran:\n%s", name, out)
		}
	}
	out := runCbuild(t, map[string]string{
		"Makefile": "all : test\n\t./test\ntest : test.cc\n\t$(CXX) -o $@ test.cc -lgtest -lgtest_main -pthread\nclean:\n\trm -f test\n", "test.cc": src,
	}, "cp -r /app /tmp/src && export CURATE_SRC=/tmp/src CURATE_GTEST_EXCLUDE='*_Online' && curate-cbuild build make /tmp/b >/dev/null; "+
		"curate-cbuild test make /tmp/b >/dev/null; echo \"exit $?\"; cat /logs/verifier/c-junit.xml")
	wantAll(t, out, "exit 0", `name="Get"`)
	if strings.Contains(out, "Get_Online") {
		t.Errorf("make: an excluded case ran:\n%s", out)
	}
}
