package cfamily

import (
	"strings"
	"testing"

	"curate/pipeline/envgen"
)

// A benchmark library's layout: cmake/GoogleTest.cmake declares
// GOOGLETEST_PATH (default: a googletest/ folder the repository does not
// have) and downloads only when told to, so configure stopped with "Did
// not find Google Test sources!". Debian's source stands in.
func TestPlanPointsGoogleTestPathAtDebian(t *testing.T) {
	tree := envgen.MapTree("o/n", map[string]string{
		"CMakeLists.txt": "project(n CXX)\noption(N_USE_BUNDLED_GTEST \"\" ON)\ninclude(GoogleTest)\n",
		"cmake/GoogleTest.cmake": "set(GOOGLETEST_PREFIX \"${n_BINARY_DIR}/third_party/googletest\")\n" +
			"set(GOOGLETEST_PATH \"${CMAKE_CURRENT_SOURCE_DIR}/googletest\" CACHE PATH \"\") # Mind the quotes\n",
		"third_party/x/CMakeLists.txt": "set(GTEST_DIR \"x\" CACHE PATH \"\")\n",
		"src/a.cc":                     "", "test/a_gtest.cc": "",
	})
	p, err := (lang{"cpp"}).Plan(tree, envgen.Tests{Files: []string{"test/a_gtest.cc"}})
	if err != nil {
		t.Fatal(err)
	}
	conf := strings.Join(p.Install, "\n")
	if !strings.Contains(conf, "'-DGOOGLETEST_PATH=/usr/src/googletest'") || strings.Contains(conf, "GTEST_DIR") {
		t.Errorf("configure step %q: want GOOGLETEST_PATH at Debian's source, nothing for vendored code", conf)
	}
	if !contains(p.Packages, "googletest") {
		t.Errorf("packages %v lack googletest", p.Packages)
	}
	plain := envgen.MapTree("o/n", map[string]string{"CMakeLists.txt": "project(n CXX)\nset(SOME_PATH x CACHE PATH \"\")\n", "test/a_gtest.cc": ""})
	if p, _ := (lang{"cpp"}).Plan(plain, envgen.Tests{Files: []string{"test/a_gtest.cc"}}); strings.Contains(strings.Join(p.Install, "\n"), "/usr/src/googletest") {
		t.Errorf("configure step %q for a project that declares no GoogleTest folder", p.Install)
	}
}
