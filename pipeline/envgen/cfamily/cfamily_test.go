package cfamily

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"curate/pipeline/envgen"
)

func TestDetect(t *testing.T) {
	for _, c := range []struct {
		files []string
		sys   string
		lang  string
	}{
		{[]string{"CMakeLists.txt", "cJSON.c", "cJSON.h", "tests/parse_number.c"}, "cmake", "c"},
		{[]string{"CMakeLists.txt", "include/argparse/argparse.hpp", "test/main.cpp", "test/test_get.cpp"}, "cmake", "cpp"},
		{[]string{"meson.build", "src/a.cc", "src/b.c", "src/c.cc"}, "meson", "cpp"},
		{[]string{"configure.ac", "Makefile.am", "lib.c"}, "autotools", "c"},
		{[]string{"Makefile", "main.c"}, "make", "c"},
		{[]string{"README.md", "main.c"}, "", ""},
	} {
		if got := BuildSystem(c.files); got != c.sys {
			t.Errorf("BuildSystem(%v) = %q, want %q", c.files, got, c.sys)
		}
		if got := (lang{"c"}).Detect(c.files); got != c.lang {
			t.Errorf("Detect(%v) = %q, want %q", c.files, got, c.lang)
		}
	}
	// A Python project with a Makefile stays Python: C is asked only when
	// no other language's marker is there.
	if got := envgen.DetectLanguage([]string{"Makefile", "setup.py", "ext/speedups.c", "pkg/a.py"}, ""); got != "python" {
		t.Errorf("python project with a Makefile detected as %q", got)
	}
	// A C library with a package.json for a package index (no JavaScript
	// in the tree: kgabis/parson's) is C; one with JavaScript stays so.
	if got := envgen.DetectLanguage([]string{"CMakeLists.txt", "Makefile", "package.json", "parson.c", "parson.h", "tests.c"}, ""); got != "c" {
		t.Errorf("C library with a package.json detected as %q", got)
	}
	if got := envgen.DetectLanguage([]string{"binding.gyp", "package.json", "src/addon.cc", "index.js", "Makefile"}, ""); got != "javascript" {
		t.Errorf("node addon detected as %q", got)
	}
	if got := envgen.DetectLanguage([]string{"CMakeLists.txt", "src/x.cpp", "test/t.cpp"}, ""); got != "cpp" {
		t.Errorf("CMake C++ project detected as %q", got)
	}
	// The PR's tests decide when they are all C or C++: a header-only C++
	// library with a package.json and one .js helper for a package index
	// (its 4 newest PRs were refused as JavaScript with no suite to load).
	// A C extension tested in its own language, or a PR whose tests are
	// not all C/C++, keeps the marker's language.
	bound := []string{"CMakeLists.txt", "pyproject.toml", "setup.py", "bindings/python/x.py", "src/b.cc", "test/CMakeLists.txt", "test/reporter_gtest.cc"}
	lib := []string{"CMakeLists.txt", "include_dirs.js", "package.json", "include/lib/reader.h", "test/unittest/CMakeLists.txt", "test/unittest/readertest.cpp"}
	for _, c := range []struct {
		tree, tests []string
		want        string
	}{
		{lib, []string{"test/unittest/readertest.cpp"}, "cpp"},
		{lib, []string{"test/unittest/readertest.cpp", "test/index.test.js"}, "javascript"},
		{lib, nil, "javascript"},
		{[]string{"pyproject.toml", "meson.build", "pkg/_speed.c", "pkg/a.py", "tests/test_a.py"}, []string{"tests/test_a.py"}, "python"},
		{[]string{"pyproject.toml", "pkg/_speed.c", "pkg/a.py", "tests/test_speed.c"}, []string{"tests/test_speed.c"}, "python"},
		// A C++ library with Python bindings (pyproject.toml, setup.py):
		// a PR adding a GoogleTest file and its line in test/CMakeLists.txt
		// was built as Python, and pytest collected nothing.
		{bound, []string{"test/CMakeLists.txt", "test/reporter_gtest.cc"}, "cpp"},
		// Its PR whose only test change was test/CMakeLists.txt went to
		// pytest ("collected 0 items"): the CMake suite runs it.
		{bound, []string{"test/CMakeLists.txt"}, "cpp"},
		{bound, []string{"test/CMakeLists.txt", "tests/conftest.py"}, "python"},
		{bound, []string{"bindings/python/test_x.py", "test/reporter_gtest.cc"}, "python"},
	} {
		if got := envgen.DetectForTests(c.tree, "", c.tests); got != c.want {
			t.Errorf("DetectForTests(%v, tests %v) = %q, want %q", c.tree, c.tests, got, c.want)
		}
	}
}

