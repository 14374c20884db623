package cfamily

import (
	"strings"
	"testing"

	"curate/pipeline/envgen"
)

// cpp-httplib at PR #40's merge (2015): no build files at the root, a
// Makefile in example/ and one in test/ that builds test.cc with
// CC = clang++ and the bundled GoogleTest. curate refused it ("no test
// runner for language \"\"") before it looked below the root.
func TestSourceDirBelowTheRoot(t *testing.T) {
	files := map[string]string{
		".gitignore": "", "LICENSE": "", "README.md": "", "httplib.h": "",
		"example/Makefile": "CC = clang++\n", "example/benchmark.cc": "", "example/client.cc": "", "example/hello.cc": "",
		"example/server.cc": "", "example/simplesvr.cc": "",
		"test/Makefile":           "\nCC = clang++\nCFLAGS = -std=c++11 -DGTEST_USE_OWN_TR1_TUPLE -I.. -I. -Wall -Wextra -lpthread\n\nall : test\n\t./test\n",
		"test/gtest/gtest-all.cc": "", "test/gtest/gtest.h": "", "test/gtest/gtest_main.cc": "", "test/test.cc": "",
	}
	tree := envgen.MapTree("o/n", files)
	if got := (lang{"cpp"}).Detect(tree.Files); got != "cpp" {
		t.Fatalf("Detect = %q, want cpp", got)
	}
	if got := SourceDir(tree.Files, []string{"test/test.cc"}); got != "test" {
		t.Errorf("SourceDir with the PR's test = %q, want test", got)
	}
	// Without test files the folder with more sources wins.
	if got := SourceDir(tree.Files, nil); got != "example" {
		t.Errorf("SourceDir alone = %q, want example", got)
	}
	p, err := (lang{"cpp"}).Plan(tree, envgen.Tests{Files: []string{"test/test.cc"}})
	if err != nil {
		t.Fatal(err)
	}
	if !contains(p.Env, "CURATE_SRC=/app/test") || !contains(p.Packages, "clang") || !strings.HasPrefix(p.Install[0], "curate-cbuild configure make ") {
		t.Errorf("plan: env %v, packages %v, install %v", p.Env, p.Packages, p.Install)
	}
	// A root build system stays the one used when it reaches the tests.
	files["CMakeLists.txt"] = "project(x)\nadd_subdirectory(test)\n"
	files["test/CMakeLists.txt"] = "add_executable(t test.cc)\n"
	if got := SourceDir(envgen.MapTree("o/n", files).Files, []string{"test/test.cc"}); got != "" {
		t.Errorf("SourceDir with a root CMakeLists.txt that builds test/ = %q", got)
	}
}

// cpp-httplib at PR #1015's merge (2021): the root CMakeLists.txt only
// installs the header (no tests until test/CMakeLists.txt came later) and
// the CI runs "cd test && make test"; curate configured the root, found
// no test and every run ended "no test report" (nop_not_run). The tests'
// own Makefile builds and runs them.
func TestSourceDirIsTheTestsMakefileTheRootBuildDoesNotReach(t *testing.T) {
	files := map[string]string{
		"CMakeLists.txt": "project(httplib)\ninstall(FILES httplib.h DESTINATION include)\n", "httplib.h": "", "meson.build": "",
		"example/Makefile": "", "example/server.cc": "",
		"test/Makefile": "all : test\n\t./test\n", "test/test.cc": "", "test/include_httplib.cc": "", "test/gtest/gtest-all.cc": "",
	}
	tree := envgen.MapTree("o/n", files)
	tests := []string{"test/Makefile", "test/include_httplib.cc"}
	if got := SourceDir(tree.Files, tests); got != "test" {
		t.Fatalf("SourceDir = %q, want test", got)
	}
	p, err := (lang{"cpp"}).Plan(tree, envgen.Tests{Files: tests})
	if err != nil {
		t.Fatal(err)
	}
	if !contains(p.Env, "CURATE_SRC=/app/test") || !strings.HasPrefix(p.Install[0], "curate-cbuild configure make ") ||
		!strings.Contains(strings.Join(p.Notes, "\n"), "the PR's tests are in test/, which the root's cmake build does not reach") {
		t.Errorf("plan: env %v, install %v, notes %v", p.Env, p.Install, p.Notes)
	}
	// Tests in two folders, or none in C/C++: the root's build.
	if got := SourceDir(tree.Files, []string{"test/test.cc", "example/server.cc"}); got != "" {
		t.Errorf("SourceDir with tests in two folders = %q", got)
	}
	if got := SourceDir(tree.Files, []string{"test/Makefile"}); got != "" {
		t.Errorf("SourceDir with no C/C++ test file = %q", got)
	}
}
