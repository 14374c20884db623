package cfamily

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"curate/internal/testenv"
)

// One doctest binary built from several test files, one of which does not
// compile against the buggy tree (a PR's new test for a function the bug
// lacks): the runner leaves that file out and the other files' cases still
// run and pass, and the file is one failing compile test. Shape found on
// a header-only C++ library whose 35 test files make one binary: before,
// the binary did not link and every case of every file became
// FAIL_TO_PASS ("error: 'store_into' is not a member" in the new file).
func TestCbuildLeavesOutATestFileThatDoesNotCompileInDocker(t *testing.T) {
	img := testenv.PackagesImage(t, "g++", "cmake", "ninja-build", "doctest-dev")
	dir := t.TempDir()
	files := map[string]string{
		"CMakeLists.txt":      "cmake_minimum_required(VERSION 3.16)\nproject(widget CXX)\nenable_testing()\nadd_subdirectory(test)\n",
		"include/widget.hpp":  "inline int add(int a, int b) { return a + b; }\n",
		"test/CMakeLists.txt": "find_package(doctest REQUIRED)\nadd_executable(widget_tests main.cpp test_add.cpp test_sub.cpp)\ntarget_include_directories(widget_tests PRIVATE ${PROJECT_SOURCE_DIR}/include)\ntarget_link_libraries(widget_tests doctest::doctest)\nadd_test(NAME widget_tests COMMAND widget_tests)\n",
		"test/main.cpp":       "#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN\n#include <doctest/doctest.h>\n",
		"test/test_add.cpp":   "#include <doctest/doctest.h>\n#include \"widget.hpp\"\nTEST_CASE(\"add works\") { CHECK(add(1, 2) == 3); }\n",
		"test/test_sub.cpp":   "#include <doctest/doctest.h>\n#include \"widget.hpp\"\nTEST_CASE(\"sub works\") { CHECK(sub(3, 2) == 1); }\n",
	}
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	script, err := filepath.Abs("curate-cbuild.sh")
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("docker", "run", "--rm", "-v", script+":/usr/local/bin/curate-cbuild:ro", "-v", dir+":/app:ro", img, "bash", "-c",
		"curate-cbuild configure cmake /tmp/b -G Ninja >/dev/null && curate-cbuild build cmake /tmp/b --lenient >/dev/null; "+
			"curate-cbuild test cmake /tmp/b test_sub; echo \"exit $?\"; cat /logs/verifier/c-junit.xml").CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	s := string(out)
	for _, want := range []string{
		"left out of their targets (they do not compile), so the other tests still run: /app/test/test_sub.cpp",
		`name="add works"`,
		`<testcase classname="compile" name="test_sub.cpp"><failure message="did not compile: /app/test/test_sub.cpp:3:`,
		"exit 1",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("output lacks %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, `name="sub works"`) {
		t.Errorf("a case of the file left out ran:\n%s", s)
	}
}