func TestNeedsAndDebianPackages(t *testing.T) {
	tree := envgen.MapTree("acme/widget", map[string]string{
		"apps/CMakeLists.txt":                   "find_package(widget CONFIG)\n",
		"test/googletest-1.16.0/CMakeLists.txt": "find_package(absl REQUIRED)\n",
		"cmake/FindBrotli.cmake":                "pkg_check_modules(Brotli_${_libname} QUIET libbrotli${_libname})\n",
		"CMakeLists.txt": "find_package(Threads REQUIRED)\nfind_package(OpenSSL 3.0 COMPONENTS Crypto SSL QUIET)\n# find_package(Commented)\n" +
			"pkg_check_modules(BROTLI REQUIRED IMPORTED_TARGET libbrotlienc>=1.0 libbrotlidec)\nfind_package(FrobLib REQUIRED)\n",
		"third_party/x/CMakeLists.txt": "find_package(Vendored REQUIRED)\n",
		"meson.build":                  "zdep = dependency('zlib', required : false)\n",
		"configure.ac":                 "PKG_CHECK_MODULES([CHECK], [check >= 0.9])\nAC_CHECK_LIB([m], [sin])\nAC_CHECK_LIB(bsd, strlcpy)\nAC_CHECK_LIB([weird], [f])\n",
		".github/workflows/ci.yml":     "      - run: sudo apt-get install -y --no-install-recommends libzstd-dev g++-13 clang-17\n",
	})
	pkgs, unknown := DebianPackages(Needs(tree))
	want := []string{"check", "libbrotli-dev", "libbsd-dev", "libssl-dev", "zlib1g-dev"}
	if !reflect.DeepEqual(pkgs, want) {
		t.Errorf("packages %v, want %v", pkgs, want)
	}
	// The CI's own -dev packages are installed when Debian has them (at
	// image build time), never as part of the one apt-get line.
	if got := CIPackages(Needs(tree), pkgs); !reflect.DeepEqual(got, []string{"apt:libzstd-dev"}) {
		t.Errorf("CI packages %v", got)
	}
	if got := CIPackages(Needs(tree), append(pkgs, "libzstd-dev")); len(got) != 0 {
		t.Errorf("a CI package the build files already need: %v", got)
	}
	if !reflect.DeepEqual(unknown, []string{"cmake:FrobLib (CMakeLists.txt, required)"}) {
		t.Errorf("unknown %v", unknown)
	}
}

func TestTableRejectsBadRows(t *testing.T) {
	if _, err := parseTable("t.csv", "kind,name,package\ncmake,zlib,zlib1g-dev\nnpm,left-pad,x\n"); err == nil || !strings.Contains(err.Error(), "t.csv:3:") {
		t.Errorf("bad kind: %v", err)
	}
	if _, err := parseTable("t.csv", "cmake,zlib\n"); err == nil || !strings.Contains(err.Error(), "t.csv:1:") {
		t.Errorf("short row: %v", err)
	}
	if len(debTable) < 50 || debTable["cmake:openssl"] != "libssl-dev" || debTable["lib:m"] != "" {
		t.Errorf("embedded table: %d rows", len(debTable))
	}
}

func TestTestNames(t *testing.T) {
	src := "TEST(NodeTest, CloneNull) {}\nTEST_F(EmitterTest, Simple) {}\nTEST_CASE(\"Parse a \\\"quoted\\\" flag\" * test_suite(\"x\")) {}\n" +
		"  RUN_TEST(cjson_add_null_should_add_null);\nvoid helper(void) {}\n"
	got := (lang{"cpp"}).TestNames("t.cpp", src)
	want := []string{"EmitterTest.Simple", "NodeTest.CloneNull", `Parse a \"quoted\" flag`, "cjson_add_null_should_add_null"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("names %q, want %q", got, want)
	}
}

