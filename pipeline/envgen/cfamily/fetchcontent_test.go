package cfamily

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"curate/internal/testenv"
	"curate/pipeline/envgen"
)

// fmtJSONProject fetches fmt by its GitHub URL under its own name, and
// nlohmann's json by a release URL under a name of the project's (json),
// as C++ libraries do; GitHub does not answer here, so both were
// deps_unreachable ("Failed to clone repository:
// 'https://github.com/fmtlib/fmt.git'") with only GoogleTest mapped.
var fmtJSONProject = map[string]string{
	"CMakeLists.txt": "cmake_minimum_required(VERSION 3.24)\nproject(widget CXX)\nset(CMAKE_CXX_STANDARD 17)\nenable_testing()\ninclude(FetchContent)\n" +
		"FetchContent_Declare(fmt\n  GIT_REPOSITORY https://github.com/fmtlib/fmt.git\n  GIT_TAG 9.1.0)\n" +
		"FetchContent_Declare(json URL https://github.com/nlohmann/json/releases/download/v3.11.2/json.tar.xz)\n" +
		"FetchContent_MakeAvailable(fmt json)\n" +
		"add_executable(widget_test test/widget_test.cpp)\ntarget_link_libraries(widget_test PRIVATE fmt::fmt nlohmann_json::nlohmann_json)\nadd_test(NAME widget_test COMMAND widget_test)\n",
	"test/widget_test.cpp": "#include <fmt/core.h>\n#include <nlohmann/json.hpp>\nint main() {\n  auto j = nlohmann::json::parse(\"{\\\"n\\\": 2}\");\n  return fmt::format(\"{}\", j[\"n\"].get<int>()) == \"2\" ? 0 : 1;\n}\n",
}

func TestPlanFetchContentByURL(t *testing.T) {
	p, err := (lang{"cpp"}).Plan(envgen.MapTree("o/n", fmtJSONProject), envgen.Tests{Files: []string{"test/widget_test.cpp"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, pkg := range []string{"libfmt-dev", "nlohmann-json3-dev"} {
		if !contains(p.Packages, pkg) {
			t.Errorf("packages %v lack %s", p.Packages, pkg)
		}
	}
	conf := p.Install[0]
	for _, arg := range []string{"-DFETCHCONTENT_TRY_FIND_PACKAGE_MODE=ALWAYS", "-DFETCHCONTENT_SOURCE_DIR_JSON=" + ShimDir + "/json"} {
		if !strings.Contains(conf, arg) {
			t.Errorf("configure step %q lacks %s", conf, arg)
		}
	}
	if strings.Contains(conf, "FETCHCONTENT_SOURCE_DIR_FMT") {
		t.Errorf("fmt is found by its own name, no folder needed: %q", conf)
	}
	if steps := strings.Join(p.ToolchainSteps, "\n"); !strings.Contains(steps, "find_package(nlohmann_json REQUIRED GLOBAL)") {
		t.Errorf("no shim for json: %s", steps)
	}
	notes := strings.Join(p.Notes, "\n")
	for _, want := range []string{"fmt (by name: Debian's libfmt-dev)", "json (from nlohmann/json: Debian's nlohmann-json3-dev, found as nlohmann_json)"} {
		if !strings.Contains(notes, want) {
			t.Errorf("notes lack %q:\n%s", want, notes)
		}
	}
}

// The plan's steps and arguments, run in a container with no network:
// the project configures, builds and passes its test with Debian's fmt
// and json standing in for the two downloads.
func TestFetchContentByURLBuildsOfflineInDocker(t *testing.T) {
	p, err := (lang{"cpp"}).Plan(envgen.MapTree("o/n", fmtJSONProject), envgen.Tests{Files: []string{"test/widget_test.cpp"}})
	if err != nil {
		t.Fatal(err)
	}
	img := testenv.PackagesImage(t, "g++", "cmake", "make", "libfmt-dev", "nlohmann-json3-dev")
	dir := t.TempDir()
	for name, body := range fmtJSONProject {
		f := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(f, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var fcArgs []string
	for _, a := range strings.Fields(p.Install[0]) {
		if a = strings.Trim(a, "'"); strings.HasPrefix(a, "-DFETCHCONTENT_") {
			fcArgs = append(fcArgs, a)
		}
	}
	script := strings.Join(p.ToolchainSteps, " && ") + " && cmake -S /app -B /tmp/b " + strings.Join(fcArgs, " ") +
		" >/tmp/conf.log 2>&1 || { cat /tmp/conf.log; exit 1; }; cmake --build /tmp/b >/dev/null && cd /tmp/b && ctest --output-on-failure"
	out, err := exec.Command("docker", "run", "--rm", "--network", "none", "-v", dir+":/app:ro", img, "bash", "-c", script).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "100% tests passed") {
		t.Fatalf("offline build: %v\n%s", err, out)
	}
}
