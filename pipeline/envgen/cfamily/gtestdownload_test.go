package cfamily

import (
	"strings"
	"testing"

	"curate/pipeline/envgen"
)

// GoogleTest's old README way: CMakeLists.txt.in holds an
// ExternalProject_Add that downloads it, configured and built at
// configure time, then add_subdirectory of its SOURCE_DIR. A logging
// library's template downloads main.zip into ${CMAKE_BINARY_DIR}/
// googletest-src: all 6 PRs were deps_unreachable (github.com).
func TestPlanServesDebiansGoogleTestToAConfigureTimeDownload(t *testing.T) {
	archive := "ExternalProject_Add(googletest\n  URL               https://github.com/google/googletest/archive/refs/heads/main.zip\n" +
		"  SOURCE_DIR        \"${CMAKE_BINARY_DIR}/googletest-src\"\n  BINARY_DIR        \"${CMAKE_BINARY_DIR}/googletest-build\"\n  CONFIGURE_COMMAND \"\"\n)\n"
	clone := "ExternalProject_Add(googletest\n  GIT_REPOSITORY https://github.com/google/googletest.git\n  GIT_TAG release-1.8.1\n" +
		"  SOURCE_DIR \"${CMAKE_CURRENT_BINARY_DIR}/gt-src\"\n)\n"
	pinned := "ExternalProject_Add(googletest GIT_REPOSITORY https://github.com/google/googletest.git GIT_TAG 2fe3bd994b3189899d93f1d5a881e725e046fdc2)\n"
	other := "ExternalProject_Add(zlib URL https://zlib.net/zlib.tar.gz SOURCE_DIR \"${CMAKE_BINARY_DIR}/zlib-src\")\n"
	for _, c := range []struct {
		in, env, step string
	}{
		{archive, "CURATE_GTEST_DOWNLOAD=googletest-src", ""},
		{clone, "", "curate-gtestsrc 'release-1.8.1'"},
		{pinned, "", "curate-gtestsrc"},
		{other, "", ""},
	} {
		tree := envgen.MapTree("o/log", map[string]string{
			"CMakeLists.txt":    "project(log CXX)\nconfigure_file(CMakeLists.txt.in googletest-download/CMakeLists.txt)\n",
			"CMakeLists.txt.in": "project(googletest-download NONE)\ninclude(ExternalProject)\n" + c.in,
			"src/log.cpp":       "int f() { return 0; }\n",
		})
		p, err := (lang{"cpp"}).Plan(tree, envgen.Tests{})
		if err != nil {
			t.Fatal(err)
		}
		env, steps := strings.Join(p.Env, " "), strings.Join(p.ToolchainSteps, "\n")
		served := c.env != "" || c.step != ""
		if (c.env != "" && !strings.Contains(env, c.env)) || (c.step != "" && !strings.Contains(steps, c.step)) ||
			(c.env == "" && strings.Contains(env, "CURATE_GTEST_DOWNLOAD")) || (c.step == "" && strings.Contains(steps, "curate-gtestsrc")) ||
			served != contains(p.Packages, "googletest") {
			t.Errorf("%s:\nenv %s\nsteps %s\npackages %v", c.in, env, steps, p.Packages)
		}
	}
}
