package cfamily

import (
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"curate/internal/testenv"
	"curate/pipeline/envgen"
)

// Only what the build in use requires and cdeps.csv does not know is
// looked up: cpp-httplib's meson.build asks for mbedtls and
// appleframeworks, which its CMake build (the one curate configures) never
// needs.
func TestLookUps(t *testing.T) {
	tree := envgen.MapTree("acme/widget", map[string]string{
		"CMakeLists.txt": "find_package(Threads REQUIRED)\nfind_package(FrobLib REQUIRED)\nfind_package(Optional)\n" +
			"pkg_check_modules(X REQUIRED IMPORTED_TARGET libfrob>=2)\n",
		"meson.build":  "dependency('mbedtls')\n",
		"configure.ac": "AC_CHECK_HEADERS([frob/frob.h], [], [AC_MSG_ERROR([frob.h is required])])\nAC_CHECK_HEADERS([sys/probe.h])\n",
	})
	needs := append(Needs(tree), headerNeeds(tree)...)
	if got, want := LookUps(needs, "cmake"), []string{"cmake:FrobLib", "pkg:libfrob"}; !reflect.DeepEqual(got, want) {
		t.Errorf("cmake: %v, want %v", got, want)
	}
	if got, want := LookUps(needs, "meson"), []string{"pkg:mbedtls"}; !reflect.DeepEqual(got, want) {
		t.Errorf("meson: %v, want %v", got, want)
	}
	if got, want := LookUps(needs, "autotools"), []string{"header:frob/frob.h"}; !reflect.DeepEqual(got, want) {
		t.Errorf("autotools: %v, want %v", got, want)
	}
	p, err := (lang{"cpp"}).Plan(tree, envgen.Tests{})
	if err != nil {
		t.Fatal(err)
	}
	if p.Tools["curate-cdeps"] == "" || !strings.Contains(strings.Join(p.ToolchainSteps, "\n"), "curate-cdeps 'cmake:FrobLib' 'pkg:libfrob'") {
		t.Errorf("plan does not look FrobLib up: %v", p.ToolchainSteps)
	}
}

// curate-cdeps against Debian bookworm's real Contents index: a .pc
// file, a CMake config and a header cdeps.csv has no row for, and a
// module nothing provides (a note, not a failure). Minutes: apt-file
// downloads the index.
func TestCdepsScriptInDocker(t *testing.T) {
	if testing.Short() {
		t.Skip("downloads Debian's Contents index")
	}
	base := testenv.BaseImage(t)
	script, err := filepath.Abs("curate-cdeps.sh")
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("docker", "run", "--rm", "-v", script+":/usr/local/bin/curate-cdeps:ro", base, "bash", "-c",
		"curate-cdeps pkg:libbrotlicommon cmake:fmt header:zstd.h pkg:no-such-module-curate && test -f /usr/lib/x86_64-linux-gnu/pkgconfig/libbrotlicommon.pc").CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	for _, want := range []string{
		"pkg:libbrotlicommon is in Debian's libbrotli-dev",
		"cmake:fmt is in Debian's libfmt-dev",
		"header:zstd.h is in Debian's libzstd-dev",
		"no Debian package provides pkg:no-such-module-curate",
	} {
		if !strings.Contains(string(out), want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// A package the CI installs from a vendor's apt repository is left out
// with a note and the others are installed. Found on a C++ project whose
// CI adds LLVM's repository: the image's one apt-get line failed with
// "E: Unable to locate package libc++-20-dev" and the task was classed
// deps_missing before any test ran.
func TestCdepsScriptCIPackagesInDocker(t *testing.T) {
	base := testenv.BaseImage(t)
	script, err := filepath.Abs("curate-cdeps.sh")
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("docker", "run", "--rm", "-v", script+":/usr/local/bin/curate-cdeps:ro", base, "bash", "-c",
		"curate-cdeps apt:libc++-20-dev apt:libzstd-dev && test -f /usr/include/zstd.h && ! command -v apt-file").CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if want := "the CI installs libc++-20-dev; Debian 12 has no such package, left out"; !strings.Contains(string(out), want) {
		t.Errorf("output lacks %q:\n%s", want, out)
	}
}
