package cfamily

import (
	"strings"
	"testing"

	"curate/pipeline/envgen"
)

// toml11's layout at PR 176: the root CMakeLists.txt refuses to
// configure unless CMAKE_CXX_STANDARD is given, and its CI passes it from
// a matrix of standards. The newest standard of the tie is passed.
func TestPlanPassesTheCIsCxxStandard(t *testing.T) {
	wf := `on: [push]
jobs:
  build-linux-gcc:
    runs-on: Ubuntu-22.04
    strategy:
      matrix:
        compiler: ['g++-12', 'g++-11']
        standard: ['11', '14', '17', '20']
    steps:
      - uses: actions/checkout@v4
      - name: Configure
        run: |
            mkdir build && cd build
            cmake .. -Dtoml11_BUILD_TEST=ON -DCMAKE_CXX_COMPILER=${{ matrix.compiler }} -DCMAKE_CXX_STANDARD=${{ matrix.standard }}
      - run: cd build && ctest --output-on-failure
`
	tree := envgen.MapTree("o/n", map[string]string{
		"CMakeLists.txt":       "cmake_minimum_required(VERSION 3.5)\nif(NOT DEFINED CMAKE_CXX_STANDARD)\n  message(FATAL_ERROR \"CMAKE_CXX_STANDARD is not defined.\")\nendif()\n",
		"tests/test_parse.cpp": "", ".github/workflows/main.yml": wf,
	})
	p, err := (lang{"cpp"}).Plan(tree, envgen.Tests{Files: []string{"tests/test_parse.cpp"}})
	if err != nil {
		t.Fatal(err)
	}
	conf := strings.Join(p.Install, "\n")
	if !strings.Contains(conf, "-DCMAKE_CXX_STANDARD=20") || strings.Count(conf, "CMAKE_CXX_STANDARD") != 1 {
		t.Errorf("configure step %q: want -DCMAKE_CXX_STANDARD=20 once", conf)
	}
	if notes := strings.Join(p.Notes, "\n"); !strings.Contains(notes, "CMAKE_CXX_STANDARD=20, as the CI configures it (.github/workflows/main.yml job build-linux-gcc") {
		t.Errorf("notes lack the source of the standard:\n%s", notes)
	}
	if strings.Contains(conf, "-DCMAKE_CXX_COMPILER=") {
		t.Errorf("configure step %q takes the CI's compiler, which curate decides", conf)
	}
}

// A CI without a standard, or with one g++ 12 does not know, passes none.
func TestPlanPassesNoStandardTheCIDoesNotGive(t *testing.T) {
	for name, run := range map[string]string{
		"none":    "cmake -B build -DBUILD_TESTING=ON",
		"unknown": "cmake -B build -DCMAKE_CXX_STANDARD=26",
		"not set": "cmake -B build -DCMAKE_CXX_STANDARD=${{ env.STD }}",
	} {
		tree := envgen.MapTree("o/n", map[string]string{
			"CMakeLists.txt": "project(n)\n", "tests/t.cpp": "",
			".github/workflows/ci.yml": "on: [push]\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n      - run: " + run + "\n",
		})
		p, err := (lang{"cpp"}).Plan(tree, envgen.Tests{Files: []string{"tests/t.cpp"}})
		if err != nil {
			t.Fatal(err)
		}
		if conf := strings.Join(p.Install, "\n"); strings.Contains(conf, "CMAKE_CXX_STANDARD") {
			t.Errorf("%s: configure step %q", name, conf)
		}
	}
}

// tomlplusplus's tests/meson.build runs its suite once per locale
// (env: ['LC_ALL=' + locale], de_DE.utf8 among them): Debian's image has
// only C.UTF-8, so the locales are installed.
func TestNeedsTheLocalesATestRunsUnder(t *testing.T) {
	tree := envgen.MapTree("o/n", map[string]string{
		"meson.build":       "project('n', 'cpp')\nsubdir('tests')\n",
		"tests/meson.build": "test_locales = [\n\t'C',\n\t'de_DE.utf8'\n]\nforeach locale : test_locales\n\ttest('tests - ' + locale, exe, env: ['LC_ALL=' + locale])\nendforeach\n",
	})
	got := CIPackages(Needs(tree), nil)
	if len(got) != 1 || got[0] != "apt:locales-all" {
		t.Errorf("packages %v, want apt:locales-all", got)
	}
	if why := aptSources(Needs(tree), got); len(why) != 1 || why[0] != "locales-all (tests/meson.build)" {
		t.Errorf("the note says %q, want the file that names the locale", why)
	}
	ci := envgen.MapTree("o/n", map[string]string{
		"meson.build":              "project('n', 'c')\n",
		".github/workflows/ci.yml": "      - run: sudo apt -y install --no-install-recommends git ninja-build tzdata valgrind\n",
	})
	if got := CIPackages(Needs(ci), nil); len(got) != 1 || got[0] != "apt:tzdata" {
		t.Errorf("CI packages %v, want apt:tzdata (test data; not valgrind, not the toolchain)", got)
	}
	none := envgen.MapTree("o/n", map[string]string{"meson.build": "project('n', 'c')\n# C.UTF-8 only\n"})
	if got := CIPackages(Needs(none), nil); len(got) != 0 {
		t.Errorf("packages %v for a project that names no locale", got)
	}
}

