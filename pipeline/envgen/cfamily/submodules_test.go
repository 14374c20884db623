package cfamily

import (
	"reflect"
	"strings"
	"testing"

	"curate/pipeline/envgen"
)

// .gitmodules names where each submodule goes and where it comes from;
// one whose directory has files is there; a path that would leave the
// repository is ignored (the file comes from anyone).
func TestMissingSubmodules(t *testing.T) {
	tree := envgen.MapTree("o/n", map[string]string{
		".gitmodules": "[submodule \"extern/gtest\"]\n\tpath = extern/gtest\n\turl = https://github.com/google/googletest.git\n" +
			"[submodule \"docs/theme\"]\n\tpath = docs/theme\n\turl = https://example.com/theme\n" +
			"[submodule \"vendor/lib\"]\n\tpath = vendor/lib\n\turl = https://example.com/lib\n" +
			"[submodule \"escape\"]\n\tpath = ../outside\n\turl = https://github.com/google/googletest\n" +
			"[submodule \"quote\"]\n\tpath = a'b\n\turl = https://github.com/google/googletest\n",
		"vendor/lib/lib.c": "int x;\n",
	})
	got := missingSubmodules(tree)
	want := []submodule{{"extern/gtest", "https://github.com/google/googletest.git"}, {"docs/theme", "https://example.com/theme"}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("missing %v, want %v", got, want)
	}
	p := &envgen.Plan{}
	steps := submoduleSteps(p, tree, nil)
	if len(steps) != 1 || !strings.Contains(steps[0], "cp -a /usr/src/googletest/. 'extern/gtest'/") ||
		!reflect.DeepEqual(p.Packages, []string{"googletest"}) || !reflect.DeepEqual(p.Env, []string{"CURATE_MISSING_SUBMODULES=docs/theme"}) {
		t.Errorf("steps %q packages %v env %v", steps, p.Packages, p.Env)
	}
	for _, url := range []string{"https://github.com/google/googletest", "git@github.com:google/googletest.git", "https://github.com/google/googletest/"} {
		if !isGoogleTest(url) {
			t.Errorf("%s is GoogleTest", url)
		}
	}
	if isGoogleTest("https://github.com/someone/googletest-fork") {
		t.Error("a fork with another name is not")
	}
}

// A project that pins GoogleTest as a submodule and builds it with
// add_subdirectory, mined from a clone without its submodules (a UTF-8
// library: compile_error "The source directory /app/extern/gtest does not
// contain a CMakeLists.txt file"), builds with Debian's GoogleTest source
// in its place and reports its cases.
func TestGoogleTestSubmoduleFromDebianInDocker(t *testing.T) {
	files := map[string]string{
		".gitmodules": "[submodule \"extern/gtest\"]\n\tpath = extern/gtest\n\turl = https://github.com/google/googletest\n",
		"CMakeLists.txt": "cmake_minimum_required(VERSION 3.16)\nproject(widget CXX)\nenable_testing()\nadd_subdirectory(extern/gtest)\n" +
			"add_executable(widget_test tests/t.cpp)\ntarget_link_libraries(widget_test gtest_main)\nadd_test(NAME widget_test COMMAND widget_test)\n",
		"tests/t.cpp": "#include <gtest/gtest.h>\nTEST(Widget, Adds) { EXPECT_EQ(1 + 1, 2); }\nTEST(Widget, Subtracts) { EXPECT_EQ(3 - 2, 2); }\n",
	}
	p := &envgen.Plan{}
	steps := submoduleSteps(p, envgen.MapTree("o/n", files), []string{"tests/t.cpp"})
	if len(steps) != 1 {
		t.Fatalf("steps %q", steps)
	}
	out := runCbuild(t, files, "cp -r /app /tmp/src && cd /tmp/src && export CURATE_SRC=/tmp/src && "+steps[0]+" && "+
		"curate-cbuild configure cmake /tmp/b >/dev/null && curate-cbuild build cmake /tmp/b >/dev/null && "+
		"curate-cbuild test cmake /tmp/b >/dev/null; echo \"exit $?\"; cat /logs/verifier/c-junit.xml")
	wantAll(t, out, "exit 1", `name="Adds"`, `name="Subtracts"`, "[  FAILED  ] Widget.Subtracts")
	if strings.Contains(out, "[  FAILED  ] Widget.Adds") {
		t.Errorf("Adds failed:\n%s", out)
	}
}

