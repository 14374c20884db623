package cfamily

import "testing"

// A compressor's CMake build names a symlink it makes like the target
// that makes it (add_custom_target(unxz ... BYPRODUCTS unxz)): Ninja refuses the manifest ("multiple rules generate unxz")
// and nothing built, so its one PR failed in both states. The configure
// step falls back to Make, which builds it, and the later steps use Make.
func TestCbuildFallsBackToMakeWhenNinjaRefusesTheBuildInDocker(t *testing.T) {
	out := runCbuild(t, map[string]string{
		"CMakeLists.txt": "cmake_minimum_required(VERSION 3.16)\nproject(w C)\nenable_testing()\nadd_executable(xz main.c)\n" +
			"add_custom_target(unxz ALL ${CMAKE_COMMAND} -E create_symlink $<TARGET_FILE_NAME:xz> unxz BYPRODUCTS unxz VERBATIM)\n" +
			"add_dependencies(unxz xz)\nadd_test(NAME t_unxz COMMAND ${CMAKE_BINARY_DIR}/unxz)\n",
		"main.c": "int main(void) { return 0; }\n",
	}, "curate-cbuild configure cmake /tmp/b | grep curate:; curate-cbuild build cmake /tmp/b >/dev/null; echo \"build exit $?\"; "+
		"curate-cbuild test cmake /tmp/b >/dev/null; echo \"test exit $?\"; cat /logs/verifier/c-junit.xml")
	wantAll(t, out, "curate: Ninja refuses the build (ninja: error: build.ninja", "configured again for Make",
		"build exit 0", "test exit 0", `<testcase name="t_unxz" classname="t_unxz"`)
}
