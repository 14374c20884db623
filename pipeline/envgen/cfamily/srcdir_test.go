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
	// A root build system stays the one used.
	files["CMakeLists.txt"] = "project(x)\n"
	if got := SourceDir(envgen.MapTree("o/n", files).Files, []string{"test/test.cc"}); got != "" {
		t.Errorf("SourceDir with a root CMakeLists.txt = %q", got)
	}
}