// A project that pins doctest as a submodule and puts its doctest/
// folder on the include path (a TOML library: every test failed with
// "doctest.h: No such file or directory") builds with Debian's doctest
// header in its place and reports its cases.
func TestDoctestSubmoduleFromDebianInDocker(t *testing.T) {
	files := map[string]string{
		".gitmodules": "[submodule \"tests/extlib/doctest\"]\n\tpath = tests/extlib/doctest\n\turl = https://github.com/doctest/doctest.git\n",
		"CMakeLists.txt": "cmake_minimum_required(VERSION 3.16)\nproject(widget CXX)\nenable_testing()\n" +
			"add_executable(widget_test tests/t.cpp)\ntarget_include_directories(widget_test PRIVATE ${PROJECT_SOURCE_DIR}/tests/extlib/doctest/doctest/)\nadd_test(NAME widget_test COMMAND widget_test)\n",
		"tests/t.cpp": "#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN\n#include \"doctest.h\"\nTEST_CASE(\"adds\") { CHECK(1 + 1 == 2); }\nTEST_CASE(\"subtracts\") { CHECK(3 - 2 == 2); }\n",
	}
	p := &envgen.Plan{}
	steps := submoduleSteps(p, envgen.MapTree("o/n", files), []string{"tests/t.cpp"})
	if len(steps) != 1 || !reflect.DeepEqual(p.Packages, []string{"doctest-dev"}) {
		t.Fatalf("steps %q packages %v", steps, p.Packages)
	}
	out := runCbuild(t, files, "cp -r /app /tmp/src && cd /tmp/src && export CURATE_SRC=/tmp/src && "+steps[0]+" && "+
		"curate-cbuild configure cmake /tmp/b >/dev/null && curate-cbuild build cmake /tmp/b >/dev/null && "+
		"curate-cbuild test cmake /tmp/b >/dev/null; echo \"exit $?\"; cat /logs/verifier/c-junit.xml")
	wantAll(t, out, "exit 1", `name="adds"`, `name="subtracts"`)
	if strings.Contains(out, "doctest.h: No such file") {
		t.Errorf("the header was not filled in:\n%s", out)
	}
}

// A PR whose tests include a header from a submodule the archive lacks (a
// UTF-8 library's tests and "../extern/ftest/ftest.h", 110: it was
// fix_fails_tests after a full build) fails its image build at once,
// deps_missing naming the submodule and the include. A header the tree
// has, or one of a GoogleTest submodule (filled from Debian), does not.
func TestTestsIncludeAMissingSubmodule(t *testing.T) {
	gitmodules := "[submodule \"extern/ftest\"]\n\tpath = extern/ftest\n\turl = https://example.com/ftest\n" +
		"[submodule \"extern/gtest\"]\n\tpath = extern/gtest\n\turl = https://github.com/google/googletest\n"
	cases := []struct {
		name, test string
		want       string
	}{
		{"relative", "#include \"../extern/ftest/ftest.h\"\n", "git submodule extern/ftest: tests/t.cpp, a test file of the PR, includes ../extern/ftest/ftest.h"},
		{"from the root", "#include \"extern/ftest/ftest.h\"\n", "git submodule extern/ftest"},
		{"through an include path", "  #  include <ftest/ftest.h>\n", "git submodule extern/ftest"},
		{"a header the tree has", "#include \"../src/ftest/ftest.h\"\n#include <ftest/ftest.h>\n", ""},
		{"GoogleTest", "#include \"../extern/gtest/include/gtest/gtest.h\"\n", ""},
		{"no include", "int main() { return 0; }\n", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			files := map[string]string{".gitmodules": gitmodules, "tests/t.cpp": c.test, "CMakeLists.txt": "\n"}
			if strings.Contains(c.test, "src/ftest") {
				files["src/ftest/ftest.h"] = "\n"
			}
			tree := envgen.MapTree("o/n", files)
			steps := submoduleSteps(&envgen.Plan{}, tree, []string{"tests/t.cpp"})
			got := ""
			if len(steps) == 1 && strings.Contains(steps[0], "deps_missing") {
				got = steps[0]
			}
			if (c.want == "") != (got == "") || !strings.Contains(got, c.want) || (got != "" && !strings.HasSuffix(got, ">&2; exit 1")) {
				t.Errorf("steps %q, want one naming %q", steps, c.want)
			}
		})
	}
}