// A serialization library picks its C++ standard by options
// (IF (X_CXX17) SET (CMAKE_CXX_STANDARD 17) ... ELSE 98) that its CI
// turns on through an environment variable a script passes to cmake.
// Built at the default, C++98, its GoogleTest tests did not compile
// (fix_fails_tests). The newest standard the CI turns on is chosen.
func TestPlanTurnsOnTheCIsStandardOption(t *testing.T) {
	cmake := "OPTION (W_CXX11 \"c++11\" OFF)\nOPTION (W_CXX17 \"c++17\" OFF)\nOPTION (W_CXX26 \"c++26\" OFF)\n" +
		"IF (W_CXX26)\n  SET (CMAKE_CXX_STANDARD 26)\nELSEIF (W_CXX17)\n    SET (CMAKE_CXX_STANDARD 17)\nELSEIF (W_CXX11)\n  SET (CMAKE_CXX_STANDARD 11)\nELSE ()\n  SET (CMAKE_CXX_STANDARD 98)\nENDIF ()\n"
	old := "IF (W_CXX17)\n  IF (CMAKE_CXX_COMPILER_ID MATCHES \"^(clang|Clang)$\")\n    SET (CMAKE_CXX_FLAGS \"-std=c++17 ${CMAKE_CXX_FLAGS}\")\n  ELSE ()\n    SET (CMAKE_CXX_FLAGS \"-std=c++17\")\n  ENDIF ()\n" +
		"ELSEIF (W_CXX11)\n  SET (CMAKE_CXX_FLAGS \"-std=c++11 ${CMAKE_CXX_FLAGS}\")\nELSE ()\n  SET (CMAKE_CXX_FLAGS \"-std=c++98 ${CMAKE_CXX_FLAGS}\")\nENDIF ()\n"
	wf := "jobs:\n  linux:\n    steps:\n      - run: |\n          export W_VERSION=\"W_CXX11=ON\"\n          if [ x = y ]; then export W_VERSION=\"W_CXX17=ON\"; fi\n          ci/build.sh\n"
	for _, c := range []struct {
		files map[string]string
		want  string
	}{
		{map[string]string{".github/workflows/gha.yml": wf, "ci/build.sh": "cmake -D ${W_VERSION} -D W_CXX26=ON -S .\n"}, "-DW_CXX17=ON"},
		{map[string]string{"ci/build.sh": "cmake -S .\n"}, ""},
		// A URI library's fuzz-target switch sets C++17 for the fuzzers,
		// and its CI turns it on in a clang job; turned on here, the
		// configure stopped: "Building fuzz targets without Clang (but
		// GNU) is not supported".
		{map[string]string{"CMakeLists.txt": "option(W_BUILD_FUZZERS \"\" OFF)\nif(W_BUILD_FUZZERS)\n  set(CMAKE_CXX_STANDARD 17)\nendif()\n",
			".github/workflows/fuzz.yml": "      - run: cmake -DW_BUILD_FUZZERS=ON -DCMAKE_CXX_COMPILER=clang++ .\n"}, ""},
		// The same project in 2020: flags, not CMAKE_CXX_STANDARD, and
		// the CI's variable set apart from the cmake line.
		{map[string]string{"CMakeLists.txt": old, ".github/workflows/gha.yml": "      - run: |\n          export CXX17=\"ON\"\n          ci/build_cmake.sh\n",
			"ci/build_cmake.sh": "cmake -DW_CXX11=${CXX11} -DW_CXX17=${CXX17} ..\n"}, "-DW_CXX17=ON"},
	} {
		files := map[string]string{"CMakeLists.txt": cmake, "test/t.cpp": ""}
		for k, v := range c.files { // a case's CMakeLists.txt replaces the default
			files[k] = v
		}
		p, err := (lang{"cpp"}).Plan(envgen.MapTree("o/n", files), envgen.Tests{Files: []string{"test/t.cpp"}})
		if err != nil {
			t.Fatal(err)
		}
		conf := strings.Join(p.Install, "\n")
		if c.want != "" && (!strings.Contains(conf, c.want) || strings.Count(conf, "W_CXX") != 1) {
			t.Errorf("configure step %q: want %s alone", conf, c.want)
		}
		if c.want == "" && strings.Contains(conf, "-DW_") {
			t.Errorf("no CI option on, but %q", conf)
		}
	}
}
