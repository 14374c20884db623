package cfamily

import (
	"strings"
	"testing"

	"curate/pipeline/envgen"
)

// A URI library builds its API documentation by default and asks for
// find_package(Doxygen REQUIRED): every PR was deps_missing "Doxygen"
// before a test ran. Options that build documentation are turned off;
// others that merely mention docs are left alone.
func TestPlanTurnsDocumentationOptionsOff(t *testing.T) {
	tree := envgen.MapTree("o/n", map[string]string{
		"CMakeLists.txt": "option(W_BUILD_DOCS \"Build API documentation (requires Doxygen)\" ON)\noption(W_BUILD_TESTS \"tests\" OFF)\n" +
			"option(BUILD_DOCUMENTATION \"\" ON)\noption(W_DOCS_EXAMPLES_STRICT \"\" ON)\nif(W_BUILD_DOCS)\n  find_package(Doxygen REQUIRED dot doxygen)\nendif()\n",
		"test/a.cpp": "",
	})
	p, err := (lang{"cpp"}).Plan(tree, envgen.Tests{Files: []string{"test/a.cpp"}})
	if err != nil {
		t.Fatal(err)
	}
	conf := strings.Join(p.Install, "\n")
	for _, want := range []string{"-DW_BUILD_DOCS=OFF", "-DBUILD_DOCUMENTATION=OFF", "-DW_BUILD_TESTS=ON"} {
		if !strings.Contains(conf, want) {
			t.Errorf("configure step %q: want %s", conf, want)
		}
	}
	if strings.Contains(conf, "W_DOCS_EXAMPLES_STRICT") {
		t.Errorf("configure step %q: an option that only mentions docs", conf)
	}
}
