// Package cfamily plans C and C++ tasks: CMake, Meson, Autotools or plain
// Make; gcc/g++ and the build tools from Debian; the system libraries the
// build files and CI ask for, as Debian -dev packages; the build tree kept
// in the image so the task layer and test.sh rebuild incrementally; per-test
// results as JUnit XML from CTest, GoogleTest, doctest, Catch2, Meson and
// Automake.
package cfamily

import (
	_ "embed"
	"fmt"
	"maps"
	"path"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"curate/pipeline/envgen"
)

// lang is registered as "c" and "cpp" (the names mining gives changed
// files); both plan the same way.
type lang struct{ name string }

func init() {
	envgen.Register(lang{"c"})
	envgen.Register(lang{"cpp"})
}

func (l lang) Name() string { return l.name }

// BuildDir is the out-of-tree build folder kept in the image.
const BuildDir = "/opt/curate-build"

// verifierTimeoutSec is task.toml's [verifier] timeout_sec: compiling a
// C++ test suite on a busy machine takes minutes. test.sh passes it to
// curate-cbuild, whose tests stop a margin before it.
const verifierTimeoutSec = 1800

//go:embed curate-cbuild.sh
var cbuildScript string

//go:embed curate-cc.sh
var ccScript string

//go:embed curate-ctestids.py
var ctestidsScript string

//go:embed curate-automake.sh
var automakeScript string

//go:embed curate-cmakeoff.py
var cmakeoffScript string

//go:embed curate-cmakeconf.sh
var cmakeconfScript string

var (
	gtestRe  = regexp.MustCompile(`(?m)^\s*(?:TYPED_)?TEST(?:_F|_P)?\s*\(\s*(\w+)\s*,\s*(\w+)\s*\)`)
	caseRe   = regexp.MustCompile(`(?m)^\s*(?:TEST_CASE|SCENARIO|TEST_CASE_METHOD\s*\(\s*\w+\s*,)\s*\(?\s*"((?:[^"\\]|\\.)*)"`)
	unityRe  = regexp.MustCompile(`(?m)^\s*RUN_TEST\s*\(\s*(\w+)`)
	cxxStdRe = regexp.MustCompile(`(?i)CMAKE_CXX_STANDARD\s+"?(\d+)|cxx_std_(\d+)|CXX_STANDARD\s+"?(\d+)|cpp_std\s*=\s*c\+\+(\d+)|-std=(?:c|gnu)\+\+(\d+)`)
	// makeClangRe is a Makefile that names clang as its compiler.
	makeClangRe = regexp.MustCompile(`(?m)^\s*(?:CC|CXX)\s*[:?]?=\s*clang`)
	ciClangRe   = regexp.MustCompile(`(?i)\b(CC|CXX|compiler)\s*[:=]\s*\[?\s*["']?clang`)
)

