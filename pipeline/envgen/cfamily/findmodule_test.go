package cfamily

import (
	"strings"
	"testing"

	"curate/pipeline/envgen"
)

// A compiler cache's build finds xxHash with its own cmake/FindXxhash.cmake
// (find_path of xxhash.h, find_library of xxhash) and downloads it from
// GitHub when they are missing: all 6 PRs were deps_unreachable. The
// module's headers are looked up in Debian's Contents index, so the image
// has libxxhash-dev; a module of an optional package and a header named
// by a variable are not.
func TestPlanLooksUpTheHeadersOfTheProjectsFindModules(t *testing.T) {
	tree := envgen.MapTree("acme/widget", map[string]string{
		"CMakeLists.txt": "list(APPEND CMAKE_MODULE_PATH ${CMAKE_SOURCE_DIR}/cmake)\ninclude(cmake/Deps.cmake)\n",
		"cmake/Deps.cmake": "find_package(Xxh 0.8.0 MODULE REQUIRED)\nfind_package(Redis MODULE REQUIRED)\n" +
			"find_package(Opt MODULE)\nfind_package(Var MODULE REQUIRED)\n",
		"cmake/FindXxh.cmake":         "# find_path(IGNORED commented.h)\nfind_path(XXH_INCLUDE_DIR xxh.h)\nfind_library(XXH_LIBRARY xxh)\n",
		"cmake/FindRedis.cmake":       "find_path(\n  REDIS_INCLUDE_DIR\n  NAMES redis/redis.h redis.h\n  HINTS ${PC_REDIS_INCLUDEDIR})\n",
		"cmake/FindOpt.cmake":         "find_path(OPT_INCLUDE_DIR opt.h)\n",
		"cmake/FindVar.cmake":         "find_path(VAR_INCLUDE_DIR ${VAR_HEADER})\n",
		"third_party/x/FindXxh.cmake": "find_path(V vendored.h)\n",
		"main.cpp":                    "int main() {}\n",
	})
	p, err := (lang{"cpp"}).Plan(tree, envgen.Tests{})
	if err != nil {
		t.Fatal(err)
	}
	steps := strings.Join(p.ToolchainSteps, "\n")
	for _, want := range []string{"'header:xxh.h'", "'header:redis/redis.h'"} {
		if !strings.Contains(steps, want) {
			t.Errorf("plan does not look up %s: %s", want, steps)
		}
	}
	for _, not := range []string{"opt.h", "commented.h", "vendored.h", "VAR_HEADER", "header:redis.h"} {
		if strings.Contains(steps, not) {
			t.Errorf("plan looks up %s: %s", not, steps)
		}
	}
}

func TestFirstFindPathName(t *testing.T) {
	for args, want := range map[string]string{
		"xxhash.h":                         "xxhash.h",
		"NAMES hiredis/hiredis.h PATHS /x": "hiredis/hiredis.h",
		`"zstd.h" HINTS ${X}`:              "zstd.h",
		"HINTS /usr/include":               "",
		"${HEADER}":                        "",
		"NAMES":                            "",
		"../escape.h":                      "",
		"libfoo":                           "",
		"":                                 "",
	} {
		if got := firstFindPathName(strings.Fields(args)); got != want {
			t.Errorf("firstFindPathName(%q) = %q, want %q", args, got, want)
		}
	}
}

// A C++ binding's CMakeLists.txt asks for its C library quietly first,
// then, when that found nothing, again REQUIRED through its own find
// module (find_path of zmq.h, pkg_check_modules QUIET): the first, quiet
// call was the one kept, so nothing was looked up and all 6 PRs were
// deps_missing ZeroMQ. A need any call requires is required.
func TestPlanLooksUpAPackageRequiredAfterAQuietTry(t *testing.T) {
	tree := envgen.MapTree("acme/binding", map[string]string{
		"CMakeLists.txt": "project(b CXX)\nfind_package(Zed QUIET)\nif(NOT Zed_FOUND)\n  list(APPEND CMAKE_MODULE_PATH ${CMAKE_CURRENT_LIST_DIR}/zed-pkg-config)\n" +
			"  find_package(Zed REQUIRED)\nendif()\n",
		"zed-pkg-config/FindZed.cmake": "find_package(PkgConfig)\npkg_check_modules(PC_LIBZED QUIET libzed)\nfind_path(Zed_INCLUDE_DIR zed.h PATHS ${PC_LIBZED_INCLUDE_DIRS})\n",
		"main.cpp":                     "int main() {}\n",
	})
	p, err := (lang{"cpp"}).Plan(tree, envgen.Tests{})
	if err != nil {
		t.Fatal(err)
	}
	steps := strings.Join(p.ToolchainSteps, "\n")
	for _, want := range []string{"'cmake:Zed'", "'header:zed.h'"} {
		if !strings.Contains(steps, want) {
			t.Errorf("plan does not look up %s: %s", want, steps)
		}
	}
}
