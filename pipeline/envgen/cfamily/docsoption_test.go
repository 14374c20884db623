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

// A hash-map library's PHMAP_DOWNLOAD_GTEST, on by default, cloned
// GoogleTest from GitHub at configure time: all six PRs were
// deps_unreachable. Switches that download are turned off; others stay.
func TestPlanTurnsOffDownloadOptions(t *testing.T) {
	tree := envgen.MapTree("o/n", map[string]string{
		"CMakeLists.txt": "project(phmap CXX)\noption(PHMAP_BUILD_TESTS \"tests\" ON)\n" +
			"option(PHMAP_DOWNLOAD_GTEST \"Whether to download gtest or use installed version\" ON)\n" +
			"option(FETCH_DEPS \"fetch\" ON)\noption(PHMAP_DOWNLOADER_TOOL \"a tool\" ON)\n" +
			"find_package(GTest CONFIG)\n",
		"tests/t.cc": "",
	})
	p, err := (lang{"cpp"}).Plan(tree, envgen.Tests{Files: []string{"tests/t.cc"}})
	if err != nil {
		t.Fatal(err)
	}
	cmd := strings.Join(p.Install, "\n")
	for _, want := range []string{"-DPHMAP_DOWNLOAD_GTEST=OFF", "-DFETCH_DEPS=OFF"} {
		if !strings.Contains(cmd, want) {
			t.Errorf("configure lacks %s:\n%s", want, cmd)
		}
	}
	if strings.Contains(cmd, "PHMAP_DOWNLOADER_TOOL=OFF") {
		t.Errorf("an option that only has DOWNLOAD in a word was turned off:\n%s", cmd)
	}
	if !contains(p.Packages, "libgtest-dev") {
		t.Errorf("packages %v lack libgtest-dev", p.Packages)
	}
}