// A project that fetches its test framework builds offline: Debian's
// package stands in for the download.
func TestPlanFetchContentOffline(t *testing.T) {
	tree := envgen.MapTree("o/n", map[string]string{
		"CMakeLists.txt": "cmake_minimum_required(VERSION 3.14)\nset(CMAKE_CXX_STANDARD 17)\noption(MYLIB_BUILD_TESTS \"tests\" OFF)\noption(MYLIB_USE_SYSTEM_GTEST \"\" OFF)\n" +
			"include(FetchContent)\nFetchContent_Declare(googletest URL https://github.com/google/googletest/archive/v1.14.0.zip)\n" +
			"FetchContent_Declare(Catch2 GIT_REPOSITORY https://github.com/catchorg/Catch2.git GIT_TAG v3.4.0)\nFetchContent_MakeAvailable(googletest Catch2)\n",
		"src/lib.cpp": "", "test/lib_test.cpp": "",
	})
	p, err := (lang{"cpp"}).Plan(tree, envgen.Tests{Files: []string{"test/lib_test.cpp"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, pkg := range []string{"googletest", "cmake", "ninja-build", "g++"} {
		if !contains(p.Packages, pkg) {
			t.Errorf("packages %v lack %s", p.Packages, pkg)
		}
	}
	// Catch2 v3.4.0: Debian 12's catch2 is 2.13, so 3 comes from backports.
	if contains(p.Packages, "catch2") || !strings.Contains(strings.Join(p.ToolchainSteps, "\n"), "bookworm-backports catch2") {
		t.Errorf("Catch2 3: packages %v, steps %v", p.Packages, p.ToolchainSteps)
	}
	conf := p.Install[0]
	for _, arg := range []string{"-DFETCHCONTENT_TRY_FIND_PACKAGE_MODE=ALWAYS", "-DFETCHCONTENT_SOURCE_DIR_GOOGLETEST=/usr/src/googletest", "-DMYLIB_BUILD_TESTS=ON"} {
		if !strings.Contains(conf, arg) {
			t.Errorf("configure step %q lacks %s", conf, arg)
		}
	}
	if strings.Contains(conf, "USE_SYSTEM_GTEST") {
		t.Errorf("configure step %q turns on a switch that only picks GoogleTest's origin", conf)
	}
	if p.Test.LogFormat != "ctest" || !strings.Contains(p.Test.Command, "'lib_test'") {
		t.Errorf("runner %+v", p.Test)
	}
	if p.MemoryMB != 4096 {
		t.Errorf("memory %d MB, want 4096 (two C++ compilers at once)", p.MemoryMB)
	}
	if !strings.Contains(strings.Join(p.Notes, "\n"), "C++ standard 17") {
		t.Errorf("notes %v", p.Notes)
	}
}

func TestPlanRefusesNoBuildSystem(t *testing.T) {
	if _, err := (lang{"c"}).Plan(envgen.MapTree("o/n", map[string]string{"a.c": ""}), envgen.Tests{}); err == nil {
		t.Error("a tree with no build system planned")
	}
	tree := envgen.MapTree("o/n", map[string]string{"CMakeLists.txt": "set(CMAKE_CXX_STANDARD 26)\n", "a.cpp": ""})
	p, err := (lang{"cpp"}).Plan(tree, envgen.Tests{})
	if err != nil || !strings.Contains(strings.Join(p.ToolchainSteps, "\n"), "curate: toolchain_mismatch") {
		t.Errorf("C++26 is not a toolchain mismatch: %v %v", err, p)
	}
}

// The build helper is a file of the build context the Dockerfile copies
// and the steps call by name, not a blob in a RUN line.
func TestHelperIsAContextFile(t *testing.T) {
	tree := envgen.MapTree("o/n", map[string]string{"CMakeLists.txt": "enable_testing()\n", "a.c": "", "tests/t.c": ""})
	p, err := (lang{"c"}).Plan(tree, envgen.Tests{Files: []string{"tests/t.c"}})
	if err != nil {
		t.Fatal(err)
	}
	env := t.TempDir()
	if err := envgen.WriteEnvironment(env, "o__n-1", "curate/base:bookworm", tree, p, envgen.Network{}, envgen.RepoConfig{}, false); err != nil {
		t.Fatal(err)
	}
	df, err := os.ReadFile(filepath.Join(env, "Dockerfile"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(df), "\nCOPY tools/ /usr/local/bin/\n") || strings.Contains(string(df), "base64") {
		t.Errorf("Dockerfile does not copy the helper by name:\n%s", df)
	}
	st, err := os.Stat(filepath.Join(env, "tools", "curate-cbuild"))
	if err != nil || st.Mode()&0o100 == 0 {
		t.Fatalf("helper not written executable: %v %v", st, err)
	}
	if data, _ := os.ReadFile(filepath.Join(env, "tools", "curate-cbuild")); string(data) != cbuildScript {
		t.Error("helper differs from curate-cbuild.sh")
	}
	if !strings.HasPrefix(p.Install[0], "curate-cbuild configure cmake ") {
		t.Errorf("install step %q does not call the helper by name", p.Install[0])
	}
}

// The switches real projects declare, with their project() names: the
// ones that turn tests on are turned on; one that turns them off or runs
// them under valgrind is not (a C JSON library's JANSSON_WITHOUT_TESTS and
// JANSSON_TEST_WITH_VALGRIND were both turned on, and no test was built:
// nop_not_run on 8 of 8), nor one that builds them with a toolkit the
// image lacks (a CLI parser's CLI11_CUDA_TESTS, a variable its CMake
// tests: "Failed to find nvcc" on 6 of 6).
func TestTestOptions(t *testing.T) {
	for _, c := range []struct {
		project, cmake string
		want           []string
	}{
		{"cJSON", "option(ENABLE_CJSON_TEST \"\" ON)\noption(ENABLE_CJSON_UTILS \"\" OFF)\n", []string{"ENABLE_CJSON_TEST"}},
		{"YAML_CPP", "option(YAML_CPP_BUILD_TESTS \"\" ON)\noption(YAML_USE_SYSTEM_GTEST \"\" OFF)\n", []string{"YAML_CPP_BUILD_TESTS"}},
		{"httplib", "option(HTTPLIB_TEST \"\" OFF)\noption(HTTPLIB_COMPILE \"\" OFF)\n", []string{"HTTPLIB_TEST"}},
		{"zlib", "option(ZLIB_ENABLE_TESTS \"\" ON)\noption(ZLIBNG_ENABLE_TESTS \"\" ON)\noption(WITH_GTEST \"\" ON)\noption(WITH_FUZZERS \"\" OFF)\n", []string{"ZLIB_ENABLE_TESTS", "ZLIBNG_ENABLE_TESTS", "WITH_GTEST"}},
		{"tinyxml2", "option(tinyxml2_BUILD_TESTING \"\" ON)\n", []string{"tinyxml2_BUILD_TESTING"}},
		{"jansson", "option(JANSSON_TEST_WITH_VALGRIND \"\" OFF)\noption(JANSSON_WITHOUT_TESTS \"\" OFF)\noption(DISABLE_TESTS \"\" OFF)\noption(FOO_SKIP_TESTS \"\" OFF)\n", nil},
		{"toml11", "cmake_dependent_option(TOML11_BUILD_TESTS \"\" OFF\n    \"BUILD_TESTING\" OFF)\ncmake_dependent_option(TOML11_BUILD_TOML_TESTS \"\" OFF \"x\" OFF)\ncmake_dependent_option(TOML11_TEST_WITH_ASAN \"\" OFF \"x\" OFF)\n", []string{"TOML11_BUILD_TESTS"}},
		{"vecmath", "option(VECMATH_USE_C99 \"\" OFF)\noption(VECMATH_USE_TEST \"Enable Tests\" OFF)\noption(VECMATH_USE_SYSTEM_GTEST \"\" OFF)\n", []string{"VECMATH_USE_TEST"}},
		// A flavour of the tests, a dependent option on the main switch
		// that is off by default (cpputest/cpputest, held out, fourteenth
		// set: with CPPUTEST_TEST_GTEST on, every Oracle failed to
		// compile its GoogleTest integration test).
		{"CppUTest", "cmake_dependent_option(CPPUTEST_BUILD_TESTING \"\"\n  ${PROJECT_IS_TOP_LEVEL} \"BUILD_TESTING\" OFF)\ncmake_dependent_option(CPPUTEST_TEST_GTEST \"Test GoogleTest integration\"\n  OFF \"CPPUTEST_BUILD_TESTING\" OFF)\n", []string{"CPPUTEST_BUILD_TESTING"}},
		{"CLI11", "option(CLI11_PRECOMPILED \"\" OFF)\nif(CLI11_BUILD_TESTS)\nendif()\nif(CLI11_CUDA_TESTS)\nendif()\nif(CLI11_SINGLE_FILE_TESTS)\nendif()\n", []string{"CLI11_BUILD_TESTS"}},
	} {
		cmake := "project(\n  " + c.project + "\n  VERSION 1.0)\n" + c.cmake
		got := testOptions(envgen.MapTree("o/n", map[string]string{"CMakeLists.txt": cmake}), "")
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: test switches %v, want %v", c.project, got, c.want)
		}
	}
}

func TestBuildSystemTheCIRuns(t *testing.T) {
	files := map[string]string{
		"CMakeLists.txt": "project(parson C)\nadd_library(parson parson.c)\n", "meson.build": "project('parson', 'c')\n",
		"Makefile": "all: test\ntest: tests.c parson.c\n\t$(CC) -o $@ tests.c parson.c\n\t./$@\n", "parson.c": "", "tests.c": "",
		".github/workflows/build.yml": "jobs:\n  tests:\n    runs-on: ubuntu-latest\n    steps:\n    - run: make all\n",
	}
	p, err := (lang{"c"}).Plan(envgen.MapTree("o/n", files), envgen.Tests{Files: []string{"tests.c"}})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(p.Install[0], "configure make") {
		t.Errorf("configure step %q, want make's", p.Install[0])
	}
	// The same library before it had a CI: its CMake declares no test,
	// its Makefile builds and runs them (its meson.build declares none).
	delete(files, ".github/workflows/build.yml")
	if p, err = (lang{"c"}).Plan(envgen.MapTree("o/n", files), envgen.Tests{Files: []string{"tests.c"}}); err != nil || !strings.Contains(p.Install[0], "configure make") {
		t.Errorf("no CI, CMake without tests: configure step %q (%v), want make's", p.Install[0], err)
	}
	files["CMakeLists.txt"] += "enable_testing()\nadd_executable(t tests.c)\nadd_test(NAME t COMMAND t)\n"
	files[".github/workflows/build.yml"] = "jobs:\n  tests:\n    steps:\n    - run: cmake -B b && ctest --test-dir b\n"
	if p, err = (lang{"c"}).Plan(envgen.MapTree("o/n", files), envgen.Tests{Files: []string{"tests.c"}}); err != nil || !strings.Contains(p.Install[0], "configure cmake") {
		t.Errorf("CI runs CMake: configure step %q (%v), want cmake's", p.Install[0], err)
	}
}

// A regular expression library of 2020: its CMake builds only the
// library, its tests are Automake's (test/Makefile.am's TESTS), and it has
// no GitHub workflow. CMake found no test (nop_not_run); Automake does.
func TestBuildSystemIsAutomakesWhenOnlyItDeclaresTests(t *testing.T) {
	files := map[string]string{
		"CMakeLists.txt": "project(regex C)\nadd_library(regex src/regex.c)\ninclude(TestBigEndian)\n",
		"configure.ac":   "AC_INIT([regex], [6.9])\nAC_CONFIG_FILES([Makefile src/Makefile test/Makefile])\nAC_OUTPUT\n",
		"Makefile.am":    "SUBDIRS = src test\n", "src/regex.c": "",
		"test/Makefile.am": "TESTS = test_utf8 test_syntax\ncheck_PROGRAMS = $(TESTS)\n", "test/test_utf8.c": "",
	}
	p, err := (lang{"c"}).Plan(envgen.MapTree("o/n", files), envgen.Tests{Files: []string{"test/test_utf8.c"}})
	if err != nil || !strings.Contains(p.Install[0], "configure autotools") {
		t.Fatalf("configure step %q (%v), want autotools'", p.Install[0], err)
	}
	// Without tests in any Makefile.am, CMake stays.
	files["test/Makefile.am"] = "noinst_PROGRAMS = sample\n"
	if p, err = (lang{"c"}).Plan(envgen.MapTree("o/n", files), envgen.Tests{Files: []string{"test/test_utf8.c"}}); err != nil || !strings.Contains(p.Install[0], "configure cmake") {
		t.Errorf("no Automake tests: configure step %q (%v), want cmake's", p.Install[0], err)
	}
}

// A plain Makefile's linker flags and pkg-config calls are needs too: an
// HTTP library's test/Makefile (2019) links -lssl -lcrypto -lz, and its
// test did not compile without OpenSSL's headers ("openssl/err.h: No such
// file or directory" in every run). A library the table does not know
// (-lfoo) and a flag that only looks like one are left alone.
func TestNeedsFromMakefiles(t *testing.T) {
	tree := envgen.MapTree("acme/web", map[string]string{
		"test/Makefile": "OPENSSL_SUPPORT = -DCPPHTTPLIB_OPENSSL_SUPPORT -I$(OPENSSL_DIR)/include -L$(OPENSSL_DIR)/lib -lssl -lcrypto\n" +
			"ZLIB_SUPPORT = -DCPPHTTPLIB_ZLIB_SUPPORT -lz\n# LIBS = -lbz2\ntest : test.cc\n\t$(CXX) -o test test.cc $(OPENSSL_SUPPORT) $(ZLIB_SUPPORT) -lfoo -pthread\n" +
			"BROTLI = $(shell pkg-config --cflags --libs libbrotlidec)\nclean:\n\trm -f test-local\n",
	})
	pkgs, _ := DebianPackages(Needs(tree))
	if want := []string{"libbrotli-dev", "libssl-dev", "zlib1g-dev"}; !reflect.DeepEqual(pkgs, want) {
		t.Errorf("packages %v, want %v", pkgs, want)
	}
}