// TestNames lists GoogleTest's Suite.Test, doctest's and Catch2's
// TEST_CASE titles and Unity's RUN_TEST functions.
func (lang) TestNames(_, content string) []string {
	seen := map[string]bool{}
	var out []string
	add := func(s string) {
		if s != "" && !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	for _, m := range gtestRe.FindAllStringSubmatch(content, -1) {
		add(m[1] + "." + m[2])
	}
	for _, m := range caseRe.FindAllStringSubmatch(content, -1) {
		add(m[1])
	}
	for _, m := range unityRe.FindAllStringSubmatch(content, -1) {
		add(m[1])
	}
	sort.Strings(out)
	return out
}

var cExts = map[string]bool{".c": true}
var cxxExts = map[string]bool{".cc": true, ".cpp": true, ".cxx": true, ".c++": true, ".hpp": true, ".hh": true, ".hxx": true, ".ipp": true}

// Detect is "c" or "cpp" for a repository with a C or C++ build system
// and sources, "" otherwise (envgen asks when no other language's marker
// file is there).
func (lang) Detect(files []string) string {
	if BuildSystem(under(files, SourceDir(files, nil))) == "" {
		return ""
	}
	return COrCXX(files)
}

// COrCXX counts sources: C++ when it has more C++ files than C files.
func COrCXX(files []string) string {
	c, cxx := 0, 0
	for _, f := range files {
		e := strings.ToLower(path.Ext(f))
		switch {
		case cExts[e]:
			c++
		case cxxExts[e]:
			cxx++
		}
	}
	switch {
	case cxx > c:
		return "cpp"
	case c > 0:
		return "c"
	}
	return ""
}

// BuildSystem is cmake, meson, autotools or make from the root's files.
func BuildSystem(files []string) string {
	has := map[string]bool{}
	for _, f := range files {
		has[f] = true
	}
	switch {
	case has["CMakeLists.txt"]:
		return "cmake"
	case has["meson.build"]:
		return "meson"
	case has["configure.ac"] || has["configure.in"] || has["configure"]:
		return "autotools"
	case has["Makefile"] || has["makefile"] || has["GNUmakefile"]:
		return "make"
	}
	return ""
}

func (l lang) Plan(tree *envgen.Tree, tests envgen.Tests) (*envgen.Plan, error) {
	dir := SourceDir(tree.Files, tests.Files)
	ciDir, ciFile := "", ""
	if dir == "" {
		ciDir, ciFile = ciSourceDir(tree, tests.Files)
		dir = ciDir
	}
	sys := BuildSystem(under(tree.Files, dir))
	if sys == "" {
		return nil, fmt.Errorf("no C/C++ build system at the root or in a top-level folder (CMakeLists.txt, meson.build, configure.ac or Makefile)")
	}
	p := &envgen.Plan{Language: l.name, Tools: map[string]string{"curate-cbuild": cbuildScript, "curate-ctestids": ctestidsScript, "curate-automake": automakeScript, "curate-testlines": testlinesScript, "curate-cmakeoff": cmakeoffScript, "curate-cmakeconf": cmakeconfScript}}
	if dir == "" {
		if ci := ciBuildSystem(tree, sys); ci != sys {
			p.Note("build system %s, not %s: the CI runs %s and no CMake, or no CMake file declares a test", ci, sys, ci)
			sys = ci
		}
	}
	if ciDir != "" {
		p.Env = append(p.Env, "CURATE_SRC=/app/"+dir)
		p.Note("the CI configures CMake from %s/ (%s), which the root's CMakeLists.txt does not add: configured, built and tested from there", dir, ciFile)
	} else if root := BuildSystem(tree.Files); dir != "" && root != "" {
		p.Env = append(p.Env, "CURATE_SRC=/app/"+dir)
		p.Note("the PR's tests are in %s/, which the root's %s build does not reach (no build file of its own there): %s/Makefile builds and runs them", dir, root, dir)
	} else if dir != "" {
		p.Env = append(p.Env, "CURATE_SRC=/app/"+dir)
		p.Note("the build files are in %s/ (the root has none): configured, built and tested from there", dir)
	}
	// xxd: shell-script tests make binary fixtures with it. netbase:
	// /etc/services and /etc/protocols, which a CI machine has and a
	// network library's tests read (getservbyname "http": a DNS resolver's
	// 5 cases failed in both states without it). xz-utils: `xz`, which a
	// CI runner has and tests unpack their fixtures with (a configuration
	// library's speed test: "sh: 1: xz: not found" in both states).
	p.Packages = []string{"gcc", "g++", "make", "pkg-config", "python3", "file", "xxd", "ccache", "netbase", "xz-utils"}
	// ccache's compiler links come first in PATH, whatever the build
	// system: the image compiles the PR head and then the buggy tree, so
	// a run that compiles either state again (the oracle, gold's fixed
	// runs) finds every object in the cache.
	p.Env = append(p.Env, "PATH=/usr/lib/ccache:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
		"CCACHE_DIR=/opt/curate-ccache", "CCACHE_SLOPPINESS=include_file_mtime,include_file_ctime", "CCACHE_MAXSIZE=4G")
	switch sys {
	case "cmake":
		p.Packages = append(p.Packages, "cmake", "ninja-build")
	case "meson":
		p.Packages = append(p.Packages, "meson", "ninja-build")
	case "autotools":
		p.Packages = append(p.Packages, "autoconf", "automake", "libtool", "autoconf-archive")
	}
	buildToolSteps(p, tree, dir, sys)
	compiler := "gcc/g++ 12 (Debian)"
	if sys == "make" && makeClangRe.MatchString(tree.Text(join(dir, "Makefile"))) {
		p.Packages = append(p.Packages, "clang")
		compiler = "gcc/g++ 12 and clang (Debian; the Makefile sets CC or CXX to clang)"
	} else if ci := ciText(tree); ciClangRe.MatchString(ci) && !strings.Contains(ci, "gcc") && !strings.Contains(ci, "g++") {
		p.Packages = append(p.Packages, "clang")
		p.Env = append(p.Env, "CC=clang", "CXX=clang++")
		compiler = "clang (Debian; the CI builds only with clang)"
	}
	p.Toolchain = envgen.Toolchain{Name: l.name, Why: compiler + ", " + sys}
	p.Note("toolchain: %s; build system %s (%s); out-of-tree build in %s kept in the image (built at the PR head, then on the buggy tree, both through ccache), so test.sh rebuilds only what a patch touches and finds those objects in the cache", compiler, sys, join(dir, map[string]string{"cmake": "CMakeLists.txt", "meson": "meson.build", "autotools": "configure.ac", "make": "Makefile"}[sys]), BuildDir)
	if std := cxxStandard(tree); std > 0 {
		if std > 23 {
			p.ToolchainSteps = append(p.ToolchainSteps, envgen.FailStep("toolchain_mismatch", "the project asks for C++%d; Debian 12's g++ 12 knows up to C++23", std))
		}
		p.Note("C++ standard %d asked by the build files (g++ 12 supports it; the build files set it)", std)
	}

	signalFlags(p, tree)
	commonSymbolsStep(p)

	needs := Needs(tree)
	pkgs, unknown := DebianPackages(needs)
	var args []string
	if sys == "cmake" {
		// Debug keeps assertions on; no -g, which only slows the compile.
		args = append(args, "-DCMAKE_BUILD_TYPE=Debug", "-DCMAKE_C_FLAGS_DEBUG=-O0", "-DCMAKE_CXX_FLAGS_DEBUG=-O0", "-DBUILD_TESTING=ON")
		// CMake compiles through curate-cc: ccache (CMake bypasses its
		// links in PATH) and -Wno-error after the project's flags.
		args = append(args, "-DCMAKE_C_COMPILER_LAUNCHER=curate-cc", "-DCMAKE_CXX_COMPILER_LAUNCHER=curate-cc")
		p.Tools["curate-cc"] = ccScript
		p.Note("compiles go through ccache, with -Wno-error after the project's flags (curate-cc, CMake's compiler launcher): a warning a newer compiler than the project's finds is not an error")
		args = append(args, ciStandards(p, tree)...)
		args = append(args, ciStdOption(p, tree, dir)...)
		args = append(args, gtestSourcePath(p, tree)...)
		switches := testOptions(tree, dir)
		switches = append(switches, ciSubprojectTestOptions(p, tree, dir, switches)...)
		for _, o := range switches {
			args = append(args, "-D"+o+"=ON")
		}
		// BUILD_TESTING too: -DBUILD_TESTING=ON is always set, and a
		// project may declare it as a dependent option itself.
		root := withIncludedFiles(tree.Text(join(dir, "CMakeLists.txt")), func(f string) string { return tree.Text(join(dir, f)) })
		deps := switchDependencies(root, append(slices.Clone(switches), "BUILD_TESTING"), declaredOptions(root, optionWrappers(tree)))
		for _, o := range slices.Sorted(maps.Keys(deps)) {
			args = append(args, "-D"+o+"=ON")
			p.Note("%s=ON: the test switch %s is a cmake_dependent_option on it, and stays off without it", o, deps[o])
		}
		// Warnings as errors break builds with a newer compiler than the
		// project's CI; a switch that turns them off is used.
		for _, o := range options(tree, dir) {
			if u := strings.ToUpper(o); strings.Contains(u, "WERROR") && (strings.HasPrefix(u, "DISABLE") || strings.HasPrefix(u, "NO_")) {
				args = append(args, "-D"+o+"=ON")
				p.Note("%s=ON: warnings are not errors (the compiler may be newer than the project's)", o)
			}
			if docsOptionRe.MatchString(o) {
				args = append(args, "-D"+o+"=OFF")
				p.Note("%s=OFF: documentation is not tested, and its tools (Doxygen) are not installed", o)
			}
			if downloadOptionRe.MatchString(o) {
				args = append(args, "-D"+o+"=OFF")
				p.Note("%s=OFF: only the package registries answer here, so the project's switch to download a dependency is off and the installed package is used", o)
			}
		}
		if ts := dedupe(append(ciTargets(p, tree), excludedTestTargets(p, tree)...)); len(ts) > 0 {
			p.Env = append(p.Env, "CURATE_BUILD_TARGETS="+strings.Join(ts, " "))
		}
		if f := externalProjectWithoutByproducts(tree); f != "" {
			p.Env = append(p.Env, "CURATE_CMAKE_GENERATOR=Unix Makefiles")
			p.Note("%s builds an ExternalProject without BUILD_BYPRODUCTS: Make, not Ninja (Ninja stops on its outputs: \"missing and no known rule to make it\")", f)
		}
		fetchContent(p, tree, &pkgs, &args)
	}
	if sys == "meson" {
		mesonArgs(p, tree, dir, &args)
	}
	if sys == "autotools" {
		if sw := autotoolsTestSwitches(tree, dir); len(sw) > 0 {
			args = append(args, sw...)
			p.Note("configure %s: configure.ac's switch that builds the tests, off by default", strings.Join(sw, " "))
		}
		if maintainerMode(tree, dir) {
			args = append(args, "--enable-maintainer-mode")
			p.Note("configure --enable-maintainer-mode: configure.ac's AM_MAINTAINER_MODE turns off the rules that make the Makefiles again when a patch changes a Makefile.am")
		}
	}
	if why := needsCatch3(tree); why != "" {
		pkgs = slices.DeleteFunc(pkgs, func(s string) bool { return s == "catch2" })
		p.ToolchainSteps = append(p.ToolchainSteps, catch3Step())
		p.Note("Catch2 3 from Debian's %s (Debian 12 has 2.13): %s", catch3Suite, why)
	}
	pkgs = dedupe(pkgs)
	if len(pkgs) > 0 {
		for _, q := range pkgs {
			if !contains(p.Packages, q) {
				p.Packages = append(p.Packages, q)
			}
		}
		p.Note("system dependencies from the build files and CI: %s", strings.Join(pkgs, " "))
	}
	if len(unknown) > 0 {
		p.Note("no Debian package known for %s: the configure step names them as deps_missing if the build needs them", strings.Join(envgen.FirstOf(unknown, 5), ", "))
	}
	look := LookUps(append(append(needs, headerNeeds(tree)...), findModuleHeaders(tree, needs)...), sys)
	if len(look) > 0 {
		p.Note("required and not in cdeps.csv: %s; looked up in Debian's Contents index at image build time (apt-file)", strings.Join(look, " "))
	}
	if ci := CIPackages(needs, pkgs); len(ci) > 0 {
		look = append(look, ci...)
		p.Note("packages the CI installs with apt, a suite's locale or a -m32 build needs: %s; installed when Debian 12 has them, else left out with a note in the build log", strings.Join(aptSources(needs, ci), ", "))
	}
	if len(look) > 0 {
		p.Tools["curate-cdeps"] = cdepsScript
		p.ToolchainSteps = append(p.ToolchainSteps, "curate-cdeps "+envgen.QuoteAll(look))
	}
	if sys == "cmake" {
		gtestDownload(p, tree)
	}
	fill := submoduleSteps(p, tree, tests.Files)
	frameworkIncludePath(p, tree, tests.Files)
	if u := testUser(p, tree); u != "" {
		p.Env = append(p.Env, "CURATE_TEST_USER="+u)
	}
	if rakeHarness(p, tree) {
		// The CI's rake command is the test command (rakeharness.go).
	} else if c := ciTestScript(p, tree); c != "" {
		p.Env = append(p.Env, "CURATE_CI_TEST="+c)
		p.Tools["curate-citest"] = citestScript
	}

	cb := "curate-cbuild %s " + sys + " " + BuildDir
	// The image builds the PR head (lenient: a head that does not build is
	// the tests' to report), then the task layer the buggy tree; both
	// fill ccache, so test.sh's rebuild of either state is cache hits.
	p.Install = append(fill, fmt.Sprintf(cb, "configure")+" "+envgen.QuoteAll(args))
	if step := pydepsStep(p, tree, sys); step != "" {
		p.Install = append(p.Install, step)
	}
	p.Install = append(p.Install, fmt.Sprintf(cb, "build")+" --lenient")
	p.AfterBug = []string{fmt.Sprintf(cb, "build") + " --lenient"}
	var names []string
	for _, f := range tests.Files {
		if e := strings.ToLower(path.Ext(f)); cExts[e] || cxxExts[e] {
			b := path.Base(f)
			names = append(names, strings.TrimSuffix(b, path.Ext(b)))
		}
	}
	sort.Strings(names)
	// The GoogleTest cases the PR changed, when its test change is only
	// inside test bodies: where CTest lists each case, or the runner runs
	// the binary itself, only those run.
	only := ""
	if len(tests.Changed) > 0 {
		only = "CURATE_TESTS=" + envgen.ShellQuote(strings.Join(tests.Changed, ":")) + " "
		p.Note("tests: the PR changes only the bodies of %d GoogleTest case(s) (%s); where CTest lists each case, or no CTest runs the binary, only those run (the suite in one file runs whole otherwise)", len(tests.Changed), clip(strings.Join(tests.Changed, " "), 200))
	}
	if ex := ciGTestExcluded(tree); len(ex) > 0 {
		p.Env = append(p.Env, "CURATE_GTEST_EXCLUDE="+strings.Join(ex, ":"))
		p.Note("GoogleTest cases the CI leaves out by default (GTEST_FILTER in .github/workflows): %s; they do not run", strings.Join(ex, " "))
	}
	p.Test = envgen.Runner{
		Command:   only + fmt.Sprintf("CURATE_VERIFIER_TIMEOUT=%d ", verifierTimeoutSec) + fmt.Sprintf(cb, "test") + " " + envgen.QuoteAll(dedupe(names)),
		Check:     `grep -q '<testcase' /logs/verifier/c-junit.xml`,
		LogFormat: "ctest",
	}
	p.Note("tests: rebuilt (a test file that does not compile is one failing test: CMake builds its target again without it, so the target's other tests still run), then CTest, GoogleTest, doctest, Catch2, Meson or Automake results as JUnit XML; CTest runs the tests named like the PR's test files when there are such")
	// Compiling a C++ test suite on a busy machine: the image build and
	// test.sh (which recompiles what the patch touched) get 30 minutes.
	p.BuildTimeoutSec = 1800
	p.VerifierTimeoutSec = verifierTimeoutSec
	// Two compilers at once (-j2), each over 1 GB on a large C++ test
	// file, with a link beside them: 2 GB killed cc1plus on a
	// header-only HTTP library's 15,000-line test file (oom in nop).
	p.MemoryMB = 4096
	p.Note("memory 4096 MB: the build compiles two files at a time, and a C++ compiler takes over 1 GB on a large test file")
	return p, nil
}

// testOptions are the CMake option() switches that turn tests on
// (ENABLE_FOO_TEST, FOO_BUILD_TESTS), read from the root CMakeLists.txt;
// a cmake_dependent_option() is one too (a TOML library's
// TOML11_BUILD_TESTS: its tests were never built).

func testOptions(tree *envgen.Tree, dir string) []string {
	var out []string
	text := tree.Text(join(dir, "CMakeLists.txt"))
	for _, o := range options(tree, dir) {
		u := strings.ToUpper(o)
		// A switch that turns tests on ends in TEST, TESTS or TESTING
		// (FOO_BUILD_TESTS, ENABLE_FOO_TEST, WITH_GTEST). One that turns
		// them off (FOO_WITHOUT_TESTS, DISABLE_, NO_, SKIP), changes how
		// they run (FOO_TEST_WITH_VALGRIND: a C library had both; both were turned
		// on and no test was built) or picks where GoogleTest comes from
		// (FOO_USE_SYSTEM_GTEST) keeps the project's default.
		if turnsTestsOn(u) && plainTestSwitch(u, text) && !contains(out, o) {
			out = append(out, o)
		}
	}
	// Projects that guard tests with a variable rather than an option.
	for _, v := range regexp.MustCompile(`(?m)^\s*if\s*\(\s*([A-Z0-9_]*BUILD_TESTS?|[A-Z0-9_]*_TESTS?)\s*\)`).FindAllStringSubmatch(text, -1) {
		if !contains(out, v[1]) && v[1] != "BUILD_TESTING" && plainTestSwitch(strings.ToUpper(v[1]), text) {
			out = append(out, v[1])
		}
	}
	extra := extraTestSwitches(text, out)
	return slices.DeleteFunc(out, func(o string) bool { return contains(extra, o) })
}

// turnsTestsOn says whether an upper-cased switch name turns tests on
// (testOptions says why).
func turnsTestsOn(u string) bool {
	on := strings.HasSuffix(u, "TEST") || strings.HasSuffix(u, "TESTS") || strings.HasSuffix(u, "TESTING")
	off := strings.HasPrefix(u, "DISABLE") || strings.HasPrefix(u, "NO_") || strings.Contains(u, "WITHOUT") || strings.Contains(u, "SKIP") || strings.Contains(u, "SYSTEM")
	return on && !off
}

var projectRe = regexp.MustCompile(`(?i)\bproject\s*\(\s*([A-Za-z0-9_.+-]+)`)

// testWords may stand in a test switch's name beside the project's name
// and a verb: FOO_BUILD_TESTS, ENABLE_FOO_TEST, WITH_GTEST, FOO_UNIT_TESTS,
// FOO_USE_TEST (a C math library's tests, off by default and turned on by
// its CI's -DFOO_USE_TEST=ON: all six PRs tried were nop_not_run).
var testWords = map[string]bool{"BUILD": true, "ENABLE": true, "WITH": true, "USE": true, "TEST": true, "TESTS": true, "TESTING": true, "GTEST": true, "UNIT": true, "UNITTESTS": true}

// plainTestSwitch says whether an upper-cased switch turns the project's
// tests on without asking for more: once its first word (the project's
// prefix, however spelt) and the words of its project() name are taken
// away, only testWords are left. A switch that names something else
// (FOO_CUDA_TESTS builds the tests with nvcc, which no image has: a
// CLI parser's configure failed on all six PRs tried) keeps its default.
func plainTestSwitch(u, cmake string) bool {
	words := strings.Split(u, "_")
	if len(words) > 1 && !testWords[words[0]] {
		words = words[1:]
	}
	project := map[string]bool{}
	if m := projectRe.FindStringSubmatch(stripComments(cmake, "#")); m != nil {
		for _, w := range strings.FieldsFunc(strings.ToUpper(m[1]), func(r rune) bool { return !(r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') }) {
			project[w] = true
		}
	}
	for _, w := range words {
		if w != "" && !testWords[w] && !project[w] {
			return false
		}
	}
	return true
}

// options are the root CMakeLists.txt's option() names, also those
// declared through a wrapper (optionWrappers).
func options(tree *envgen.Tree, dir string) []string {
	return declaredOptions(tree.Text(join(dir, "CMakeLists.txt")), optionWrappers(tree))
}

// cxxStandard is the highest C++ standard the build files ask for (0 when none).
func cxxStandard(tree *envgen.Tree) int {
	best := 0
	for _, f := range tree.Files {
		b := path.Base(f)
		if b != "CMakeLists.txt" && b != "meson.build" && b != "Makefile" && !strings.HasSuffix(b, ".cmake") {
			continue
		}
		for _, m := range cxxStdRe.FindAllStringSubmatch(tree.Text(f), -1) {
			for _, g := range m[1:] {
				if n, err := strconv.Atoi(g); err == nil {
					if n < 50 && n > best { // 98 and 03 are older than 11
						best = n
					}
				}
			}
		}
	}
	return best
}

// docsOptionRe is an option that builds documentation (X_BUILD_DOCS,
// BUILD_DOCUMENTATION, WITH_DOC): a URI library's is on by default and
// its find_package(Doxygen REQUIRED) stopped the configure.
var docsOptionRe = regexp.MustCompile(`(?i)^(?:[A-Z0-9]+_)*(?:BUILD|WITH|ENABLE|GENERATE)_(?:API_)?(?:DOCS?|DOCUMENTATION|DOXYGEN)$`)

// downloadOptionRe is an option that downloads a dependency when on
// (X_DOWNLOAD_GTEST, FETCH_DEPS): a hash-map library's, on by default,
// cloned GoogleTest from GitHub at configure time, and all six of its PRs
// were deps_unreachable; off, it finds Debian's.
var downloadOptionRe = regexp.MustCompile(`(?i)^(?:[A-Z0-9]+_)*(?:DOWNLOAD|FETCH)(?:_[A-Z0-9]+)*$`)

func ciText(tree *envgen.Tree) string {
	var b strings.Builder
	for _, f := range tree.Glob(".github/workflows/*") {
		b.WriteString(tree.Text(f))
	}
	return b.String()
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

func dedupe(ss []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range ss {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	sort.Strings(out)
	return out
}

var (
	externalProjectRe = regexp.MustCompile(`(?i)\bExternalProject_Add\s*\(`)
	byproductsRe      = regexp.MustCompile(`\bBUILD_BYPRODUCTS\b`)
)

// externalProjectWithoutByproducts is the first CMake file that adds an
// ExternalProject and declares no BUILD_BYPRODUCTS anywhere, "" when none.
// Ninja must know every input of a link: a library the external project
// installs and an IMPORTED target names (a YAML library before 2019 built its
// own GoogleTest so: "ninja: error: 'test/prefix/lib/libgmock.a', needed
// by 'test/run-tests', missing and no known rule to make it") stops Ninja
// before it builds anything; Make builds the external project first.
func externalProjectWithoutByproducts(tree *envgen.Tree) string {
	first := ""
	for _, f := range tree.Files {
		if path.Base(f) != "CMakeLists.txt" && !strings.HasSuffix(f, ".cmake") {
			continue
		}
		text := stripComments(tree.Text(f), "#")
		if byproductsRe.MatchString(text) {
			return ""
		}
		if first == "" && externalProjectRe.MatchString(text) {
			first = f
		}
	}
	return first
}
